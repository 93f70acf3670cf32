package aiagents_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/aiagents/exporter"
	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// everyField has every field of the schema, and in each the values that
// markdown cannot hold as they are: sub-second times and local offsets,
// ids that are not e001..., an id with a space, one repeated in another
// case, options with commas and an empty one, text on two lines, text
// that ends like an event type or an event link, lessons that start like
// markdown blocks, padded or empty ones, an empty task, extra keys that
// engram reads (private, tags), a number beyond float64, nesting,
// camelCase metrics, causal_order_version and _source_session.
const everyField = `{
  "id": "episode-2026-08-01-session-7",
  "session": "2026-08-01-session-7",
  "timestamp": "2026-08-01T09:00:00.1234567+02:00",
  "outcome": "Partial",
  "task": "",
  "causal_order_version": 2,
  "migration_note": "stamp_only 2026-08-02",
  "private": true,
  "tags": ["x", "y"],
  "big": 1e400,
  "nested": {"a": [1, 2.5, null, {"b": "c"}], "s": "# not a heading"},
  "decisions": [
    {"id": "d001", "timestamp": "2026-08-01T09:01:00.5Z", "type": "Design", "context": "Two lines\nof context", "options": ["a, b", "c", ""], "chosen": "a, b", "rationale": "# not a heading", "outcome": "success", "effects": ["d002", "evt-2", "D002"]},
    {"id": "choice 2", "timestamp": "2026-08-01T09:02:00", "type": "routing", "context": "", "options": [], "chosen": "", "rationale": "", "outcome": "failure", "effects": ["d001"]},
    {"id": "d002", "timestamp": "not a date", "type": "other", "summary": "a summary instead of context", "chosen": "x", "outcome": "partial", "effects": []}
  ],
  "events": [
    {"id": "evt-1", "timestamp": "2026-08-01T09:03:00.25-05:00", "type": "tool_call", "content": "ran it #notatype", "caused_by": [], "leads_to": ["evt-2"], "_source_session": "s-1"},
    {"id": "evt-2", "timestamp": "2026-08-01T09:04:00Z", "type": "artifact", "content": "text ending in (leads_to evt-1)", "caused_by": ["EVT-1"], "leads_to": []},
    {"id": "evt-3", "timestamp": "", "type": "Milestone", "content": "", "caused_by": [], "leads_to": []},
    {"id": "evt-4", "timestamp": "2026-08-01T09:05:00Z", "type": "odd type", "content": "line one\nline two [[Link]] ` + "`code`" + `", "caused_by": ["evt-1", "evt-2"], "leads_to": ["evt-1"]},
    {"id": "evt-5", "timestamp": "2026-08-01 09:06:00", "type": "test", "content": "no zone", "caused_by": null, "leads_to": null}
  ],
  "metrics": {"duration_minutes": 12.5, "toolCalls": 7, "errors": 0, "custom_ratio": 0.333},
  "lessons": ["# Heading-like lesson", "- list-like", "1. numbered", "  padded  ", "", "multi\nline", "<div>html</div>", "plain"]
}`

// plainEpisode is a well-formed episode: every field, nothing odd.
const plainEpisode = `{
  "id": "episode-2026-08-02-session-8", "session": "2026-08-02-session-8", "timestamp": "2026-08-02T10:00:00Z",
  "outcome": "success", "task": "Ship it",
  "decisions": [{"id": "d001", "timestamp": "2026-08-02T10:01:00Z", "type": "implementation", "context": "How", "options": ["this", "that"], "chosen": "this", "rationale": "simpler", "outcome": "success", "effects": ["e002"]}],
  "events": [
    {"id": "e001", "timestamp": "2026-08-02T10:02:00Z", "type": "commit", "content": "Commit: abc", "caused_by": [], "leads_to": ["e002"]},
    {"id": "e002", "timestamp": "2026-08-02T10:03:00Z", "type": "test", "content": "tests pass", "caused_by": ["e001"], "leads_to": []}
  ],
  "metrics": {"duration_minutes": 5, "tool_calls": 2, "errors": 0, "recoveries": 0, "commits": 1, "files_changed": 1},
  "lessons": ["Small steps"]
}`

