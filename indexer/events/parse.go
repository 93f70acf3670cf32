package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// MaxLineBytes caps one line: a longer line is reported and skipped
// unread, so a runaway line never reaches the output (or Hugo, which
// decodes every byte of a page's front matter).
const maxLineBytes = 256 << 10

// MaxFileBytes caps one events file; a larger file is reported and not
// read.
const MaxFileBytes = 64 << 20

// Parse reads one events file. Each line that is not blank must be a
// JSON object with a workflow_id, an event_type and a timestamp (RFC 3339
// or Unix milliseconds); a line that is not is a warning at its line and
// is skipped, and the others are kept. A BOM and CRLF line endings are
// fine. A line that repeats a key is a warning at the repeat and is
// skipped; a top-level key in another case is read as its field, and
// reported (ReportKeys). Event types other than KnownTypes are reported
// once per type and file (info), and kept. Events are returned in file
// order.
func Parse(path string, src []byte) ([]Execution, []note.Diagnostic) {
	p := &parser{path: path, unknown: map[string][]int{}}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	for line := 1; len(src) > 0; line++ {
		text := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			text, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		p.line(line, text)
	}
	p.reportUnknown()
	return p.events, p.diags
}

type parser struct {
	path    string
	events  []Execution
	diags   note.Diagnostics
	unknown map[string][]int // lines by unknown event type
}

// record is a line as decoded, each field left raw to check its type.
type record struct {
	ID         json.RawMessage `json:"id"`
	WorkflowID json.RawMessage `json:"workflow_id"`
	EventType  json.RawMessage `json:"event_type"`
	TaskID     json.RawMessage `json:"task_id"`
	Timestamp  json.RawMessage `json:"timestamp"`
	Data       json.RawMessage `json:"data"`
}

// recordFields are the keys a line is read by.
var recordFields = FieldNames(record{})

func (p *parser) line(line int, raw []byte) {
	text := bytes.TrimSpace(raw)
	if len(text) == 0 {
		return
	}
	if len(text) > maxLineBytes {
		p.diags.Report(p.path, line, 1, note.Warning, "events-line-too-large", "line is %d bytes, over the limit of %d; line skipped", len(text), maxLineBytes)
		return
	}
	if text[0] != '{' || !json.Valid(text) {
		p.diags.Report(p.path, line, 1, note.Warning, "events-syntax", "not a JSON object%s; line skipped", syntaxHint(text))
		return
	}
	var r record
	if err := json.Unmarshal(text, &r); err != nil {
		p.diags.Report(p.path, line, 1, note.Warning, "events-syntax", "not a JSON object: %v; line skipped", err)
		return
	}
	if !ReportKeys(&p.diags, p.path, line, raw, recordFields, "events") {
		return
	}
	e, problem := decode(r)
	if problem != "" {
		p.diags.Report(p.path, line, 1, note.Warning, "events-field", "%s; line skipped", problem)
		return
	}
	e.Path, e.Line = p.path, line
	if e.ID == "" {
		sum := sha256.Sum256(text)
		e.ID = "evt-" + hex.EncodeToString(sum[:6])
	}
	if !Known(e.Type) {
		p.unknown[e.Type] = append(p.unknown[e.Type], line)
	}
	if c, ok := e.Data["context"]; ok && c != nil {
		if _, obj := c.(map[string]any); !obj {
			p.diags.Report(p.path, line, 1, note.Info, "events-context", "data.context is not an object: engram events similar does not compare it")
		}
	}
	p.events = append(p.events, e)
}

// syntaxHint says what is wrong with a line that is not a JSON object.
func syntaxHint(text []byte) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&v); err != nil {
		return ": " + err.Error()
	}
	if dec.More() {
		return ": data after the first JSON value"
	}
	switch v.(type) {
	case []any:
		return ": an array"
	case string:
		return ": a string"
	case nil:
		return ": null"
	}
	return ": " + fmt.Sprintf("%T", v)
}

