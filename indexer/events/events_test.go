package events

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/note"
)

const good = `{"id":"a","workflow_id":"w","event_type":"task_complete","timestamp":"2026-08-01T10:00:00Z","data":{"result":"success"}}`

// diagAt renders the diagnostics as "line:rule".
func diagAt(ds []note.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%s", d.Line, d.Rule))
	}
	return out
}

func TestParse(t *testing.T) {
	huge := `{"workflow_id":"w","event_type":"task_complete","timestamp":"2026-08-01T10:00:00Z","data":{"blob":"` + strings.Repeat("x", maxLineBytes) + `"}}`
	tests := []struct {
		name  string
		src   string
		ids   []string // events kept, in order
		lines []int    // their lines
		diags []string // line:rule
	}{
		{name: "empty file", src: ""},
		{name: "blank lines only", src: "\n  \n\r\n"},
		{name: "one bad line in the middle", src: good + "\n{not json\n" + strings.Replace(good, `"a"`, `"b"`, 1) + "\n",
			ids: []string{"a", "b"}, lines: []int{1, 3}, diags: []string{"2:events-syntax"}},
		{name: "CRLF and BOM", src: "\xef\xbb\xbf" + good + "\r\n\r\n" + strings.Replace(good, `"a"`, `"b"`, 1) + "\r\n",
			ids: []string{"a", "b"}, lines: []int{1, 3}},
		{name: "no final newline", src: good, ids: []string{"a"}, lines: []int{1}},
		{name: "unknown event type is kept and flagged once", src: strings.Replace(good, "task_complete", "rollback", 1) + "\n" +
			strings.NewReplacer("task_complete", "rollback", `"a"`, `"b"`).Replace(good),
			ids: []string{"a", "b"}, lines: []int{1, 2}, diags: []string{"1:events-unknown-type"}},
		{name: "Unix milliseconds, as a number and as a string", src: `{"id":"n","workflow_id":"w","event_type":"task_complete","timestamp":1785578400000}
{"id":"s","workflow_id":"w","event_type":"task_complete","timestamp":"1785578400000"}`,
			ids: []string{"n", "s"}, lines: []int{1, 2}},
		{name: "Unix seconds are refused", src: `{"workflow_id":"w","event_type":"task_complete","timestamp":1785578400}`,
			diags: []string{"1:events-field"}},
		{name: "missing fields", src: `{"event_type":"task_complete","timestamp":"2026-08-01T10:00:00Z"}
{"workflow_id":"w","timestamp":"2026-08-01T10:00:00Z"}
{"workflow_id":"w","event_type":"task_complete"}
{"workflow_id":"","event_type":"task_complete","timestamp":"2026-08-01T10:00:00Z"}
{"workflow_id":"w","event_type":7,"timestamp":"2026-08-01T10:00:00Z"}`,
			diags: []string{"1:events-field", "2:events-field", "3:events-field", "4:events-field", "5:events-field"}},
		{name: "bad timestamps", src: `{"workflow_id":"w","event_type":"task_complete","timestamp":"yesterday"}
{"workflow_id":"w","event_type":"task_complete","timestamp":true}
{"workflow_id":"w","event_type":"task_complete","timestamp":1e300}
{"workflow_id":"w","event_type":"task_complete","timestamp":null}`,
			diags: []string{"1:events-field", "2:events-field", "3:events-field", "4:events-field"}},
		{name: "not objects", src: "[1,2]\n\"text\"\nnull\n" + good + " " + good + "\n" + good[:40],
			diags: []string{"1:events-syntax", "2:events-syntax", "3:events-syntax", "4:events-syntax", "5:events-syntax"}},
		{name: "data that is not an object", src: `{"workflow_id":"w","event_type":"task_complete","timestamp":"2026-08-01T10:00:00Z","data":[1]}`,
			diags: []string{"1:events-field"}},
		{name: "a context that is not an object is kept and reported", src: `{"id":"c","workflow_id":"w","event_type":"task_complete","timestamp":"2026-08-01T10:00:00Z","data":{"context":"prod"}}`,
			ids: []string{"c"}, lines: []int{1}, diags: []string{"1:events-context"}},
		{name: "a huge line is skipped unread", src: good + "\n" + huge + "\n" + strings.Replace(good, `"a"`, `"b"`, 1),
			ids: []string{"a", "b"}, lines: []int{1, 3}, diags: []string{"2:events-line-too-large"}},
		{name: "numeric ids and task ids are kept as written", src: `{"id":12,"workflow_id":34,"event_type":"task_complete","task_id":5.0,"timestamp":"2026-08-01T10:00:00Z"}`,
			ids: []string{"12"}, lines: []int{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs, diags := Parse("events/x.jsonl", []byte(tc.src))
			var ids []string
			var lines []int
			for _, e := range evs {
				ids = append(ids, e.ID)
				lines = append(lines, e.Line)
				if e.Path != "events/x.jsonl" || e.Data == nil || e.Time.Location() != time.UTC {
					t.Errorf("event %+v", e)
				}
			}
			if !slices.Equal(ids, tc.ids) || !slices.Equal(lines, tc.lines) {
				t.Errorf("events %v at lines %v, want %v at %v", ids, lines, tc.ids, tc.lines)
			}
			if got := diagAt(diags); !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %v, want %v\n%v", got, tc.diags, diags)
			}
			for _, d := range diags {
				if d.Path != "events/x.jsonl" || d.Col != 1 {
					t.Errorf("diagnostic %s", d)
				}
			}
		})
	}
}

