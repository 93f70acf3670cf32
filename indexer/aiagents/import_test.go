package aiagents_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// realSnapshot holds the 287 episodes of rjmurillo/ai-agents at 316ed2f2
// and the causal-graph.json made from them (../shared/corpus/real).
const realSnapshot = "../../../shared/corpus/real/ai-agents@316ed2f2d41c/.agents/memory"

func realFS(t testing.TB, dir string) fs.FS {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the real-data corpus (../shared/corpus/real) is not here; skipping: %v", err)
	}
	return os.DirFS(dir)
}

// linked is a set of episodes whose events and decisions link to each
// other in every way the schema allows, with ids the markdown renames.
var linked = fstest.MapFS{
	"episodes/episode-a.json": {Data: []byte(`{
  "id": "episode-a", "session": "s-a", "timestamp": "2026-08-01T09:00:00Z", "outcome": "success", "task": "Link things",
  "decisions": [
    {"id": "d001", "timestamp": "2026-08-01T09:01:00Z", "type": "design", "context": "First", "chosen": "x", "outcome": "success", "effects": ["d002", "evt-3"]},
    {"id": "d002", "timestamp": "2026-08-01T09:02:00Z", "type": "test", "context": "Second", "chosen": "y", "outcome": "success", "effects": []},
    {"id": "Decision Two", "timestamp": "2026-08-01T09:03:00Z", "type": "routing", "context": "Third", "chosen": "z", "outcome": "partial", "effects": ["D001"]}
  ],
  "events": [
    {"id": "evt-1", "timestamp": "2026-08-01T09:04:00Z", "type": "tool_call", "content": "one", "caused_by": [], "leads_to": ["evt-2"]},
    {"id": "evt-2", "timestamp": "2026-08-01T09:05:00Z", "type": "test", "content": "two", "caused_by": [], "leads_to": ["evt-1"]},
    {"id": "evt-3", "timestamp": "2026-08-01T09:06:00Z", "type": "commit", "content": "three", "caused_by": ["EVT-2"], "leads_to": []},
    {"id": "evt-4", "timestamp": "2026-08-01T09:07:00Z", "type": "milestone", "content": "alone", "caused_by": [], "leads_to": []}
  ],
  "metrics": {"tool_calls": 3}, "lessons": ["Link both ways"]
}`)},
	"episodes/episode-b.json": {Data: []byte(`{
  "id": "episode-b", "session": "s-b", "timestamp": "2026-08-02T09:00:00Z", "outcome": "failure", "task": "",
  "decisions": [{"timestamp": "2026-08-02T09:01:00Z", "type": "recovery", "context": "no id", "chosen": "retry", "outcome": "failure", "effects": ["e002"]}],
  "events": [
    {"id": "e002", "timestamp": "2026-08-02T09:02:00Z", "type": "error", "content": "boom", "caused_by": [], "leads_to": ["e003"]},
    {"id": "e003", "timestamp": "2026-08-02T09:03:00Z", "type": "error", "content": "again", "caused_by": ["e002"], "leads_to": []}
  ],
  "metrics": {}, "lessons": null
}`)},
}

// TestImportKeepsTheGraph is seed 000's check of the migration: the causal
// graph of the imported notes has the nodes and edges of the graph of the
// JSON episodes, the markdown's event and decision ids standing for the
// JSON's.
func TestImportKeepsTheGraph(t *testing.T) {
	for _, tc := range []struct {
		name string
		fsys func(testing.TB) fs.FS
		want int // episodes
	}{
		{"linked", func(testing.TB) fs.FS { return linked }, 2},
		{"real", func(t testing.TB) fs.FS { return realFS(t, realSnapshot) }, 287},
		{"real-latest", func(t testing.TB) fs.FS { return realFS(t, "../../../shared/corpus/real/ai-agents/.agents/memory") }, 166},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := tc.fsys(t)
			jsonNotes := decodeAll(t, fsys)
			_, mdNotes := importNotes(t, fsys)
			episodes := onlyEpisodes(mdNotes)
			if len(jsonNotes) != tc.want || len(episodes) != tc.want {
				t.Fatalf("%d JSON episodes, %d notes; want %d", len(jsonNotes), len(episodes), tc.want)
			}
			jg := causal.Build(jsonNotes, causal.DefaultOptions())
			mg := causal.Build(episodes, causal.DefaultOptions())
			rename := partIDs(jsonNotes, episodes)
			gotNodes, wantNodes := nodeSet(mg, nil), nodeSet(jg, rename)
			if d := setDiff(wantNodes, gotNodes); d != "" {
				t.Errorf("nodes differ:\n%s", d)
			}
			if d := setDiff(edgeSet(jg, rename), edgeSet(mg, nil)); d != "" {
				t.Errorf("edges differ:\n%s", d)
			}
			if len(mg.Edges) == 0 {
				t.Error("the graph has no edges")
			}
			t.Logf("%d nodes, %d edges in both graphs", len(mg.Nodes), len(mg.Edges))
		})
	}
}

