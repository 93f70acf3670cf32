package aiagents

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/note"
)

// good is a valid episode; each bad case below changes one thing in it.
const good = `{
  "id": "episode-2026-01-09-session-1",
  "session": "2026-01-09-session-1",
  "timestamp": "2026-01-09T10:00:00Z",
  "outcome": "success",
  "task": "Fix the build",
  "decisions": [
    {"id": "d001", "timestamp": "2026-01-09T10:01:00Z", "type": "design", "context": "Which test runner", "options": ["go test", "make"], "chosen": "go test", "rationale": "simplest", "outcome": "success", "effects": ["e002"]}
  ],
  "events": [
    {"id": "e001", "timestamp": "2026-01-09T10:02:00Z", "type": "tool_call", "content": "ran tests", "caused_by": [], "leads_to": ["e002"]},
    {"id": "e002", "timestamp": "2026-01-09T10:03:00Z", "type": "commit", "content": "Commit: abc", "caused_by": ["e001"], "leads_to": []}
  ],
  "metrics": {"duration_minutes": 12, "tool_calls": 7},
  "lessons": ["Run the tests first"]
}
`

// mark, written in a test source, is where a diagnostic must point; it is
// removed before decoding.
const mark = "§"

// edit returns good with each pair of old and new strings replaced; each
// old string must occur once.
func edit(t *testing.T, pairs ...string) string {
	t.Helper()
	src := good
	for i := 0; i+1 < len(pairs); i += 2 {
		if n := strings.Count(src, pairs[i]); n != 1 {
			t.Fatalf("%q occurs %d times in the episode, want 1", pairs[i], n)
		}
		src = strings.Replace(src, pairs[i], pairs[i+1], 1)
	}
	return src
}

// unmark removes the marks from src and returns where they were, as
// "line:col" with columns counted in characters.
func unmark(src string) (string, []string) {
	var b strings.Builder
	var at []string
	for {
		i := strings.Index(src, mark)
		if i < 0 {
			b.WriteString(src)
			return b.String(), at
		}
		b.WriteString(src[:i])
		src = src[i+len(mark):]
		done := b.String()
		line := strings.Count(done, "\n") + 1
		lineStart := strings.LastIndex(done, "\n") + 1
		at = append(at, fmt.Sprintf("%d:%d", line, utf8.RuneCountInString(done[lineStart:])+1))
	}
}

// positioned renders diagnostics as "line:col rule".
func positioned(ds []note.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%d %s", d.Line, d.Col, d.Rule))
	}
	return out
}

const testPath = ".agents/memory/episodes/episode-2026-01-09-session-1.json"