// TestRoundTrip: JSON → markdown (import) → JSON (export) gives back the
// episode as Decode reads it, field for field, and the two fields Decode
// does not keep (causal_order_version, _source_session).
func TestRoundTrip(t *testing.T) {
	fsys := fstest.MapFS{
		"episodes/episode-2026-08-01-session-7.json": {Data: []byte(everyField)},
		"episodes/episode-2026-08-02-session-8.json": {Data: []byte(plainEpisode)},
	}
	exported := roundTrip(t, fsys)
	compareEpisodes(t, fsys, exported)
	var raw map[string]any
	dec := json.NewDecoder(strings.NewReader(string(exported["episode-2026-08-01-session-7"])))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		t.Fatal(err)
	}
	if v := raw["causal_order_version"]; v != json.Number("2") {
		t.Errorf("causal_order_version %v, want 2", v)
	}
	if ev := raw["events"].([]any)[0].(map[string]any); ev["_source_session"] != "s-1" {
		t.Errorf("_source_session lost: %v", ev)
	}
	if !strings.Contains(string(exported["episode-2026-08-01-session-7"]), `"big": 1e400`) {
		t.Errorf("a number beyond float64 is not kept as written:\n%s", exported["episode-2026-08-01-session-7"])
	}
}

// TestRoundTripReal runs the round trip on the real episodes: the 287 of
// 316ed2f2, and the 166 of the latest snapshot (_source_session,
// causal_order_version, migration_note, camelCase metrics, the largest
// files).
func TestRoundTripReal(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		want int
	}{
		{realSnapshot, 287},
		{"../../../shared/corpus/real/ai-agents/.agents/memory", 166},
	} {
		t.Run(path.Base(path.Dir(path.Dir(tc.dir))), func(t *testing.T) {
			fsys := realFS(t, tc.dir)
			exported := roundTrip(t, fsys)
			if len(exported) != tc.want {
				t.Errorf("%d episodes exported, want %d", len(exported), tc.want)
			}
			compareEpisodes(t, fsys, exported)
		})
	}
}

// roundTrip imports fsys, parses the notes, exports them, and returns the
// episode files by id.
func roundTrip(t *testing.T, fsys fs.FS) map[string][]byte {
	t.Helper()
	_, notes := importNotes(t, fsys)
	files, diags, err := exporter.Export(exporter.Input{Notes: notes})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		t.Errorf("export: %s", d)
	}
	out := map[string][]byte{}
	for _, f := range files {
		if !aiagents.IsEpisodeFile(f.Path) {
			continue
		}
		var id struct{ ID string }
		if err := json.Unmarshal(f.Data, &id); err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		out[id.ID] = f.Data
	}
	return out
}

// compareEpisodes decodes each episode of fsys and its export and
// compares the notes, positions aside.
func compareEpisodes(t *testing.T, fsys fs.FS, exported map[string][]byte) {
	t.Helper()
	for _, want := range decodeAll(t, fsys) {
		data, ok := exported[want.Title]
		if !ok {
			t.Errorf("%s was not exported", want.Title)
			continue
		}
		got, _, err := aiagents.Decode(want.Path, data)
		if err != nil {
			t.Errorf("%s: %v", want.Title, err)
			continue
		}
		if w, g := comparable(want), comparable(got); !reflect.DeepEqual(w, g) {
			t.Errorf("%s differs after the round trip:\n%s", want.Title, fieldDiff(w, g))
		}
	}
}