// decodeAll decodes every episode file of fsys, in path order.
func decodeAll(t testing.TB, fsys fs.FS) []note.Note {
	t.Helper()
	var notes []note.Note
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !aiagents.IsEpisodeFile(p) {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		n, _, err := aiagents.Decode(p, data)
		if err == nil {
			notes = append(notes, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return notes
}

// importNotes imports fsys and parses every note back; a note with an
// error diagnostic fails the test.
func importNotes(t testing.TB, fsys fs.FS) (aiagents.Imported, []note.Note) {
	t.Helper()
	imp, diags := aiagents.Import(fsys)
	for _, d := range diags {
		if d.Severity == note.Error || d.Rule == "aiagents-import-loss" {
			t.Errorf("import: %s", d)
		}
	}
	p := parse.New(parse.Roots{})
	var notes []note.Note
	for _, f := range imp.Files {
		n, ds, err := p.Parse(f.Path, f.Data)
		if err != nil || note.CountErrors(ds) > 0 {
			t.Fatalf("%s does not parse: %v %v\n%s", f.Path, err, ds, f.Data)
		}
		notes = append(notes, n)
	}
	return imp, notes
}

func onlyEpisodes(notes []note.Note) []note.Note {
	var out []note.Note
	for _, n := range notes {
		if n.Episode != nil {
			out = append(out, n)
		}
	}
	return out
}

// partIDs maps the node id of each decision and event of the JSON to the
// node id of the markdown's (the same position in the same episode).
func partIDs(jsonNotes, mdNotes []note.Note) map[string]string {
	md := map[string]*note.Note{}
	for i := range mdNotes {
		md[mdNotes[i].Title] = &mdNotes[i]
	}
	rename := map[string]string{}
	for _, jn := range jsonNotes {
		mn := md[jn.Title]
		if mn == nil {
			continue
		}
		for i, d := range jn.Episode.Decisions {
			if k := note.PartID(jn.Title, d.ID); rename[k] == "" && i < len(mn.Episode.Decisions) {
				rename[k] = note.PartID(jn.Title, mn.Episode.Decisions[i].ID)
			}
		}
		for i, ev := range jn.Episode.Events {
			if k := note.PartID(jn.Title, ev.ID); rename[k] == "" && i < len(mn.Episode.Events) {
				rename[k] = note.PartID(jn.Title, mn.Episode.Events[i].ID)
			}
		}
	}
	return rename
}

func renamed(rename map[string]string, id string) string {
	if r, ok := rename[id]; ok {
		return r
	}
	return id
}

func nodeSet(g causal.Result, rename map[string]string) []string {
	var out []string
	for _, n := range g.Nodes {
		out = append(out, fmt.Sprintf("%s | %s | %s", renamed(rename, n.ID), n.Type, n.Label))
	}
	sort.Strings(out)
	return out
}

func edgeSet(g causal.Result, rename map[string]string) []string {
	var out []string
	for _, e := range g.Edges {
		out = append(out, fmt.Sprintf("%s -%s-> %s (%.4f x%d)", renamed(rename, e.Source), e.Type, renamed(rename, e.Target), e.Weight, e.EvidenceCount))
	}
	sort.Strings(out)
	return out
}

// setDiff lists what only one side has, at most 10 lines each.
func setDiff(want, got []string) string {
	in := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range list {
			m[s] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, side := range []struct {
		name  string
		list  []string
		other map[string]bool
	}{{"missing", want, g}, {"extra", got, w}} {
		n := 0
		for _, s := range side.list {
			if !side.other[s] && n < 10 {
				fmt.Fprintf(&b, "%s: %s\n", side.name, s)
				n++
			}
		}
	}
	if len(want) != len(got) && b.Len() == 0 {
		fmt.Fprintf(&b, "%d items, want %d (duplicates)\n", len(got), len(want))
	}
	return b.String()
}

// TestImportedNotes checks the notes themselves: paths, titles, the
// placeholder task, and that a second import of the same id is refused.
func TestImportedNotes(t *testing.T) {
	imp, notes := importNotes(t, linked)
	if imp.Episodes != 2 || imp.Patterns != 0 || imp.Skipped != 0 {
		t.Errorf("imported %+v", imp)
	}
	paths := []string{imp.Files[0].Path, imp.Files[1].Path}
	if want := []string{"episodes/episode-a.md", "episodes/episode-b.md"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("paths %v, want %v", paths, want)
	}
	b := notes[1]
	if b.Title != "episode-b" || b.Type != "episode" || b.Episode.Task != "episode-b" || b.Episode.Outcome != "failure" {
		t.Errorf("episode-b: title %q type %q task %q outcome %q", b.Title, b.Type, b.Episode.Task, b.Episode.Outcome)
	}
	a := string(imp.Files[0].Data)
	for _, want := range []string{
		"### d001: First\n", "### d003: Third\n", "- **Effects**: [[d002]], [[e003]]\n",
		"1. [2026-08-01T09:04:00Z] one (leads_to e002) #tool_call\n",
		"3. [2026-08-01T09:06:00Z] three (caused_by e002) #commit\n",
		`decisions.d003.id: {value: Decision Two, shown: d003}`,
		`events.e001.id: {value: evt-1, shown: e001}`,
		"## Lessons Learned\n\n- Link both ways\n",
	} {
		if !strings.Contains(a, want) {
			t.Errorf("episode-a.md lacks %q:\n%s", want, a)
		}
	}
	dup := fstest.MapFS{
		"x/episodes/episode-a.json": linked["episodes/episode-a.json"],
		"y/episodes/episode-a.json": linked["episodes/episode-a.json"],
	}
	imp, diags := aiagents.Import(dup)
	if imp.Episodes != 1 || imp.Skipped != 1 || !hasDiag(diags, "y/episodes/episode-a.json:1:1: error: episode id \"episode-a\" is also the id of x/episodes/episode-a.json") {
		t.Errorf("a repeated id: %+v %v", imp, diags)
	}
}

func hasDiag(diags []note.Diagnostic, prefix string) bool {
	for _, d := range diags {
		if strings.HasPrefix(d.String(), prefix) {
			return true
		}
	}
	return false
}

// TestImportBadFiles: a file that is not an object, has trailing data or
// is truncated is an error at its file:line:col, a repeated key is a
// warning there, and the other files are imported.
func TestImportBadFiles(t *testing.T) {
	good := linked["episodes/episode-a.json"].Data
	fsys := fstest.MapFS{
		"episodes/episode-0-good.json":      {Data: good},
		"episodes/episode-1-array.json":     {Data: []byte("[\n  1, 2\n]\n")},
		"episodes/episode-2-trailing.json":  {Data: []byte("{\"id\": \"episode-t\"}\n{}\n")},
		"episodes/episode-3-dupkey.json":    {Data: []byte(strings.Replace(string(good), `"id": "episode-a",`, `"id": "episode-x", "id": "episode-d",`, 1))},
		"episodes/episode-4-truncated.json": {Data: []byte("{\n  \"id\": \"episode-z\",\n  \"events\": [")},
		"episodes/episode-5-outcome.json":   {Data: []byte(`{"id": "episode-o", "outcome": "maybe", "task": "t"}`)},
		"episodes/notes.md":                 {Data: []byte("not an episode file")},
	}
	imp, diags := aiagents.Import(fsys)
	for _, want := range []string{
		"episodes/episode-1-array.json:1:1: error: an episode file holds a JSON object, not an array [aiagents-syntax]",
		"episodes/episode-2-trailing.json:2:1: error: not valid JSON: invalid character '{' after top-level value [aiagents-syntax]",
		"episodes/episode-3-dupkey.json:2:22: warning: key \"id\" appears again; this later value is used [aiagents-duplicate-key]",
		"episodes/episode-4-truncated.json:3:14: error: not valid JSON: unexpected end of JSON input [aiagents-syntax]",
		"episodes/episode-5-outcome.json:1:1: error: episode outcome \"maybe\" is not success, partial or failure",
	} {
		if !hasDiag(diags, want) {
			t.Errorf("no diagnostic %q in:\n%s", want, diagLines(diags))
		}
	}
	if imp.Episodes != 2 || imp.Skipped != 4 {
		t.Errorf("imported %d, skipped %d; want 2 and 4", imp.Episodes, imp.Skipped)
	}
	var titles []string
	for _, f := range imp.Files {
		titles = append(titles, path.Base(f.Path))
	}
	if want := []string{"episode-a.md", "episode-d.md"}; !reflect.DeepEqual(titles, want) {
		t.Errorf("notes %v, want %v", titles, want)
	}
}

func diagLines(diags []note.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}

// TestImportLegacyGraphs reads the causal graphs of the two earlier eras
// (sequential ids, pattern rows without episodes, edges with "count").
func TestImportLegacyGraphs(t *testing.T) {
	for _, dir := range []string{"ai-agents@fd400fdcf44a", "ai-agents@dccd2d8ba396"} {
		t.Run(dir, func(t *testing.T) {
			fsys := realFS(t, filepath.Join("../../../shared/corpus/real", dir, ".agents/memory"))
			data, err := fs.ReadFile(fsys, "causality/causal-graph.json")
			if err != nil {
				t.Fatal(err)
			}
			g, _, err := aiagents.DecodeGraph("causal-graph.json", data)
			if err != nil {
				t.Fatal(err)
			}
			imp, notes := importNotes(t, fsys)
			patterns, validated, lastUsed := 0, 0, 0
			for _, row := range g.Patterns {
				if row.LastUsed != "" {
					lastUsed++
				}
			}
			for _, n := range notes {
				if n.Pattern != nil {
					patterns++
					if n.Pattern.DeclaredRate == nil || n.Pattern.DeclaredOccurrences == nil {
						t.Errorf("%s: declared values lost: %+v", n.Title, n.Pattern)
					}
					if !n.Pattern.LastValidated.IsZero() {
						validated++
					}
				}
			}
			if validated != lastUsed {
				t.Errorf("%d notes with last_validated, %d rows with last_used", validated, lastUsed)
			}
			if patterns != len(g.Patterns) || patterns != imp.Patterns || patterns == 0 {
				t.Errorf("%d pattern notes of %d rows (imported %d)", patterns, len(g.Patterns), imp.Patterns)
			}
			if len(g.Nodes) == 0 || len(g.Edges) == 0 || g.Edges[0].EvidenceCount == 0 {
				t.Errorf("graph read as %d nodes, %d edges, first edge %+v", len(g.Nodes), len(g.Edges), g.Edges)
			}
		})
	}
}

// largeGraph is a causal-graph.json of about 3 MB: 1,400 nodes with
// 2,000-character labels, edges between them, and patterns whose name,
// description, trigger and action are 2,000 characters long.
func largeGraph() []byte {
	long := func(seed string) string { return strings.Repeat(seed+" ", 2000/(len(seed)+1)) }
	g := aiagents.Graph{Version: "1.0", Updated: "2026-07-28T09:01:26Z"}
	for i := range 1400 {
		id := fmt.Sprintf("%012x", i)
		g.Nodes = append(g.Nodes, aiagents.GraphNode{ID: id, Type: "milestone", Label: long(fmt.Sprintf("label%d", i)), Episodes: []string{"episode-a"}})
		if i > 0 {
			g.Edges = append(g.Edges, aiagents.GraphEdge{Source: fmt.Sprintf("%012x", i-1), Target: id, Type: "causes", Weight: 0.5, EvidenceCount: 1, Episodes: []string{"episode-a"}})
		}
	}
	for i := range 20 {
		rate, occ := 1.0, 1
		g.Patterns = append(g.Patterns, aiagents.GraphPattern{ID: fmt.Sprintf("p%03d", i), Name: long(fmt.Sprintf("name%d", i)),
			Description: long("description"), Trigger: long("trigger"), Action: long("action"), SuccessRate: &rate, Occurrences: &occ,
			Episodes: []string{"episode-a"}, Contributions: map[string]float64{"episode-a": 1}})
	}
	b, _ := json.MarshalIndent(g, "", "  ")
	return b
}

// TestImportLargeGraph: a 3 MB graph with 2,000-character labels and
// names imports every pattern, with file names of bounded length. The
// time it takes is BenchmarkImportLargeGraph's (no timed assertion here:
// decoding is linear in the file's size by construction).
func TestImportLargeGraph(t *testing.T) {
	data := largeGraph()
	if len(data) < 3<<20 {
		t.Fatalf("the graph is %d bytes, want 3 MB", len(data))
	}
	fsys := fstest.MapFS{
		"episodes/episode-a.json":     linked["episodes/episode-a.json"],
		"causality/causal-graph.json": {Data: data},
	}
	imp, notes := importNotes(t, fsys)
	if imp.Patterns != 20 {
		t.Fatalf("%d patterns imported, want 20", imp.Patterns)
	}
	for i, f := range imp.Files[1:] {
		if name := path.Base(f.Path); len(name) > 80 {
			t.Errorf("file name of %d bytes: %s", len(name), name)
		}
		if p := notes[i+1].Pattern; p == nil || len(p.Trigger) < 1900 || len(p.Evidence) != 1 {
			t.Errorf("%s: pattern %+v", f.Path, p)
		}
	}
}

func BenchmarkImportLargeGraph(b *testing.B) {
	fsys := fstest.MapFS{
		"episodes/episode-a.json":     linked["episodes/episode-a.json"],
		"causality/causal-graph.json": {Data: largeGraph()},
	}
	b.SetBytes(int64(len(fsys["causality/causal-graph.json"].Data)))
	for b.Loop() {
		if imp, _ := aiagents.Import(fsys); imp.Patterns != 20 {
			b.Fatal(imp)
		}
	}
}

// BenchmarkImportReal imports the 287 real episodes and the 1 MB graph.
func BenchmarkImportReal(b *testing.B) {
	fsys := realFS(b, realSnapshot)
	for b.Loop() {
		if imp, _ := aiagents.Import(fsys); imp.Episodes != 287 {
			b.Fatal(imp)
		}
	}
}
