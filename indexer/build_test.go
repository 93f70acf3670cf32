package indexer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/source"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fixtureRepo turns testdata/<name>.txtar into a git repository.
func fixtureRepo(t *testing.T, name string) string {
	t.Helper()
	archive, err := os.ReadFile(filepath.Join("testdata", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := source.WriteTxtarRepo(dir, archive); err != nil {
		t.Fatal(err)
	}
	return dir
}

func build(t *testing.T, repo, out string) *indexer.Report {
	t.Helper()
	r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out})
	if err != nil {
		t.Fatalf("build %s: %v", repo, err)
	}
	return r
}

// tree reads every file under dir.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestBuildGolden compares every JSON file of the API with the golden copy.
// The API's files have a line per value and no indentation; the golden
// copies are indented to be read, and a file is compared indented.
func TestBuildGolden(t *testing.T) {
	repo := fixtureRepo(t, "basic")
	out := filepath.Join(t.TempDir(), "public")
	build(t, repo, out)
	got := tree(t, filepath.Join(out, "api"))
	for p, data := range got {
		if path.Ext(p) != ".json" {
			continue
		}
		if bytes.Contains(data, []byte("\n ")) {
			t.Errorf("%s: indented, not a line per value", p)
		}
		var buf bytes.Buffer
		if err := json.Indent(&buf, data, "", "  "); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got[p] = buf.Bytes()
	}
	golden := filepath.Join("testdata", "golden", "basic")
	if *update {
		_ = os.RemoveAll(golden)
		for p, data := range got {
			target := filepath.Join(golden, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(target, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := tree(t, golden)
	for p := range want {
		if _, ok := got[p]; !ok {
			t.Errorf("missing %s", p)
		}
	}
	for p, data := range got {
		if w, ok := want[p]; !ok {
			t.Errorf("unexpected %s", p)
		} else if !bytes.Equal(data, w) {
			t.Errorf("%s differs from the golden file (run go test -update and review the diff)", p)
		}
	}
}

func TestBuildDiagnostics(t *testing.T) {
	r := build(t, fixtureRepo(t, "basic"), filepath.Join(t.TempDir(), "public"))
	want := []string{
		"episodes/EPISODE-2026-03-02-session-02.md:14:14: warning: [[Missing runbook]] names no note; it is shown as a missing note [link-dangling]",
		"episodes/EPISODE-2026-03-08-session-03.md:4:",
		"notes.txt:1:1: info: not a markdown note; not published [not-a-note]",
		// The report lists the private note's problems; the site does not.
		"episodes/secret.md:",
		"patterns/PATTERN-inject-clock.md:16:1: warning: declared success_rate 0.70 differs from the evidence (1.00 over 1 episodes) by more than 0.1 [pattern-rate-drift]",
	}
	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, d.String())
	}
	all := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("missing diagnostic %q in:\n%s", w, all)
		}
	}
	if strings.Contains(all, "session-03.md:1:1: warning") || strings.Contains(all, "missing-field") {
		t.Errorf("a note with broken front matter should not also report missing fields:\n%s", all)
	}
	if strings.Contains(all, "d002") {
		t.Errorf("[[d002]] names a decision of the same episode, not a dangling note:\n%s", all)
	}
}

func TestBuildPublishesEveryGoodNote(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	build(t, fixtureRepo(t, "basic"), out)
	for _, p := range []string{
		"index.html",
		"episodes/index.html",
		"episodes/episode-2026-03-01-session-01/index.html",
		"episodes/episode-2026-03-02-session-02/index.html",
		"patterns/pattern-inject-clock/index.html",
		"patterns/antipattern-retry-until-green/index.html",
		"notes/clocks/index.html",
		"css/engram.css",
		"sitemap.xml",
	} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err != nil {
			t.Errorf("%s not published: %v", p, err)
		}
	}
	for p, data := range tree(t, out) {
		// Its invalid outcome is a diagnostic of the report, not of the
		// published diagnostics.
		if bytes.Contains(data, []byte("Something private")) || bytes.Contains(data, []byte("EPISODE-private")) || bytes.Contains(data, []byte("secret.md")) {
			t.Errorf("%s leaks the private note", p)
		}
		// Privacy fails closed: a note whose front matter cannot be read
		// might say private: true, so it is withheld too (SPEC §6).
		if bytes.Contains(data, []byte("Broken front matter")) || bytes.Contains(data, []byte("session-03")) {
			t.Errorf("%s publishes the note whose front matter is broken", p)
		}
	}
}

func TestBuildDeterministic(t *testing.T) {
	archive := "basic"
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	build(t, fixtureRepo(t, archive), a)
	build(t, fixtureRepo(t, archive), b)
	ta, tb := tree(t, a), tree(t, b)
	if len(ta) != len(tb) {
		t.Fatalf("%d files vs %d files", len(ta), len(tb))
	}
	for p, data := range ta {
		if !bytes.Equal(data, tb[p]) {
			t.Errorf("%s differs between two builds of the same commit", p)
		}
	}
}

// TestBuildKeepsPreviousOutput checks that a refused build leaves the
// previous output as it was.
func TestBuildKeepsPreviousOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	build(t, fixtureRepo(t, "basic"), out)
	before := tree(t, out)
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "readme.txt"), []byte("no notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := indexer.Build(context.Background(), indexer.Options{Repo: empty, Out: out})
	if !errors.Is(err, indexer.ErrRefused) {
		t.Fatalf("build of a repository without notes: err = %v, want ErrRefused", err)
	}
	after := tree(t, out)
	if len(after) != len(before) {
		t.Fatalf("output changed: %d files, was %d", len(after), len(before))
	}
	for p, data := range before {
		if !bytes.Equal(after[p], data) {
			t.Errorf("%s changed", p)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".public.engram-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary directories left behind: %v", leftovers)
	}
}