// decode checks a record's fields; problem says why the line is bad.
func decode(r record) (Execution, string) {
	var e Execution
	var ok bool
	if e.WorkflowID, ok = text(r.WorkflowID, true); !ok || e.WorkflowID == "" {
		return e, "no \"workflow_id\" (a non-empty string)"
	}
	if e.Type, ok = text(r.EventType, false); !ok || e.Type == "" {
		return e, "no \"event_type\" (a non-empty string)"
	}
	if isNull(r.Timestamp) {
		return e, "no \"timestamp\" (RFC 3339 or Unix milliseconds)"
	}
	t, err := timestamp(r.Timestamp)
	if err != nil {
		return e, "bad \"timestamp\": " + err.Error()
	}
	e.Time = t
	if e.ID, ok = text(r.ID, true); !ok {
		return e, "\"id\" is not a string or a number"
	}
	if e.TaskID, ok = text(r.TaskID, true); !ok {
		return e, "\"task_id\" is not a string or a number"
	}
	e.Data = map[string]any{}
	if !isNull(r.Data) {
		dec := json.NewDecoder(bytes.NewReader(r.Data))
		dec.UseNumber()
		if r.Data[0] != '{' || dec.Decode(&e.Data) != nil {
			return e, "\"data\" is not an object"
		}
	}
	return e, ""
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// text reads a string field, or with numbers a number as written; absent
// and null are "".
func text(raw json.RawMessage, numbers bool) (string, bool) {
	if isNull(raw) {
		return "", true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s), true
	}
	var n json.Number
	if numbers && json.Unmarshal(raw, &n) == nil {
		return n.String(), true
	}
	return "", false
}

// minMillis is 1973-03-03 in Unix milliseconds: a smaller number is far
// more likely Unix seconds, which SPEC §2.5 does not allow.
const minMillis = 1e11

// timestamp reads an RFC 3339 / ISO 8601 string, or Unix milliseconds (a
// number, or a string of digits).
func timestamp(raw json.RawMessage) (time.Time, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		s = strings.TrimSpace(s)
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			return parse.ParseTime(s)
		}
		raw = json.RawMessage(s)
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return time.Time{}, fmt.Errorf("%s is neither a time nor a number", raw)
	}
	ms, err := n.Float64()
	if err != nil || math.IsNaN(ms) {
		return time.Time{}, fmt.Errorf("%s is not a number of milliseconds", n)
	}
	if ms < minMillis {
		return time.Time{}, fmt.Errorf("%s is before 1973 in Unix milliseconds (Unix seconds? write milliseconds)", n)
	}
	// 253402300799999 is 9999-12-31T23:59:59.999Z.
	if ms > 253402300799999 {
		return time.Time{}, fmt.Errorf("%s is after the year 9999 in Unix milliseconds", n)
	}
	return time.UnixMilli(int64(ms)).UTC(), nil
}

// reportUnknown flags each unknown event type once per file, at its first
// line.
func (p *parser) reportUnknown() {
	types := make([]string, 0, len(p.unknown))
	for t := range p.unknown {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		lines := p.unknown[t]
		p.diags.Report(p.path, lines[0], 1, note.Info, "events-unknown-type", "event_type %q is not one of %s (%s); kept",
			t, strings.Join(knownTypes, ", "), Lines(lines))
	}
}

// Lines writes line numbers as ranges: "line 4", "lines 1-3, 7". Past
// 20 ranges the rest are counted.
func Lines(lines []int) string {
	if len(lines) == 1 {
		return fmt.Sprintf("line %d", lines[0])
	}
	var parts []string
	for i := 0; i < len(lines); {
		j := i
		for j+1 < len(lines) && lines[j+1] == lines[j]+1 {
			j++
		}
		if len(parts) == 20 {
			parts = append(parts, fmt.Sprintf("and %d more", len(lines)-i))
			break
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", lines[i], lines[j]))
		} else {
			parts = append(parts, strconv.Itoa(lines[i]))
		}
		i = j + 1
	}
	return "lines " + strings.Join(parts, ", ")
}