// comparable is a note without positions, as JSON.
func comparable(n note.Note) map[string]any {
	n.Path = ""
	ep := *n.Episode
	ep.Decisions = append([]note.Decision(nil), ep.Decisions...)
	for i := range ep.Decisions {
		d := &ep.Decisions[i]
		d.Line = 0
		var effects []note.Link
		for _, l := range d.Effects {
			effects = append(effects, note.Link{Target: l.Target, Alias: l.Alias, Heading: l.Heading})
		}
		d.Effects = effects
	}
	ep.Events = append([]note.Event(nil), ep.Events...)
	for i := range ep.Events {
		ep.Events[i].Line = 0
	}
	ep.Lessons = append([]note.Lesson(nil), ep.Lessons...)
	for i := range ep.Lessons {
		ep.Lessons[i].Line = 0
	}
	if len(ep.Metrics) == 0 {
		ep.Metrics = nil // absent, null and {} are all "no metrics"; the export writes {}
	}
	n.Episode = &ep
	b, _ := json.Marshal(n)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

// fieldDiff names the top-level and episode fields that differ.
func fieldDiff(want, got map[string]any) string {
	var b strings.Builder
	for k, w := range want {
		if k == "Episode" {
			we, ge := w.(map[string]any), got[k].(map[string]any)
			for ek := range we {
				if !reflect.DeepEqual(we[ek], ge[ek]) {
					fmt.Fprintf(&b, "Episode.%s:\n  want %v\n  got  %v\n", ek, we[ek], ge[ek])
				}
			}
			continue
		}
		if !reflect.DeepEqual(w, got[k]) {
			fmt.Fprintf(&b, "%s:\n  want %v\n  got  %v\n", k, w, got[k])
		}
	}
	return b.String()
}

// TestExportGraph exports the imported real snapshot with its graph and
// checks that causal-graph.json has nodes, edges and patterns, and that
// the pattern rows come back as ai-agents wrote them, less the test
// fixture episode-2026-01-01-sequence-001, which engram never counts as
// evidence (SPEC §3).
func TestExportGraph(t *testing.T) {
	fsys := realFS(t, realSnapshot)
	_, notes := importNotes(t, fsys)
	in := input(notes, time.Date(2026, 7, 28, 0, 0, 0, 0, time.UTC))
	files, _, err := exporter.Export(in)
	if err != nil {
		t.Fatal(err)
	}
	last := files[len(files)-1]
	if last.Path != "causality/causal-graph.json" {
		t.Fatalf("last file %s", last.Path)
	}
	got, diags, err := aiagents.DecodeGraph(last.Path, last.Data)
	if err != nil || len(diags) > 0 {
		t.Fatalf("the exported graph does not read back: %v %v", err, diags)
	}
	if len(got.Nodes) == 0 || len(got.Edges) == 0 || len(got.Patterns) != 6 {
		t.Fatalf("graph has %d nodes, %d edges, %d patterns", len(got.Nodes), len(got.Edges), len(got.Patterns))
	}
	if got.Version != "1.0" || got.Updated != "2026-07-28T00:00:00Z" {
		t.Errorf("version %q updated %q", got.Version, got.Updated)
	}
	data, _ := fs.ReadFile(fsys, "causality/causal-graph.json")
	want, _, err := aiagents.DecodeGraph("causal-graph.json", data)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]aiagents.GraphPattern{}
	for _, p := range got.Patterns {
		byID[p.ID] = p
	}
	const fixture = "episode-2026-01-01-sequence-001"
	for _, w := range want.Patterns {
		if slices.Contains(w.Episodes, fixture) {
			w.Episodes = slices.DeleteFunc(slices.Clone(w.Episodes), func(id string) bool { return id == fixture })
			w.Contributions = maps.Clone(w.Contributions)
			delete(w.Contributions, fixture)
			n := *w.Occurrences - 1
			w.Occurrences = &n
		}
		if g := byID[w.ID]; !reflect.DeepEqual(g, w) {
			t.Errorf("pattern %s:\n got %+v\nwant %+v", w.Name, g, w)
		}
	}
	t.Logf("exported graph: %d nodes, %d edges, %d patterns", len(got.Nodes), len(got.Edges), len(got.Patterns))
}

// input builds the graph of the notes, as engram export does from a
// loaded repository.
func input(notes []note.Note, updated time.Time) exporter.Input {
	g := causal.Build(notes, causal.DefaultOptions())
	return exporter.Input{Notes: notes, Updated: updated, Created: make([]time.Time, len(notes)), Graph: g}
}