// TestBuildInterrupted: a build whose context ends as a stage begins
// (Ctrl-C, SIGTERM) stops there, the stage its last: no later stage
// begins, the error says it was interrupted, and the previous output is
// as it was, with no staging folder left. Before, only the parse, the
// secret scans and the start of Hugo looked at the context: a build
// cancelled in its export ran on through the similar episodes, the API
// and the pages (issue 29: 2.4 to 4.9 s to stop). The stages are
// cancelled at, not a time: no clock in this test.
func TestBuildInterrupted(t *testing.T) {
	repo := fixtureRepo(t, "basic")
	out := filepath.Join(t.TempDir(), "public")
	first := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, Now: &first, CacheDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	before := tree(t, out)
	// A later reference time changes the lists: a build that went
	// through would change the output.
	later := first.AddDate(0, 3, 0)
	for _, stage := range []string{"secrets", "parse", "graph", "mine", "export", "similar", "api", "pages", "hugo", "secrets-out"} {
		t.Run(stage, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var begun []string
			_, err := indexer.Build(ctx, indexer.Options{Repo: repo, Out: out, Now: &later, CacheDir: t.TempDir(), Progress: func(s string) {
				begun = append(begun, s)
				if s == stage {
					cancel()
				}
			}})
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "build interrupted; the previous output is intact") {
				t.Errorf("err = %v, want the build interrupted", err)
			}
			if !slices.Contains(begun, stage) || begun[len(begun)-1] != stage {
				t.Errorf("stages begun %v: want none after %s", begun, stage)
			}
			if diff := treeDiff(before, tree(t, out)); diff != "" {
				t.Errorf("the output changed: %s", diff)
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".public.engram-*")); len(left) > 0 {
				t.Errorf("staging left behind: %v", left)
			}
		})
	}
}

func TestBuildRefusesDuplicateTitles(t *testing.T) {
	dir := t.TempDir()
	err := source.WriteRepo(dir, []source.Commit{{When: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Files: map[string][]byte{
		"episodes/a.md": []byte("---\ntitle: Same Title\noutcome: success\ntask: t\n---\n"),
		"episodes/b.md": []byte("---\ntitle: same title\noutcome: success\ntask: t\n---\n"),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = indexer.Build(context.Background(), indexer.Options{Repo: dir, Out: filepath.Join(t.TempDir(), "out")})
	if !errors.Is(err, indexer.ErrRefused) || !strings.Contains(err.Error(), "episodes/a.md") || !strings.Contains(err.Error(), "episodes/b.md") {
		t.Fatalf("err = %v, want a refusal naming both files", err)
	}
}

// TestLoadRefusesEveryCollision: colliding titles (by case, by Unicode
// normalisation) and slugs are refused in one go, every collision named
// with every one of its files; before, the first pair found was named,
// and the third file and the other collisions only in later builds.
// Unique titles side by side pass.
func TestLoadRefusesEveryCollision(t *testing.T) {
	ep := func(title string) string { return "---\ntitle: " + title + "\noutcome: success\ntask: t\n---\n" }
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // lines of the refusal, after "build refused: "
	}{
		{"unique", map[string]string{"episodes/a.md": ep("Café"), "episodes/b.md": ep("Cafe"), "episodes/c.md": ep("Other")}, nil},
		{"three by case and normalisation", map[string]string{
			"episodes/a.md": ep("Café"), "episodes/b.md": ep("CAFÉ"), "episodes/c.md": ep("Cafe\u0301"), "episodes/d.md": ep("Other"),
		}, []string{"episodes/a.md (\"Café\"), episodes/b.md (\"CAFÉ\") and episodes/c.md (\"Cafe\u0301\") have the same title"}},
		{"every group at once", map[string]string{
			"episodes/a.md": ep("Café"), "episodes/b.md": ep("café"),
			"episodes/c.md": ep("Retry"), "episodes/d.md": ep("RETRY"), "episodes/e.md": ep("retry"),
			"episodes/f.md": ep("Foo Bar"), "episodes/g.md": ep("foo-bar"),
		}, []string{"3 collisions, each to fix:",
			`episodes/a.md ("Café") and episodes/b.md ("café") have the same title`,
			`episodes/c.md ("Retry"), episodes/d.md ("RETRY") and episodes/e.md ("retry") have the same title`,
			`episodes/f.md and episodes/g.md would be published at the same path episodes/foo-bar`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := indexer.Load(context.Background(), indexer.Options{Repo: writeFiles(t, tc.files)})
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, indexer.ErrRefused) {
				t.Fatalf("err = %v, want a refusal", err)
			}
			lines := strings.Split(strings.TrimPrefix(err.Error(), "build refused: "), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("refusal:\n%v\nwant %d lines", err, len(tc.want))
			}
			for i, want := range tc.want {
				if !strings.HasPrefix(strings.TrimSpace(lines[i]), want) {
					t.Errorf("line %d: %q, want it to start %q", i, lines[i], want)
				}
			}
		})
	}
}

func diagnosticsWith(ds []note.Diagnostic, rule string) []note.Diagnostic {
	var out []note.Diagnostic
	for _, d := range ds {
		if d.Rule == rule {
			out = append(out, d)
		}
	}
	return out
}