func TestDecode(t *testing.T) {
	tests := []struct {
		name string
		src  string
		// want are the rules of the diagnostics in the order of the marks
		// in src (position order; rule order at one position).
		want  []string
		check func(t *testing.T, n note.Note, ds []note.Diagnostic)
	}{
		{name: "good", src: good, check: checkGood},

		{name: "null arrays", src: edit(t,
			`"decisions": [`, `"decisions": §null, "x": [`,
			`"caused_by": [], "leads_to": ["e002"]`, `"caused_by": §null, "leads_to": ["e002"]`,
			`"caused_by": ["e001"], "leads_to": []`, `"caused_by": ["e001"], "leads_to": §null`,
			`"lessons": ["Run the tests first"]`, `"lessons": §null`),
			want: []string{"aiagents-null-array", "aiagents-null-array", "aiagents-null-array", "aiagents-null-array"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if len(n.Episode.Decisions) != 0 || len(n.Episode.Lessons) != 0 || len(n.Episode.Events) != 2 {
					t.Errorf("decisions %v lessons %v events %d", n.Episode.Decisions, n.Episode.Lessons, len(n.Episode.Events))
				}
			}},
		{name: "null array repeated is reported once", src: edit(t,
			`"options": ["go test", "make"]`, `"options": §null`,
			`"effects": ["e002"]}`, `"effects": []}, {"id": "d002", "timestamp": "2026-01-09T10:01:00Z", "type": "test", "context": "c", "options": null, "chosen": "x", "outcome": "success"}`),
			want: []string{"aiagents-null-array"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if !strings.Contains(ds[0].Message, "in 2 places") {
					t.Errorf("message %q does not count the nulls", ds[0].Message)
				}
			}},

		{name: "missing fields", src: strings.Replace(edit(t,
			`  "id": "episode-2026-01-09-session-1",
  "session": "2026-01-09-session-1",
`, ``,
			`"task": "Fix the build"`, `"task": §""`,
			`{"id": "e001", "timestamp": "2026-01-09T10:02:00Z", "type": "tool_call", "content": "ran tests", `, `§{"id": "e001", "content": null, `),
			"{", "§§{", 1),
			want: []string{"aiagents-missing-field", "aiagents-missing-id", "aiagents-missing-field", "aiagents-missing-field"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if n.Title != "episode-2026-01-09-session-1" {
					t.Errorf("title %q, want the file name", n.Title)
				}
				if n.Episode.Session != "" || n.Episode.Task != "" {
					t.Errorf("session %q task %q", n.Episode.Session, n.Episode.Task)
				}
				if ev := n.Episode.Events[0]; ev.ID != "e001" || ev.Timestamp != "" || ev.Type != "" {
					t.Errorf("event %+v", ev)
				}
			}},
		{name: "missing decision fields listed together", src: edit(t,
			`{"id": "d001", "timestamp": "2026-01-09T10:01:00Z", "type": "design", "context": "Which test runner", `, `§{"id": "d001", "summary": "Which test runner", `,
			`"outcome": "success", "effects"`, `"effects"`),
			want: []string{"aiagents-missing-field"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				d := n.Episode.Decisions[0]
				if d.Context != "Which test runner" || d.Title != "Which test runner" {
					t.Errorf("summary not read as context: %+v", d)
				}
				if ds[0].Message != "decision d001 has no timestamp, type, outcome" {
					t.Errorf("message %q", ds[0].Message)
				}
			}},
		{name: "wrong types", src: edit(t,
			`"task": "Fix the build"`, `"task": §5`,
			`"lessons": ["Run the tests first"]`, `"lessons": [§{"a": 1}, "ok"]`,
			`"metrics": {"duration_minutes": 12, "tool_calls": 7}`, `"metrics": §[1]`),
			want: []string{"aiagents-type", "aiagents-type", "aiagents-type"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if n.Episode.Task != "" || n.Episode.Metrics != nil || len(n.Episode.Lessons) != 1 {
					t.Errorf("task %q metrics %v lessons %v", n.Episode.Task, n.Episode.Metrics, n.Episode.Lessons)
				}
			}},

		{name: "metrics empty object", src: edit(t, `"metrics": {"duration_minutes": 12, "tool_calls": 7}`, `"metrics": {}`),
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if n.Episode.Metrics == nil || len(n.Episode.Metrics) != 0 || n.Episode.DurationMinutes != nil {
					t.Errorf("metrics %v duration %v", n.Episode.Metrics, n.Episode.DurationMinutes)
				}
			}},
		{name: "metrics null", src: edit(t, `"metrics": {"duration_minutes": 12, "tool_calls": 7}`, `"metrics": §null`),
			want: []string{"aiagents-null-metric"}},
		{name: "metric values null, text, huge", src: edit(t,
			`"metrics": {"duration_minutes": 12, "tool_calls": 7}`,
			`"metrics": {"duration_minutes": §null, "tool_calls": §"seven", "errors": §1e999, "commits": 123456789012345678901234567890}`),
			want: []string{"aiagents-null-metric", "aiagents-metric", "aiagents-metric"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				want := map[string]float64{"commits": 1.2345678901234568e29}
				if !reflect.DeepEqual(n.Episode.Metrics, want) || n.Episode.DurationMinutes != nil {
					t.Errorf("metrics %v duration %v", n.Episode.Metrics, n.Episode.DurationMinutes)
				}
			}},
		{name: "camelCase metric keys", src: edit(t,
			`"metrics": {"duration_minutes": 12, "tool_calls": 7}`,
			`"metrics": {§"durationMinutes": 12, §"toolCalls": 7, "files_changed": 12, §"filesChanged": 4, §"HTTPCalls": 1}`),
			want: []string{"aiagents-camelcase-metric", "aiagents-camelcase-metric", "aiagents-metric", "aiagents-camelcase-metric"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				want := map[string]float64{"duration_minutes": 12, "tool_calls": 7, "files_changed": 12, "http_calls": 1}
				if !reflect.DeepEqual(n.Episode.Metrics, want) {
					t.Errorf("metrics %v, want %v", n.Episode.Metrics, want)
				}
				if d := n.Episode.DurationMinutes; d == nil || *d != 12 {
					t.Errorf("duration %v", d)
				}
			}},

		{name: "unknown event type", src: edit(t, `"type": "commit"`, `"type": §"artifact"`),
			want: []string{"aiagents-event-type"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if got := n.Episode.Events[1].Type; got != "artifact" {
					t.Errorf("type %q, want it kept as written", got)
				}
			}},
		{name: "unknown decision type and outcomes", src: edit(t,
			`"type": "design"`, `"type": §"other"`,
			`"outcome": "success",
  "task"`, `"outcome": §"Done",
  "task"`,
			`"outcome": "success", "effects"`, `"outcome": "Partial", "effects"`),
			want: []string{"aiagents-outcome", "aiagents-decision-type"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if n.Episode.Outcome != "done" || n.Episode.Decisions[0].Outcome != "partial" {
					t.Errorf("outcomes %q %q", n.Episode.Outcome, n.Episode.Decisions[0].Outcome)
				}
			}},

		{name: "naive timestamp", src: edit(t, `"timestamp": "2026-01-09T10:00:00Z"`, `"timestamp": §"2026-01-09T00:00:00.0000000"`),
			want: []string{"aiagents-naive-time"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if want := time.Date(2026, 1, 9, 0, 0, 0, 0, time.UTC); !n.Date.Equal(want) || n.Date.Location() != time.UTC {
					t.Errorf("date %v, want %v", n.Date, want)
				}
			}},
		{name: "7-digit fraction and local offset", src: edit(t,
			`"timestamp": "2026-01-09T10:00:00Z"`, `"timestamp": "2026-01-09T12:00:00+02:00"`,
			`"timestamp": "2026-01-09T10:02:00Z"`, `"timestamp": "2026-01-09T04:02:42.2968670-06:00"`),
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if want := time.Date(2026, 1, 9, 10, 0, 0, 0, time.UTC); !n.Date.Equal(want) {
					t.Errorf("date %v, want %v", n.Date, want)
				}
				if got := n.Episode.Events[0].Timestamp; got != "2026-01-09T10:02:42.296867Z" {
					t.Errorf("event timestamp %q", got)
				}
			}},
		{name: "invalid timestamps", src: edit(t,
			`"timestamp": "2026-01-09T10:00:00Z"`, `"timestamp": §"yesterday"`,
			`"timestamp": "2026-01-09T10:01:00Z"`, `"timestamp": §"0000-01-01T00:00:00+01:00"`),
			want: []string{"aiagents-time", "aiagents-time"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if !n.Date.IsZero() || n.Episode.Decisions[0].Timestamp != "0000-01-01T00:00:00+01:00" {
					t.Errorf("date %v, decision timestamp %q", n.Date, n.Episode.Decisions[0].Timestamp)
				}
			}},
		{name: "events out of order", src: edit(t, `"timestamp": "2026-01-09T10:03:00Z"`, `"timestamp": §"2026-01-09T10:01:59+00:00"`),
			want: []string{"aiagents-event-order"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if n.Episode.Events[0].ID != "e001" || n.Episode.Events[1].ID != "e002" {
					t.Error("events reordered")
				}
			}},

		{name: "backwards links", src: edit(t,
			`"caused_by": [], "leads_to": ["e002"]`, `"caused_by": [§"e002"], "leads_to": []`,
			`"caused_by": ["e001"], "leads_to": []`, `"caused_by": [], "leads_to": [§"e001"]`),
			want: []string{"aiagents-causal-order", "aiagents-causal-order"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if got := n.Episode.Events[1].LeadsTo; !reflect.DeepEqual(got, []string{"e001"}) {
					t.Errorf("leads_to %v, want it kept", got)
				}
			}},
		{name: "backwards links, causal_order_version 2", src: edit(t,
			`"caused_by": [], "leads_to": ["e002"]`, `"caused_by": ["e002"], "leads_to": []`,
			`"caused_by": ["e001"], "leads_to": []`, `"caused_by": [], "leads_to": ["e001"]`,
			`"lessons"`, `"causal_order_version": 2, "lessons"`),
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if want := map[string]any{"causal_order_version": 2}; !reflect.DeepEqual(n.Extra, want) {
					t.Errorf("extra %v, want %v: causal_order_version is kept for the export", n.Extra, want)
				}
			}},
		{name: "bad refs", src: edit(t,
			`"caused_by": [], "leads_to": ["e002"]`, `"caused_by": [§"e999", §"d001"], "leads_to": ["E002", §""]`,
			`"effects": ["e002"]`, `"effects": ["e002", "D001", §"PATTERN-x"]`),
			want: []string{"aiagents-effect-ref", "aiagents-event-ref", "aiagents-decision-ref", "aiagents-event-ref"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				ev := n.Episode.Events[0]
				if ev.CausedBy != nil || !reflect.DeepEqual(ev.LeadsTo, []string{"E002"}) {
					t.Errorf("caused_by %v leads_to %v", ev.CausedBy, ev.LeadsTo)
				}
				effects := n.Episode.Decisions[0].Effects
				if len(effects) != 2 || effects[0].Target != "e002" || effects[1].Target != "D001" {
					t.Errorf("effects %+v", effects)
				}
			}},
		{name: "duplicate ids and keys", src: edit(t,
			`{"id": "e002", "timestamp": "2026-01-09T10:03:00Z", "type": "commit"`, `{"id": §"e001", "timestamp": "2026-01-09T10:03:00Z", "type": "commit"`,
			`"caused_by": ["e001"], "leads_to": []`, `"caused_by": [], "leads_to": []`,
			`"effects": ["e002"]`, `"effects": []`,
			`"leads_to": ["e002"]`, `"leads_to": []`,
			`"task": "Fix the build"`, `"task": "a", §"task": "Fix the build"`),
			want: []string{"aiagents-duplicate-key", "aiagents-duplicate-id"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if n.Episode.Task != "Fix the build" || len(n.Episode.Events) != 2 {
					t.Errorf("task %q events %d", n.Episode.Task, len(n.Episode.Events))
				}
			}},
		{name: "keys in another case are read", src: edit(t,
			"\"outcome\": \"success\",\n  \"task\": \"Fix the build\"", `§"Outcome": "failure", §"TASK": "Fix the build"`,
			`"content": "ran tests"`, `§"Content": "ran tests"`),
			want: []string{"aiagents-key-case", "aiagents-key-case", "aiagents-key-case"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if n.Episode.Outcome != "failure" || n.Episode.Task != "Fix the build" || n.Episode.Events[0].Text != "ran tests" || n.Extra != nil {
					t.Errorf("outcome %q task %q content %q extra %v", n.Episode.Outcome, n.Episode.Task, n.Episode.Events[0].Text, n.Extra)
				}
				if !strings.Contains(ds[0].Message, `"Outcome" is read as "outcome"`) {
					t.Errorf("the diagnostic does not say what was done: %v", ds[0])
				}
			}},
		{name: "keys in another case beside the key", src: edit(t,
			"\"outcome\": \"success\",\n  \"task\": \"Fix the build\"",
			`"outcome": "success", §"Outcome": "failure", §"OUTCOME": "partial", §"Task": "a", §"tASK": "Fix the build"`),
			want: []string{"aiagents-key-case", "aiagents-key-case", "aiagents-key-case", "aiagents-key-case"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if n.Episode.Outcome != "success" || n.Episode.Task != "Fix the build" {
					t.Errorf("outcome %q task %q: the key as written wins, else the last variant", n.Episode.Outcome, n.Episode.Task)
				}
				for _, d := range ds[:min(3, len(ds))] {
					if !strings.Contains(d.Message, "ignored") {
						t.Errorf("%v does not say the key is ignored", d)
					}
				}
			}},
		{name: "unknown keys", src: edit(t,
			`"lessons"`, `"migration_note": "stamp_only", "big": 1e999, "n": 3, "f": 0.5, "nested": {"a": [true, null]}, "lessons"`,
			`"content": "ran tests",`, `"content": "ran tests", "_source_session": "s", §"extra": 1,`),
			want: []string{"aiagents-unknown-field"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				want := map[string]any{"migration_note": "stamp_only", "big": json.Number("1e999"), "n": 3, "f": 0.5,
					"nested": map[string]any{"a": []any{true, nil}}}
				if !reflect.DeepEqual(n.Extra, want) {
					t.Errorf("extra %#v, want %#v", n.Extra, want)
				}
			}},
		{name: "huge numbers", src: edit(t,
			`"lessons"`, `"causal_order_version": §1e999, "lessons"`,
			`"tool_calls": 7`, `"tool_calls": §-1e400, "errors": 1e-400`),
			want: []string{"aiagents-metric", "aiagents-type"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if v, ok := n.Episode.Metrics["errors"]; !ok || v != 0 {
					t.Errorf("errors %v %v: an underflow is 0", v, ok)
				}
			}},

		{name: "byte order mark", src: "§\uFEFF" + good, want: []string{"aiagents-bom"}},
		{name: "invalid UTF-8", src: edit(t, `"Fix the build"`, `"Fix §`+"\xff"+`the build"`),
			want: []string{"aiagents-utf8"},
			check: func(t *testing.T, n note.Note, ds []note.Diagnostic) {
				if n.Episode.Task != "Fix \uFFFDthe build" {
					t.Errorf("task %q", n.Episode.Task)
				}
			}},
		{name: "CRLF and non-ASCII columns", src: strings.ReplaceAll(edit(t, `"task": "Fix the build"`, `"task": "Fix é", §"outcome": §"meh"`), "\n", "\r\n"),
			want: []string{"aiagents-duplicate-key", "aiagents-outcome"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, at := unmark(tt.src)
			n, ds, err := Decode(testPath, []byte(src))
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if len(at) != len(tt.want) {
				t.Fatalf("test has %d marks for %d rules", len(at), len(tt.want))
			}
			var want []string
			for i, rule := range tt.want {
				want = append(want, at[i]+" "+rule)
			}
			if got := positioned(ds); !reflect.DeepEqual(got, want) {
				t.Errorf("diagnostics\n got %q\nwant %q\n%v", got, want, ds)
			}
			if n.Path != testPath || n.Kind != note.KindEpisode || n.Type != "episode" || n.Episode == nil {
				t.Fatalf("note %+v", n)
			}
			if tt.check != nil {
				tt.check(t, n, ds)
			}
		})
	}
}