// TestPatternRoundTrip: a pattern row with every field, a contribution
// between the outcomes, a description with a heading line and a
// last_used that is no date comes back from its note as it was.
func TestPatternRoundTrip(t *testing.T) {
	graph := `{"version": "1.0", "updated": "2026-07-28T09:01:26Z", "nodes": [], "edges": [], "patterns": [
  {"id": "cd31b49ba963", "name": "Test: pattern", "description": "Line one\n## not a section\nline three", "trigger": "When testing", "action": "Test first",
   "success_rate": 0.6, "occurrences": 2, "last_used": "yesterday", "episodes": ["episode-a", "episode-b"],
   "contributions": {"episode-a": 1.0, "episode-b": 0.2}, "created": "2026-07-28T08:55:40.013377+00:00"},
  {"id": "p003", "name": "ANTIPATTERN-big-bang-change", "description": "", "trigger": "T3", "action": "A3"},
  {"id": "p002", "name": "Bad pattern", "description": "", "trigger": "T2", "action": "A2", "success_rate": 0.2, "occurrences": 2, "last_used": "2026-01-02T22:18:26.5754379-06:00"}
]}`
	fsys := fstest.MapFS{
		"episodes/episode-a.json":     linked["episodes/episode-a.json"],
		"episodes/episode-b.json":     linked["episodes/episode-b.json"],
		"causality/causal-graph.json": {Data: []byte(graph)},
	}
	imp, notes := importNotes(t, fsys)
	if imp.Patterns != 3 {
		t.Fatalf("%d patterns imported", imp.Patterns)
	}
	md := string(imp.Files[2].Data)
	if p := imp.Files[3].Path; p != "patterns/ANTIPATTERN-big-bang-change.md" {
		t.Errorf("an engram title is not kept: %s", p)
	}
	for _, want := range []string{"title: PATTERN-test-pattern\n", "- [[episode-a]] - success\n", "- [[episode-b]] - failure\n", "\\## not a section"} {
		if !strings.Contains(md, want) {
			t.Errorf("pattern note lacks %q:\n%s", want, md)
		}
	}
	files, _, err := exporter.Export(input(notes, time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := aiagents.DecodeGraph("g", files[len(files)-1].Data)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := aiagents.DecodeGraph("g", []byte(graph))
	rate, occ := 0.5, 2 // engram's: the mean of the evidence (success, failure)
	want.Patterns[0].SuccessRate, want.Patterns[0].Occurrences = &rate, &occ
	// The second row has no evidence: engram publishes its declared values;
	// created is the note's (none here); last_used is normalised to UTC.
	want.Patterns[2].LastUsed = "2026-01-03T04:18:26.5754379Z"
	want.Patterns[1].Contributions, want.Patterns[2].Contributions = map[string]float64{}, map[string]float64{}
	for i := range want.Patterns {
		if !reflect.DeepEqual(got.Patterns[i], want.Patterns[i]) {
			t.Errorf("pattern %d:\n got %s\nwant %s", i, show(got.Patterns[i]), show(want.Patterns[i]))
		}
	}
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// FuzzEpisodeRoundTrip: for any episode file, the import either refuses
// it with an error diagnostic or gives a note that parses without error
// and exports back to the episode Decode reads.
func FuzzEpisodeRoundTrip(f *testing.F) {
	for _, seed := range []string{everyField, plainEpisode, string(linked["episodes/episode-a.json"].Data), string(linked["episodes/episode-b.json"].Data), `{"outcome":"success","task":"t"}`} {
		f.Add(seed)
	}
	p := parse.New(parse.Roots{})
	f.Fuzz(func(t *testing.T, src string) {
		md, want, diags, err := aiagents.EpisodeMarkdown("episodes/episode-f.json", []byte(src))
		if err != nil {
			if note.CountErrors(diags) == 0 {
				t.Fatalf("refused without an error diagnostic: %v", err)
			}
			return
		}
		for _, d := range diags {
			if d.Rule == "aiagents-import-loss" {
				t.Fatalf("%s\n%s", d, md)
			}
		}
		n, ds, err := p.Parse("episodes/episode-f.md", md)
		if err != nil || note.CountErrors(ds) > 0 {
			t.Fatalf("the note does not parse: %v %v\n%s", err, ds, md)
		}
		files, _, err := exporter.Export(exporter.Input{Notes: []note.Note{n}})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := aiagents.Decode("episodes/episode-f.json", files[0].Data)
		if err != nil {
			t.Fatalf("the export does not decode: %v\n%s", err, files[0].Data)
		}
		if w, g := comparable(want), comparable(got); !reflect.DeepEqual(w, g) {
			t.Fatalf("differs after the round trip:\n%s\n%s", fieldDiff(w, g), md)
		}
	})
}

// FuzzDecodeGraph: any input gives a graph or a positioned syntax error,
// never a panic, and diagnostics inside the file.
func FuzzDecodeGraph(f *testing.F) {
	f.Add(`{"version": "1.0", "nodes": [{"id": "a"}], "edges": [{"source": "a", "count": 2}], "patterns": [{"name": "p", "success_rate": 2, "contributions": {"e": "x"}}]}`)
	f.Add(`[]`)
	f.Add(`{"patterns": null, "nodes": {}}`)
	f.Fuzz(func(t *testing.T, src string) {
		_, diags, err := aiagents.DecodeGraph("g.json", []byte(src))
		lines := strings.Count(src, "\n") + 1
		for _, d := range diags {
			if d.Line < 1 || d.Line > lines || d.Col < 1 {
				t.Fatalf("diagnostic outside the file: %s", d)
			}
		}
		if err != nil && note.CountErrors(diags) == 0 {
			t.Fatalf("error without an error diagnostic: %v", err)
		}
	})
}

// TestRoundTripGenerated round-trips 400 generated episodes whose texts,
// ids, types and times are built from fragments that markdown, YAML or
// the note grammar read specially.
func TestRoundTripGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	fragments := []string{"", " ", "a", "b, c", ",", "#x", " #tool_call", "(caused_by e001)", "(leads_to e1, e2)", "[[Note]]", "[x]", "]",
		"[", "\n", "\r\n", "\n\n", "- ", "1. ", "# ", "---", "===", "```", "<div>", "\t", "|", ":", "**b**:", "é", "日本", "\x00", "\x1b", `"`, `\`, "'", "{{< x >}}", "e001", "d001", "ü "}
	text := func() string {
		var b strings.Builder
		for range r.IntN(5) {
			b.WriteString(fragments[r.IntN(len(fragments))])
		}
		return b.String()
	}
	ids := []string{"e001", "e002", "E1", "evt 1", "d001", "D001", "x:y", "a.b", "[[z]]", "", "e1"}
	times := []string{"2026-08-01T09:00:00Z", "2026-08-01T09:00:00.1234567+02:00", "2026-08-01 09:00:00", "2026-08-01", "", "soon", "[x]"}
	outcomes := []string{"success", "partial", "failure", "Success"}
	pick := func(l []string) string { return l[r.IntN(len(l))] }
	refs := func() []string {
		var out []string
		for range r.IntN(3) {
			out = append(out, pick(ids))
		}
		return out
	}
	for i := range 400 {
		ep := map[string]any{"id": fmt.Sprintf("episode-g%d", i), "session": text(), "timestamp": pick(times), "outcome": pick(outcomes), "task": text(), "metrics": map[string]any{"tool_calls": r.IntN(9), "ratio": r.Float64()}}
		var decisions, events []any
		for range r.IntN(4) {
			decisions = append(decisions, map[string]any{"id": pick(ids), "timestamp": pick(times), "type": pick([]string{"design", "Test", "", "odd type", text()}),
				"context": text(), "options": []string{text(), text()}, "chosen": text(), "rationale": text(), "outcome": pick(outcomes), "effects": refs()})
		}
		for range r.IntN(5) {
			events = append(events, map[string]any{"id": pick(ids), "timestamp": pick(times), "type": pick([]string{"tool_call", "Milestone", "artifact", "", "a b", text()}),
				"content": text(), "caused_by": refs(), "leads_to": refs(), "_source_session": text()})
		}
		ep["decisions"], ep["events"], ep["lessons"] = decisions, events, []string{text(), text()}
		if r.IntN(3) == 0 {
			ep["extra_"+text()] = text()
		}
		data, _ := json.Marshal(ep)
		fsys := fstest.MapFS{fmt.Sprintf("episodes/episode-g%d.json", i): {Data: data}}
		if t.Run(fmt.Sprint(i), func(t *testing.T) { compareEpisodes(t, fsys, roundTrip(t, fsys)) }) {
			continue
		}
		t.Logf("episode %d: %s", i, data)
		break
	}
}
