package export

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/events"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

var refTime = time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC)

// dates are the created and updated dates the indexer would take from git
// history, by path; DateSource says front_matter when the note has a date.
var dates = map[string][2]time.Time{
	"episodes/2026-08-01-ledger.md": {time.Date(2026, 8, 1, 7, 0, 0, 0, time.UTC), time.Date(2026, 8, 2, 8, 0, 0, 0, time.UTC)},
	"episodes/2026-08-03-deploy.md": {time.Date(2026, 8, 3, 18, 30, 0, 0, time.UTC), time.Date(2026, 8, 3, 18, 30, 0, 0, time.UTC)},
	"episodes/2026-08-05-retry.md":  {time.Date(2026, 8, 5, 10, 0, 0, 0, time.FixedZone("CEST", 2*3600)), time.Date(2026, 8, 9, 0, 0, 0, 0, time.UTC)},
	"notes/ledger.md":               {time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)},
	"patterns/retry.md":             {time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC), time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC)},
	"patterns/run-tests.md":         {time.Date(2026, 7, 15, 0, 0, 0, 0, time.UTC), time.Date(2026, 8, 6, 0, 0, 0, 0, time.UTC)},
	"patterns/skip-ci.md":           {time.Date(2026, 8, 4, 0, 0, 0, 0, time.UTC), time.Date(2026, 8, 4, 0, 0, 0, 0, time.UTC)},
}

// defaultDecay is SPEC §3's: λ = 0.01, stale after 90 days (the indexer
// takes it from engram.toml's defaults).
func defaultDecay() Decay { return Decay{Lambda: 0.01, StaleDays: 90} }

// testInput parses testdata/notes as the indexer would (sorted by path)
// and builds the graph.
func testInput(t *testing.T) Input {
	t.Helper()
	root := os.DirFS(filepath.Join("testdata", "notes"))
	paths, err := fs.Glob(root, "*/*.md")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(paths)
	p := parse.New(parse.Roots{})
	var notes []note.Note
	var meta []Meta
	for _, path := range paths {
		src, err := fs.ReadFile(root, path)
		if err != nil {
			t.Fatal(err)
		}
		n, _, err := p.Parse(path, src)
		if err != nil {
			t.Fatalf("parse %s: %v", path, err)
		}
		d, ok := dates[path]
		if !ok {
			t.Fatalf("no dates for %s", path)
		}
		m := Meta{Slug: Slug(n.Title), Created: d[0], Updated: d[1], DateSource: "git", Commit: "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00"}
		if !n.Date.IsZero() {
			m.Created, m.DateSource = n.Date, "front_matter"
		}
		notes = append(notes, n)
		meta = append(meta, m)
	}
	if len(notes) != len(dates) {
		t.Fatalf("%d notes, %d dates", len(notes), len(dates))
	}
	return Input{
		Title: "Test memory", BaseURL: "https://mem.example/", Generator: "engram test",
		Commit: "0123456789abcdef0123456789abcdef01234567", ReferenceTime: refTime,
		Notes: notes, Meta: meta, Graph: causal.Build(notes, causal.DefaultOptions()), Decay: defaultDecay(),
		Events: testEvents(t), RetentionDays: 30,
	}
}

// testEvents reads testdata/events/deploy.jsonl and keeps the events
// within 30 days of refTime, as the indexer would.
func testEvents(t *testing.T) []events.Execution {
	t.Helper()
	const path = "events/deploy.jsonl"
	src, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	evs, diags := events.Parse(path, src)
	for _, d := range diags {
		if d.Severity != note.Info {
			t.Errorf("unexpected diagnostic %s", d)
		}
	}
	kept, expired := events.Retain(evs, refTime, 30)
	if len(expired) != 1 || expired[0].ID != "old" {
		t.Fatalf("expired %+v, want the event \"old\"", expired)
	}
	return kept
}