func checkGood(t *testing.T, n note.Note, _ []note.Diagnostic) {
	dur := 12.0
	want := note.Note{
		Path: testPath, Kind: note.KindEpisode, Type: "episode", Title: "episode-2026-01-09-session-1",
		Date: time.Date(2026, 1, 9, 10, 0, 0, 0, time.UTC),
		Episode: &note.Episode{
			Outcome: "success", Task: "Fix the build", Session: "2026-01-09-session-1",
			DurationMinutes: &dur, Metrics: map[string]float64{"duration_minutes": 12, "tool_calls": 7},
			Decisions: []note.Decision{{
				ID: "d001", Title: "Which test runner", Timestamp: "2026-01-09T10:01:00Z", Type: "design",
				Context: "Which test runner", Options: []string{"go test", "make"}, Chosen: "go test",
				Rationale: "simplest", Outcome: "success", Effects: []note.Link{{Target: "e002", Line: 8, Col: 219}}, Line: 8,
			}},
			Events: []note.Event{
				{ID: "e001", Timestamp: "2026-01-09T10:02:00Z", Type: "tool_call", Text: "ran tests", LeadsTo: []string{"e002"}, Line: 11},
				{ID: "e002", Timestamp: "2026-01-09T10:03:00Z", Type: "commit", Text: "Commit: abc", CausedBy: []string{"e001"}, Line: 12},
			},
			Lessons: []note.Lesson{{Text: "Run the tests first", Line: 15}},
		},
	}
	if !reflect.DeepEqual(n, want) {
		t.Errorf("note\n got %+v\n     %+v\nwant %+v\n     %+v", n, *n.Episode, want, *want.Episode)
	}
}