// TestParseKeys: a line that repeats a key is reported at the repeat's
// line and column and skipped, whichever object of the line repeats it
// (encoding/json kept the last value without a word); a key in another
// case is read as its field, as encoding/json reads it, and reported.
// Good and bad side by side.
func TestParseKeys(t *testing.T) {
	const ts = `"timestamp":"2026-08-01T10:00:00Z"`
	for _, tc := range []struct {
		name, line string
		kept       bool
		diags      []string // col:rule
		says       string
	}{
		{"each key once", `{"workflow_id":"w","event_type":"task_complete",` + ts + `,"data":{"result":"ok","context":{"result":1}}}`, true, nil, ""},
		{"a repeated key", `{"workflow_id":"w","event_type":"task_complete","event_type":"hil_decision",` + ts + `}`, false,
			[]string{"49:events-duplicate-key"}, `key "event_type" repeats "event_type" (column 20)`},
		{"a repeat in another case", `{"workflow_id":"w","event_type":"task_complete",` + ts + `,"Workflow_ID":"v"}`, false,
			[]string{"84:events-duplicate-key"}, `key "Workflow_ID" repeats "workflow_id" (column 2)`},
		{"a repeat in data", `{"workflow_id":"w","event_type":"task_complete",` + ts + `,"data":{"result":"success","result":"failure"}}`, false,
			[]string{"111:events-duplicate-key"}, `key "result" repeats "result"`},
		{"keys differing in case in data are two keys", `{"workflow_id":"w","event_type":"task_complete",` + ts + `,"data":{"result":"a","Result":"b"}}`, true, nil, ""},
		{"a repeated key that is not read", `{"workflow_id":"w","event_type":"task_complete",` + ts + `,"note":"a","note":"b","Note":"c"}`, true, nil, ""},
		{"a key in another case", `{"Workflow_Id":"w","event_type":"task_complete",` + ts + `}`, true,
			[]string{"2:events-key-case"}, `key "Workflow_Id" is read as "workflow_id"`},
		{"a repeat after spaces and non-ASCII", ` {"workflow_id":"é","event_type":"task_complete",` + ts + `,"workflow_id":"w"}`, false,
			[]string{"85:events-duplicate-key"}, "column 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs, diags := Parse("events/x.jsonl", []byte(good+"\n"+tc.line+"\n"))
			if len(evs) != map[bool]int{true: 2, false: 1}[tc.kept] || evs[0].ID != "a" {
				t.Errorf("kept %d events, want the good line's and %v", len(evs), tc.kept)
			}
			var got []string
			for _, d := range diags {
				if d.Line != 2 || d.Severity != note.Warning || !strings.Contains(d.Message, tc.says) {
					t.Errorf("%v: want a warning on line 2 saying %q", d, tc.says)
				}
				got = append(got, fmt.Sprintf("%d:%s", d.Col, d.Rule))
			}
			if !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %v, want %v\n%v", got, tc.diags, diags)
			}
		})
	}
}

func TestParseValues(t *testing.T) {
	src := `{"workflow_id":" w ","event_type":"task_complete","task_id":"t","timestamp":"2026-08-01T12:00:00+02:00","data":{"n":12345678901234567890,"context":{"k":"v"}}}
{"workflow_id":"w","event_type":"task_complete","timestamp":1785578400123}`
	evs, diags := Parse("events/x.jsonl", []byte(src))
	if len(evs) != 2 || len(diags) != 0 {
		t.Fatalf("events %v, diagnostics %v", evs, diags)
	}
	e := evs[0]
	if e.WorkflowID != "w" || e.TaskID != "t" || !e.Time.Equal(time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("event %+v", e)
	}
	if !strings.HasPrefix(e.ID, "evt-") || len(e.ID) != 16 {
		t.Errorf("derived id %q", e.ID)
	}
	// Numbers are written back as they were.
	data, _ := json.Marshal(e.Data)
	if !bytes.Contains(data, []byte("12345678901234567890")) {
		t.Errorf("data %s", data)
	}
	if e.Context()["k"] != "v" {
		t.Errorf("context %v", e.Context())
	}
	if want := time.UnixMilli(1785578400123).UTC(); !evs[1].Time.Equal(want) {
		t.Errorf("time %s, want %s", evs[1].Time, want)
	}
}