func testFiles(t *testing.T) []File {
	t.Helper()
	files, err := Documents(testInput(t)).Files()
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestFilesGolden compares every output file with testdata/golden/<path>.
// Run with -update to rewrite them, then review the diff: the goldens are
// the specification of the JSON API. A file is written with a line per
// value and no indentation; its golden copy is indented, to be read.
func TestFilesGolden(t *testing.T) {
	files := testFiles(t)
	for i, f := range files {
		if path.Ext(f.Path) != ".json" {
			continue
		}
		if bytes.Contains(f.Data, []byte("\n ")) {
			t.Errorf("%s: indented, not a line per value", f.Path)
		}
		var buf bytes.Buffer
		if err := json.Indent(&buf, f.Data, "", "  "); err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		files[i].Data = buf.Bytes()
	}
	golden := filepath.Join("testdata", "golden")
	if *update {
		if err := os.RemoveAll(golden); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			p := filepath.Join(golden, filepath.FromSlash(f.Path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := map[string]bool{}
	for _, f := range files {
		want[f.Path] = true
		t.Run(f.Path, func(t *testing.T) {
			g, err := os.ReadFile(filepath.Join(golden, filepath.FromSlash(f.Path)))
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(f.Data, g) {
				t.Errorf("%s differs from its golden file (go test -update rewrites it):\ngot:\n%s\nwant:\n%s", f.Path, f.Data, g)
			}
		})
	}
	err := filepath.WalkDir(golden, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(golden, p)
		if !want[filepath.ToSlash(rel)] {
			t.Errorf("golden file %s is no longer written (go test -update removes it)", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestFilesPaths(t *testing.T) {
	var got []string
	for _, f := range testFiles(t) {
		got = append(got, f.Path)
	}
	want := []string{
		"api/v1/antipatterns.json",
		"api/v1/candidates.json",
		"api/v1/diagnostics.json",
		"api/v1/episodes.json",
		"api/v1/episodes/episode-2026-08-01-session-01.json",
		"api/v1/episodes/episode-2026-08-03-session-01.json",
		"api/v1/episodes/episode-2026-08-05-session-02.json",
		"api/v1/graph.json",
		"api/v1/health.json",
		"api/v1/index.json",
		"api/v1/lessons.json",
		"api/v1/notes/ledger.json",
		"api/v1/patterns.json",
		"api/v1/patterns/antipattern-skip-ci.json",
		"api/v1/patterns/pattern-retry-blindly.json",
		"api/v1/patterns/pattern-run-tests-before-commit.json",
		"api/v1/pending.json",
		"api/v1/schema/antipatterns.schema.json",
		"api/v1/schema/candidates.schema.json",
		"api/v1/schema/diagnostics.schema.json",
		"api/v1/schema/episode.schema.json",
		"api/v1/schema/episodes.schema.json",
		"api/v1/schema/feed.schema.json",
		"api/v1/schema/graph.schema.json",
		"api/v1/schema/health.schema.json",
		"api/v1/schema/index.schema.json",
		"api/v1/schema/lessons.schema.json",
		"api/v1/schema/note.schema.json",
		"api/v1/schema/pattern.schema.json",
		"api/v1/schema/patterns.schema.json",
		"api/v1/schema/pending.schema.json",
		"api/v1/schema/workflow.schema.json",
		"api/v1/schema/workflows.schema.json",
		"api/v1/workflows.json",
		"api/v1/workflows/deploy-api.json",
		"api/v1/workflows/nightly-backfill.json",
		"api/v1/workflows/no-result.json",
		"feed.json",
		"llms.txt",
	}
	if !slices.Equal(got, want) {
		t.Errorf("paths:\n%q\nwant\n%q", got, want)
	}
}

// decode parses one output file into generic JSON.
func decode(t *testing.T, files []File, path string) map[string]any {
	t.Helper()
	for _, f := range files {
		if f.Path == path {
			var v map[string]any
			if err := json.Unmarshal(f.Data, &v); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			return v
		}
	}
	t.Fatalf("no file %s", path)
	return nil
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestShapes(t *testing.T) {
	files := testFiles(t)
	for _, name := range []string{"api/v1/episodes.json", "api/v1/patterns.json"} {
		t.Run(name, func(t *testing.T) {
			v := decode(t, files, name)
			if got := keys(v); !slices.Equal(got, []string{"items", "reference_time", "version"}) {
				t.Errorf("keys = %v, want items, reference_time, version", got)
			}
			if v["version"] != 1.0 || v["reference_time"] != "2026-08-10T12:00:00Z" {
				t.Errorf("version %v, reference_time %v", v["version"], v["reference_time"])
			}
			if items, ok := v["items"].([]any); !ok || len(items) != 3 {
				t.Errorf("items = %v, want a list of 3", v["items"])
			}
		})
	}
	t.Run("episode summary", func(t *testing.T) {
		item := decode(t, files, "api/v1/episodes.json")["items"].([]any)[0].(map[string]any)
		want := []string{"age_days", "date", "id", "json_url", "outcome", "score", "stale", "tags", "task", "title", "url"}
		if got := keys(item); !slices.Equal(got, want) {
			t.Errorf("keys = %v, want %v", got, want)
		}
	})
	t.Run("pattern summary has the score", func(t *testing.T) {
		for _, list := range []string{"api/v1/patterns.json", "api/v1/antipatterns.json"} {
			for _, it := range decode(t, files, list)["items"].([]any) {
				for _, k := range []string{"score", "age_days", "stale", "raw", "lambda", "age_from"} {
					if _, ok := it.(map[string]any)[k]; !ok {
						t.Errorf("%s: %v has no %s", list, it.(map[string]any)["id"], k)
					}
				}
			}
		}
	})
	// Issue 30, decision 3: a note's own file holds nothing that moves
	// with the reference time, only the score's inputs.
	t.Run("a note's own file has no value of the clock", func(t *testing.T) {
		own := 0
		for _, f := range files {
			kind, _, ok := strings.Cut(strings.TrimPrefix(f.Path, "api/v1/"), "/")
			if !ok || !slices.Contains([]string{"episodes", "patterns", "notes", "workflows"}, kind) {
				continue
			}
			own++
			v := decode(t, files, f.Path)
			for _, k := range []string{"score", "age_days", "stale", "reference_time"} {
				if _, ok := v[k]; ok {
					t.Errorf("%s has %s", f.Path, k)
				}
			}
			if obs, ok := v["observations"].([]any); ok {
				for _, o := range obs {
					if _, ok := o.(map[string]any)["score"]; ok {
						t.Errorf("%s: an observation has a score", f.Path)
					}
				}
			}
			if kind == "episodes" || kind == "patterns" {
				for _, k := range []string{"raw", "lambda", "age_from", "feedback"} {
					if _, ok := v[k]; !ok {
						t.Errorf("%s has no %s, an input of its score", f.Path, k)
					}
				}
			}
		}
		if own == 0 {
			t.Fatal("no note's own file")
		}
	})
	t.Run("workflow summary", func(t *testing.T) {
		v := decode(t, files, "api/v1/workflows.json")
		items := v["items"].([]any)
		want := []string{"counts", "events", "first", "id", "json_url", "last", "results", "success_ratio", "url"}
		var ids []string
		for _, it := range items {
			if got := keys(it.(map[string]any)); !slices.Equal(got, want) {
				t.Errorf("keys = %v, want %v", got, want)
			}
			ids = append(ids, it.(map[string]any)["id"].(string))
		}
		// Most recently active first.
		if !slices.Equal(ids, []string{"no-result", "deploy-api", "Nightly Backfill"}) {
			t.Errorf("workflows %v", ids)
		}
	})
	t.Run("pattern summary leaves out the full document's parts", func(t *testing.T) {
		for _, it := range decode(t, files, "api/v1/patterns.json")["items"].([]any) {
			for _, k := range []string{"source", "sections", "links", "backlinks", "relations", "last_validated"} {
				if _, ok := it.(map[string]any)[k]; ok {
					t.Errorf("%v has %s", it.(map[string]any)["id"], k)
				}
			}
		}
	})
	t.Run("index lists every file", func(t *testing.T) {
		v := decode(t, files, "api/v1/index.json")
		var listed []string
		for _, f := range v["files"].([]any) {
			listed = append(listed, f.(string))
		}
		var all []string
		for _, f := range files {
			all = append(all, f.Path)
		}
		if !slices.Equal(listed, all) {
			t.Errorf("index.json files = %q\nwant %q", listed, all)
		}
		if v["version"] != 1.0 || v["reference_time"] != "2026-08-10T12:00:00Z" || v["commit"] != "0123456789abcdef0123456789abcdef01234567" {
			t.Errorf("index.json = %v", v)
		}
	})
	t.Run("graph", func(t *testing.T) {
		v := decode(t, files, "api/v1/graph.json")
		if got := keys(v); !slices.Equal(got, []string{"edges", "links", "nodes", "patterns", "updated", "version"}) {
			t.Errorf("keys = %v", got)
		}
		for _, e := range v["edges"].([]any) {
			if got := keys(e.(map[string]any)); !slices.Equal(got, []string{"episodes", "evidence_count", "source", "target", "type", "weight"}) {
				t.Errorf("edge keys = %v", got)
			}
		}
		for _, n := range v["nodes"].([]any) {
			for _, k := range []string{"id", "type", "label", "episodes", "flags"} {
				if _, ok := n.(map[string]any)[k]; !ok {
					t.Errorf("node %v has no %s", n, k)
				}
			}
		}
	})
}

// TestEvidenceURL: evidence written by file name or in another case
// still links to its episode.
func TestEvidenceURL(t *testing.T) {
	s := Documents(testInput(t))
	for _, p := range s.Patterns {
		for _, ev := range p.Evidence {
			if !strings.HasPrefix(ev.URL, "https://mem.example/episodes/") {
				t.Errorf("%s: evidence %s has url %q", p.ID, ev.ID, ev.URL)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	in := testInput(t)
	s1, s2 := Documents(in), Documents(testInput(t))
	if !reflect.DeepEqual(s1, s2) {
		t.Fatal("Documents differs between runs")
	}
	a, err := s1.Files()
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		b, err := s1.Files()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatal("Files differs between runs")
		}
	}
}

// TestExtraPassedThrough: front matter keys engram does not read are in
// the JSON of every kind of note as written (SPEC §2: kept and passed
// through), big whole numbers exact; lists of patterns leave them out.
func TestExtraPassedThrough(t *testing.T) {
	srcs := map[string]string{
		"episodes/e.md":  "---\ntitle: EP-x\noutcome: success\ntask: t\nreviewer: ann\n---\n",
		"notes/n.md":     "---\ntitle: Concept\nstatus: draft\nid: 9007199254740993\nnested: {a: [1, 2]}\n---\n",
		"patterns/p.md":  "---\ntitle: PATTERN-x\ntrigger: a\naction: b\nowner: team-a\n---\n",
		"notes/plain.md": "---\ntitle: Plain\n---\n",
	}
	in := Input{Title: "t", ReferenceTime: refTime, Decay: defaultDecay(), RetentionDays: 30}
	p := parse.New(parse.Roots{})
	for _, path := range slices.Sorted(maps.Keys(srcs)) {
		n, _, err := p.Parse(path, []byte(srcs[path]))
		if err != nil {
			t.Fatal(err)
		}
		in.Notes = append(in.Notes, n)
		in.Meta = append(in.Meta, Meta{Slug: Slug(n.Title), Created: refTime, Updated: refTime, DateSource: "git"})
	}
	in.Graph = causal.Build(in.Notes, causal.DefaultOptions())
	files, err := Documents(in).Files()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"api/v1/episodes/ep-x.json":      `{"reviewer":"ann"}`,
		"api/v1/notes/concept.json":      `{"id":9007199254740993,"nested":{"a":[1,2]},"status":"draft"}`,
		"api/v1/patterns/pattern-x.json": `{"owner":"team-a"}`,
		"api/v1/notes/plain.json":        "",
	} {
		var doc struct {
			Extra json.RawMessage `json:"extra"`
		}
		i := slices.IndexFunc(files, func(f File) bool { return f.Path == name })
		if i < 0 {
			t.Fatalf("no file %s", name)
		}
		if err := json.Unmarshal(files[i].Data, &doc); err != nil {
			t.Fatal(err)
		}
		if got := string(bytes.Join(bytes.Fields(doc.Extra), nil)); got != want {
			t.Errorf("%s: extra %s, want %s", name, got, want)
		}
	}
	for _, it := range decode(t, files, "api/v1/patterns.json")["items"].([]any) {
		if _, ok := it.(map[string]any)["extra"]; ok {
			t.Errorf("patterns.json lists extra keys: %v", it)
		}
	}
}