func TestDecodeRefuses(t *testing.T) {
	tests := []struct {
		name, src string
		msg       string // part of the message
	}{
		{"array", "§[]", "not an array"},
		{"string", `§"episode"`, "not a string"},
		{"number after space", "\n  §42", "not a number"},
		{"null", "§null", "not null"},
		{"empty file", "§", "file is empty"},
		{"only whitespace", "§ \r\n\t\n", "file is empty"},
		{"truncated", `{"id": "e§`, "unexpected end of JSON input"},
		{"truncated after newline", "{\n  \"id\": 1,§\n\n", "unexpected end of JSON input"},
		{"bad literal", `{"a": tru§}`, "invalid character '}'"},
		{"trailing data", `{} §x`, "after top-level value"},
		{"second object", "{}\n§{}", "after top-level value"},
		// Columns do not count a byte order mark, which editors do not show.
		{"byte order mark, then an array", "§\uFEFF[1]", "not an array"},
		{"too deep", strings.Repeat("[", 10000) + "§" + strings.Repeat("[", 10), "exceeded max depth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, at := unmark(tt.src)
			n, ds, err := Decode(testPath, []byte(src))
			if err == nil {
				t.Fatalf("no error; note %+v", n)
			}
			last := ds[len(ds)-1]
			if got := fmt.Sprintf("%d:%d", last.Line, last.Col); got != at[len(at)-1] || last.Rule != "aiagents-syntax" || last.Severity != note.Error {
				t.Errorf("diagnostic %v, want at %s", last, at[len(at)-1])
			}
			if err.Error() != last.String() || !strings.HasPrefix(err.Error(), testPath+":"+at[len(at)-1]+": error: ") {
				t.Errorf("error %q, diagnostic %q", err, last)
			}
			if !strings.Contains(last.Message, tt.msg) {
				t.Errorf("message %q does not say %q", last.Message, tt.msg)
			}
			if n.Path != testPath || n.Episode != nil {
				t.Errorf("note %+v", n)
			}
		})
	}
}