func TestRetain(t *testing.T) {
	ref := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	at := func(id string, d time.Duration, line int) Execution {
		return Execution{ID: id, Time: ref.Add(-d), Path: "events/a.jsonl", Line: line}
	}
	day := 24 * time.Hour
	evs := []Execution{at("old", 31*day, 1), at("edge", 30*day, 2), at("new", day, 3), at("older", 40*day, 4), at("old2", 30*day+time.Millisecond, 5)}
	kept, expired := Retain(evs, ref, 30)
	var k, x []string
	for _, e := range kept {
		k = append(k, e.ID)
	}
	for _, e := range expired {
		x = append(x, e.ID)
	}
	if !slices.Equal(k, []string{"edge", "new"}) || !slices.Equal(x, []string{"old", "older", "old2"}) {
		t.Errorf("kept %v expired %v", k, x)
	}
	ds := ExpiredDiagnostics(expired, 30)
	if len(ds) != 1 || ds[0].Line != 1 || ds[0].Severity != note.Info ||
		ds[0].Message != "3 events older than 30 days left out (lines 1, 4-5); engram prune deletes expired events from the repository" {
		t.Errorf("diagnostics %v", ds)
	}
}

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		in   []int
		want string
	}{
		{[]int{4}, "line 4"},
		{[]int{1, 2, 3, 7, 9, 10}, "lines 1-3, 7, 9-10"},
	} {
		if got := Lines(tc.in); got != tc.want {
			t.Errorf("Lines(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var many []int
	for i := 1; i < 100; i += 2 {
		many = append(many, i)
	}
	if got := Lines(many); !strings.HasSuffix(got, ", 39, and 30 more") {
		t.Errorf("Lines of 50 ranges = %q", got)
	}
}

func TestRemoveLines(t *testing.T) {
	src := "a\r\nb\n\nc\nd"
	for _, tc := range []struct {
		lines []int
		want  string
	}{
		{nil, src},
		{[]int{1}, "b\n\nc\nd"},
		{[]int{2, 4}, "a\r\n\nd"},
		{[]int{5}, "a\r\nb\n\nc\n"},
		{[]int{1, 2, 3, 4, 5}, ""},
	} {
		if got := string(RemoveLines([]byte(src), tc.lines)); got != tc.want {
			t.Errorf("RemoveLines(%v) = %q, want %q", tc.lines, got, tc.want)
		}
	}
}

func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		result any
		want   note.Outcome
		ok     bool
	}{
		{true, note.Success, true}, {false, note.Failure, true},
		{"success", note.Success, true}, {" Passed ", note.Success, true}, {"ok", note.Success, true},
		{"partial", note.Partial, true}, {"FAILED", note.Failure, true}, {"error", note.Failure, true},
		{map[string]any{"success": false, "status": "success"}, note.Failure, true},
		{map[string]any{"status": "partial"}, note.Partial, true},
		{map[string]any{"outcome": "failure"}, note.Failure, true},
		{nil, "", false}, {"maybe", "", false}, {json.Number("1"), "", false}, {map[string]any{"code": 200}, "", false},
	} {
		got, ok := Outcome(tc.result)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Outcome(%#v) = %v, %v; want %v, %v", tc.result, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzParse: no input crashes the parser, every kept event has what SPEC
// §2.5 requires, and lines are within the file.
func FuzzParse(f *testing.F) {
	f.Add([]byte(good + "\n{bad\n"))
	f.Add([]byte(`{"workflow_id":1,"event_type":"x","timestamp":1785578400000,"data":{"context":{}}}` + "\r\n"))
	f.Add([]byte("\xef\xbb\xbf\n\n[]"))
	f.Fuzz(func(t *testing.T, src []byte) {
		evs, diags := Parse("events/f.jsonl", src)
		n := bytes.Count(src, []byte("\n")) + 1
		for _, e := range evs {
			if e.WorkflowID == "" || e.Type == "" || e.Time.IsZero() || e.ID == "" || e.Data == nil || e.Line < 1 || e.Line > n {
				t.Fatalf("bad event %+v", e)
			}
		}
		for _, d := range diags {
			if d.Line < 1 || d.Line > n {
				t.Fatalf("diagnostic at line %d of %d", d.Line, n)
			}
		}
	})
}
