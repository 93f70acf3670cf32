package write

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/events"
	"github.com/engramhq/engram/indexer/note"
)

// Feedback is one echo (an agent used the note) or fizzle (the note was
// injected and ignored) to record (SPEC §2.6).
type Feedback struct {
	// Note is the title of an existing note.
	Note string
	// Kind is "echo" or "fizzle".
	Kind    string
	Session string
	// At is when; zero is WriteOptions.Now.
	At time.Time
}

// maxEventsInput caps what one `engram events add` takes.
const maxEventsInput = 8 << 20

// RecordFeedback appends one line to feedback/YYYY-MM.jsonl (the month of
// f.At). The note must exist and be one a reader may know: feedback on a
// private note is refused as feedback on no note is, saying nothing of
// it (the build would only report the line, naming the note).
func RecordFeedback(ctx context.Context, opt WriteOptions, f Feedback) (Written, error) {
	if f.Kind != "echo" && f.Kind != "fizzle" {
		return Written{}, fmt.Errorf("the kind %q is not echo or fizzle", f.Kind)
	}
	if len(f.Session) > maxTitleBytes || bytes.ContainsAny([]byte(f.Session), "\n\r\x00") {
		return Written{}, fmt.Errorf("the session is over %d bytes or holds a line break: give a session id", maxTitleBytes)
	}
	if strings.TrimSpace(f.Note) == "" {
		return Written{}, fmt.Errorf("no note named: give a note's title")
	}
	if f.At.IsZero() {
		f.At = opt.now()
	}
	t, err := begin(ctx, opt)
	if err != nil {
		return Written{}, err
	}
	x, err := t.index()
	var target found
	if err == nil {
		target, err = x.find(f.Note, true)
	}
	var line []byte
	if err == nil {
		line, err = jsonLine(struct {
			ID      string `json:"id"`
			Kind    string `json:"kind"`
			At      string `json:"at"`
			Session string `json:"session,omitempty"`
		}{target.Note.Title, f.Kind, f.At.UTC().Format(time.RFC3339), f.Session})
	}
	if err == nil {
		err = t.appendLines("feedback/"+f.At.UTC().Format("2006-01")+".jsonl", line)
	}
	return t.end(err, "write: feedback "+f.Kind+" "+target.Note.Title)
}

// AddEvents appends execution events (SPEC §2.5) to
// events/YYYY-MM.jsonl (the month of WriteOptions.Now). data is JSON
// lines, one event each, or a JSON array of events. Every event must
// parse with no warning (a workflow_id, an event_type, a timestamp), or
// none is written; an unknown event type is kept, as a build keeps it.
func AddEvents(ctx context.Context, opt WriteOptions, data []byte) (Written, int, error) {
	if len(data) > maxEventsInput {
		return Written{}, 0, fmt.Errorf("the events are %d bytes, over the limit of %d: add them in parts", len(data), maxEventsInput)
	}
	lines, err := eventLines(data)
	if err != nil {
		return Written{}, 0, err
	}
	if len(lines) == 0 {
		return Written{}, 0, fmt.Errorf("no event given: give JSON lines such as {\"workflow_id\":\"w1\",\"event_type\":\"task_complete\",\"timestamp\":\"2026-05-01T10:00:00Z\",\"data\":{}}")
	}
	joined := bytes.Join(lines, []byte("\n"))
	evs, diags := events.Parse("events", joined)
	for _, d := range diags {
		if d.Severity >= note.Warning {
			return Written{}, 0, fmt.Errorf("event %d: %s; nothing was written", d.Line, strings.TrimSuffix(d.Message, "; line skipped"))
		}
	}
	t, err := begin(ctx, opt)
	if err != nil {
		return Written{}, 0, err
	}
	err = t.appendLines("events/"+opt.now().Format("2006-01")+".jsonl", append(joined, '\n'))
	w, err := t.end(err, fmt.Sprintf("write: %d events", len(evs)))
	return w, len(evs), err
}

// eventLines splits events input into compact JSON lines: a JSON array
// is one event per element, else each non-blank line is one.
func eventLines(data []byte) ([][]byte, error) {
	data = bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\uFEFF")))
	if bytes.HasPrefix(data, []byte("[")) {
		var arr []json.RawMessage
		if err := json.Unmarshal(data, &arr); err != nil {
			return nil, fmt.Errorf("the events are not a JSON array of objects: %v", err)
		}
		out := make([][]byte, len(arr))
		for i, raw := range arr {
			var b bytes.Buffer
			if err := json.Compact(&b, raw); err != nil {
				return nil, fmt.Errorf("event %d: %v", i+1, err)
			}
			out[i] = b.Bytes()
		}
		return out, nil
	}
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		if l := bytes.TrimSpace(sc.Bytes()); len(l) > 0 {
			out = append(out, append([]byte(nil), l...))
		}
	}
	return out, sc.Err()
}

// appendLines plans the file p with lines appended, under the writers'
// lock, so that two writers at once both land: the file is read, extended
// and replaced atomically (a reader sees the old file or the new, never
// half a line).
func (t *txn) appendLines(p string, lines []byte) error {
	if err := t.inside(p); err != nil {
		return err
	}
	old, err := os.ReadFile(t.abs(p))
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if err != nil {
		return err
	}
	if len(old) > 0 && old[len(old)-1] != '\n' {
		old = append(old, '\n')
	}
	t.replace(p, append(old, lines...))
	return nil
}