func TestIsEpisodeFile(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{".agents/memory/episodes/episode-2026-01-09-session-1.json", true},
		{"episodes/episode-x.json", true},
		{"a/b/episodes/episode-.json", true},
		{".agents/memory/episodes/CLAUDE.md", false},
		{".agents/memory/episodes/.gitkeep", false},
		{".agents/memory/episodes/episode-1.md", false},
		{".agents/memory/episodes/sub/episode-1.json", false},
		{".agents/memory/episode-1.json", false},
		{".agents/memory/episodes/Episode-1.json", false},
		{"episodes/episode-1.json.bak", false},
		{"myepisodes/episode-1.json", false},
	}
	for _, tt := range tests {
		if got := IsEpisodeFile(tt.path); got != tt.want {
			t.Errorf("IsEpisodeFile(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

// TestRealEpisodes decodes every episode of the real-data corpus beside
// the project (../shared): files that ai-agents' own writers produced, in
// every shape seen in its history.
func TestRealEpisodes(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "corpus", "real")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("real-data corpus not found at %s (it sits beside the project in CI): %v", root, err)
	}
	perDir := map[string]int{}
	rules := map[string]int{}
	var got, want struct{ decisions, events int }
	err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil || !IsEpisodeFile(filepath.ToSlash(rel)) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n, ds, err := Decode(filepath.ToSlash(rel), data)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		if n.Title == "" || n.Episode.Outcome == "" {
			t.Errorf("%s: title %q outcome %q", rel, n.Title, n.Episode.Outcome)
		}
		checkPositions(t, data, ds)
		for _, d := range ds {
			rules[d.Rule]++
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
		d, _ := m["decisions"].([]any)
		e, _ := m["events"].([]any)
		want.decisions += len(d)
		want.events += len(e)
		got.decisions += len(n.Episode.Decisions)
		got.events += len(n.Episode.Events)
		perDir[filepath.ToSlash(filepath.Dir(rel))]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := perDir["ai-agents@316ed2f2d41c/.agents/memory/episodes"]; n != 287 {
		t.Errorf("%d episodes at ai-agents@316ed2f2d41c, want 287 (%v)", n, perDir)
	}
	if got != want {
		t.Errorf("decoded %d decisions and %d events, the files have %d and %d", got.decisions, got.events, want.decisions, want.events)
	}
	t.Logf("episodes per directory %v; %d decisions, %d events; diagnostics by rule %v", perDir, got.decisions, got.events, rules)
}

// checkPositions checks that each diagnostic points inside the file.
func checkPositions(t *testing.T, data []byte, ds []note.Diagnostic) {
	t.Helper()
	lines := strings.Split(string(data), "\n")
	for _, d := range ds {
		if d.Line < 1 || d.Line > len(lines) || d.Col < 1 || d.Col > utf8.RuneCountInString(lines[d.Line-1])+1 {
			t.Errorf("%v: position outside the file", d)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(good))
	for _, s := range []string{
		"", "{}", "[]", "null", `{"id":null}`, "\uFEFF{}", `{"a":1e999}`, "{\"task\":\"\xff\"}",
		`{"events":[{"id":"e1","leads_to":["e1","e2",null,1]},{"id":"e1","caused_by":{}}],"decisions":[1,{"effects":["x"]}]}`,
		`{"metrics":{"aB":1,"a_b":2,"AB":null,"Ab":"x"},"causal_order_version":2,"lessons":[null]}`,
		`{"timestamp":"2026-01-09T00:00:00.0000000","events":[{"timestamp":"x"},{"timestamp":"0001-01-01T00:00:00+01:00"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, ds, err := Decode("episodes/episode-fuzz.json", data)
		for _, d := range ds {
			if d.Line < 1 || d.Col < 1 {
				t.Errorf("%v: line and column must be 1 or more", d)
			}
		}
		if err != nil && (len(ds) == 0 || ds[len(ds)-1].Severity != note.Error) {
			t.Errorf("error %v without an error diagnostic: %v", err, ds)
		}
		if err == nil && n.Title == "" {
			t.Error("no title")
		}
	})
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"tool_calls": "tool_calls", "toolCalls": "tool_calls", "filesChanged": "files_changed",
		"HTTPCalls": "http_calls", "Errors": "errors", "tool_Calls": "tool_calls", "a1B": "a1_b", "": "",
	} {
		t.Run(in, func(t *testing.T) {
			if got := snakeCase(in); got != want {
				t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
			}
		})
	}
}

func TestShorten(t *testing.T) {
	long := strings.Repeat("word ", 30)
	tests := []struct{ in, want string }{
		{"", ""},
		{"  Which runner  ", "Which runner"},
		{"First line\nsecond line", "First line"},
		{long, strings.TrimSpace(strings.Repeat("word ", 15)) + "…"},
		{strings.Repeat("é", 100), strings.Repeat("é", 79) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := shorten(tt.in)
			if got != tt.want || utf8.RuneCountInString(got) > maxTitle {
				t.Errorf("shorten(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// BenchmarkDecodeMinified decodes a one-line file with thousands of
// diagnostics on its line, where counting columns from the start of the
// line for each would be quadratic.
func BenchmarkDecodeMinified(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"id":"episode-x","events":[`)
	for i := range 4000 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"id":"e%d","type":"é","leads_to":["e0","nope"],"timestamp":"2026-01-01T00:00:%02dZ"}`, i, 59-i%60)
	}
	sb.WriteString(`]}`)
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := Decode("episodes/episode-x.json", data); err != nil {
			b.Fatal(err)
		}
	}
}
