package indexer_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
)

// TestIncrementalEqualsFull applies 50 random edits to a repository one
// by one: add, change, delete and rename notes (episodes and patterns,
// a pattern cited by many episodes among them), change engram.toml,
// commit a change of dates alone, and commit nothing at all (only the
// reference time moves). After each, a build that reuses the
// earlier builds' pages (the same output and page store) must write the
// same bytes, file for file, as a full build into a fresh output with an
// empty store. The store holds parsed notes too (parsecache.go). Edits are staged (a build publishes staged notes); the
// two kinds that move the reference time are commits.
func TestIncrementalEqualsFull(t *testing.T) {
	if testing.Short() {
		t.Skip("101 builds of a 120-note repository")
	}
	repo := t.TempDir()
	corpus := gen.Generate(gen.Options{Episodes: 90, Patterns: 20, Antipatterns: 5, BadNotes: 5})
	if err := source.WriteRepo(repo, corpus.Commits); err != nil {
		t.Fatal(err)
	}
	e := &editor{t: t, repo: repo, rng: rand.New(rand.NewPCG(17, 2026)), when: corpus.Commits[len(corpus.Commits)-1].When}
	cache, out := t.TempDir(), filepath.Join(t.TempDir(), "public")
	parsesReused := 0
	incremental := func() store.PageReuse {
		r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: cache, Force: true})
		if err != nil {
			t.Fatalf("incremental build: %v", err)
		}
		if r.Pages.Err != nil || r.Parses.Reset != nil {
			t.Fatalf("incremental build: the page store: %v; the parse store: %v", r.Pages.Err, r.Parses.Reset)
		}
		parsesReused += r.Parses.Reused
		return r.Pages
	}
	first := incremental()
	if first.Reused != 0 || first.Rendered == 0 {
		t.Fatalf("the first build reused %d pages and rendered %d: want 0 and all", first.Reused, first.Rendered)
	}
	reused := 0
	kinds := map[string]int{}
	for i := range 50 {
		what := e.edit(i)
		kinds[strings.Fields(what)[0]]++
		p := incremental()
		reused += p.Reused
		full := filepath.Join(t.TempDir(), "public")
		if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: full, CacheDir: t.TempDir(), Force: true}); err != nil {
			t.Fatalf("edit %d (%s): full build: %v", i+1, what, err)
		}
		if diff := treeDiff(tree(t, full), tree(t, out)); diff != "" {
			t.Fatalf("edit %d (%s): the incremental build (%d pages reused, %d rendered) differs from a full build: %s", i+1, what, p.Reused, p.Rendered, diff)
		}
		t.Logf("edit %d: %s: %d pages reused, %d rendered", i+1, what, p.Reused, p.Rendered)
	}
	if reused == 0 || parsesReused == 0 {
		t.Errorf("the builds reused %d pages and %d parsed notes: the comparison tested nothing", reused, parsesReused)
	}
	for _, k := range []string{"add", "change", "delete", "rename", "engram.toml", "commit", "clock", "pattern"} {
		if kinds[k] == 0 {
			t.Errorf("no edit of kind %s among the 50", k)
		}
	}
}

// treeDiff describes the first difference between two trees, or "".
func treeDiff(want, got map[string][]byte) string {
	var paths []string
	for p := range want {
		paths = append(paths, p)
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		w, inWant := want[p]
		g, inGot := got[p]
		switch {
		case !inGot:
			return p + " is missing"
		case !inWant:
			return p + " should not be there (stale)"
		case !bytes.Equal(w, g):
			i := 0
			for i < min(len(w), len(g)) && w[i] == g[i] {
				i++
			}
			return fmt.Sprintf("%s differs at byte %d: want %q, got %q", p, i, excerpt(w, i), excerpt(g, i))
		}
	}
	return ""
}

func excerpt(b []byte, i int) string {
	return string(b[max(0, i-60):min(len(b), i+60)])
}

// editor makes random edits to a repository's notes.
type editor struct {
	t    *testing.T
	repo string
	rng  *rand.Rand
	when time.Time
	next []string // the kinds of the edits to come
}

var titleLine = regexp.MustCompile(`(?m)^title: .*$`)
var dateLine = regexp.MustCompile(`(?m)^date: (\S+)$`)

// edit makes the i-th edit and says what it was; its first word is its
// kind. Every kind comes round once in each eight edits, in a random order.
func (e *editor) edit(i int) string {
	if len(e.next) == 0 {
		e.next = []string{"add", "change", "delete", "rename", "engram.toml", "commit", "clock", "pattern"}
		e.rng.Shuffle(len(e.next), func(a, b int) { e.next[a], e.next[b] = e.next[b], e.next[a] })
	}
	kind := e.next[0]
	e.next = e.next[1:]
	switch kind {
	case "add":
		src := e.pick("episodes/")
		data := titleLine.ReplaceAll(e.read(src), []byte(fmt.Sprintf("title: EP-added-%d", i)))
		dst := fmt.Sprintf("episodes/added-%d.md", i)
		e.write(dst, data)
		e.stage(dst)
		return "add " + dst + " (from " + src + ")"
	case "change":
		p := e.pick("episodes/")
		e.write(p, append(e.read(p), fmt.Sprintf("\n- Edit %d: one more line in the last section.\n", i)...))
		e.stage(p)
		return "change " + p
	case "delete":
		p := e.pick("episodes/")
		if err := os.Remove(filepath.Join(e.repo, p)); err != nil {
			e.t.Fatal(err)
		}
		e.stage(p)
		return "delete " + p
	case "rename":
		p := e.pick("")
		to := filepath.ToSlash(filepath.Join(filepath.Dir(p), fmt.Sprintf("renamed-%d-%s", i, filepath.Base(p))))
		if err := os.Rename(filepath.Join(e.repo, p), filepath.Join(e.repo, to)); err != nil {
			e.t.Fatal(err)
		}
		e.stage(p, to)
		return "rename " + p + " to " + to
	case "engram.toml":
		toml := [][]byte{
			[]byte(fmt.Sprintf("title = \"Memory %d\"\n", i)),
			[]byte("title = \"Memory\"\nbase_url = \"https://example.org/memory/\"\n"),
			[]byte("[bootstrap]\nbudget = 1500\n"),
		}[e.rng.IntN(3)]
		e.write("engram.toml", toml)
		e.stage("engram.toml")
		return "engram.toml set to " + strings.ReplaceAll(string(toml), "\n", "; ")
	case "commit":
		// A commit a day later that changes one note's date: the
		// reference time moves, and with it every age and score.
		p := e.pick("episodes/")
		data := dateLine.ReplaceAllFunc(e.read(p), func(line []byte) []byte {
			d, err := time.Parse(time.RFC3339, string(dateLine.FindSubmatch(line)[1]))
			if err != nil {
				return line
			}
			return []byte("date: " + d.Add(time.Hour).Format(time.RFC3339))
		})
		e.when = e.when.Add(24 * time.Hour)
		if err := source.WriteRepo(e.repo, []source.Commit{{When: e.when, Message: fmt.Sprintf("edit %d", i), Files: map[string][]byte{p: data}}}); err != nil {
			e.t.Fatal(err)
		}
		return "commit of a new date in " + p
	case "clock":
		// A commit days later that changes no file: only the reference
		// time moves, and with it every age and score.
		e.when = e.when.Add(time.Duration(1+e.rng.IntN(90)) * 24 * time.Hour)
		if err := source.WriteRepo(e.repo, []source.Commit{{When: e.when, Message: fmt.Sprintf("edit %d: nothing but time", i)}}); err != nil {
			e.t.Fatal(err)
		}
		return "clock moved to " + e.when.Format(time.DateOnly) + " by an empty commit"
	default: // "pattern": a pattern, which many episodes cite
		p := e.pick("patterns/")
		data := regexp.MustCompile(`(?m)^success_rate: .*$`).ReplaceAll(e.read(p), []byte(fmt.Sprintf("success_rate: 0.%02d", e.rng.IntN(100))))
		data = regexp.MustCompile(`(?m)^trigger: .*$`).ReplaceAll(data, []byte(fmt.Sprintf("trigger: when edit %d comes", i)))
		e.write(p, data)
		e.stage(p)
		return "pattern " + p + ": a new trigger and success rate"
	}
}

// pick returns a random note under prefix ("" for any).
func (e *editor) pick(prefix string) string {
	var notes []string
	err := filepath.WalkDir(e.repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil || (d.IsDir() && d.Name() == ".git") {
			if err == nil {
				err = filepath.SkipDir
			}
			return err
		}
		rel, _ := filepath.Rel(e.repo, p)
		rel = filepath.ToSlash(rel)
		if !d.IsDir() && strings.HasSuffix(rel, ".md") && strings.HasPrefix(rel, prefix) {
			notes = append(notes, rel)
		}
		return nil
	})
	if err != nil || len(notes) == 0 {
		e.t.Fatalf("no note under %q: %v", prefix, err)
	}
	return notes[e.rng.IntN(len(notes))]
}

// stage stages paths as `git add` does, a deleted one as `git rm`: the
// build publishes staged notes, never untracked ones.
func (e *editor) stage(paths ...string) {
	r, err := git.PlainOpen(e.repo)
	if err != nil {
		e.t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		e.t.Fatal(err)
	}
	for _, p := range paths {
		if _, err = os.Stat(filepath.Join(e.repo, p)); err == nil {
			_, err = wt.Add(p)
		} else {
			_, err = wt.Remove(p)
		}
		if err != nil {
			e.t.Fatalf("stage %s: %v", p, err)
		}
	}
}

func (e *editor) read(p string) []byte {
	data, err := os.ReadFile(filepath.Join(e.repo, p))
	if err != nil {
		e.t.Fatal(err)
	}
	return data
}

func (e *editor) write(p string, data []byte) {
	if err := os.WriteFile(filepath.Join(e.repo, p), data, 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// perNoteFile matches the files of one note: its page and its API file
// (a workflow's too). Everything else is a list or an aggregate, which
// may change with the reference time.
var perNoteFile = regexp.MustCompile(`^(?:(?:episodes|patterns|notes|workflows)/[^/]+/index\.html|api/v1/(?:episodes|patterns|notes|workflows)/[^/]+\.json)$`)

// TestPerNoteFilesIgnoreTheClock: a build whose reference time alone
// moves, by --now or by a new commit that changes no file, writes every
// note's page and API file byte for byte as the build before, and takes
// every note's page from the page store (issue 30, decision 3): ages,
// decayed scores and staleness live in the list files and list pages.
func TestPerNoteFilesIgnoreTheClock(t *testing.T) {
	repo := t.TempDir()
	corpus := gen.Generate(gen.Options{Episodes: 30, Patterns: 8, Antipatterns: 2, BadNotes: 2})
	if err := source.WriteRepo(repo, corpus.Commits); err != nil {
		t.Fatal(err)
	}
	last := corpus.Commits[len(corpus.Commits)-1].When
	cache, out := t.TempDir(), filepath.Join(t.TempDir(), "public")
	build := func(now *time.Time) (map[string][]byte, store.PageReuse) {
		t.Helper()
		r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: cache, Force: true, Now: now})
		if err != nil {
			t.Fatalf("build: %v", err)
		}
		if r.Pages.Err != nil {
			t.Fatalf("build: the page store: %v", r.Pages.Err)
		}
		return tree(t, out), r.Pages
	}
	before, _ := build(nil)
	for _, tc := range []struct {
		name string
		move func() *time.Time
	}{
		{"--now 30 days later", func() *time.Time { now := last.Add(30 * 24 * time.Hour); return &now }},
		{"an empty commit 60 days later", func() *time.Time {
			if err := source.WriteRepo(repo, []source.Commit{{When: last.Add(60 * 24 * time.Hour), Message: "nothing but time"}}); err != nil {
				t.Fatal(err)
			}
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			after, reuse := build(tc.move())
			if bytes.Equal(before["api/v1/episodes.json"], after["api/v1/episodes.json"]) {
				t.Fatal("episodes.json did not change: the reference time did not move, and the test tests nothing")
			}
			perNote := 0
			for p, want := range before {
				if !perNoteFile.MatchString(p) {
					continue
				}
				if strings.HasSuffix(p, ".html") {
					perNote++
				}
				if got, ok := after[p]; !ok {
					t.Errorf("%s is gone", p)
				} else if d := treeDiff(map[string][]byte{p: want}, map[string][]byte{p: got}); d != "" {
					t.Errorf("the clock moved a note's file: %s", d)
				}
			}
			if perNote == 0 {
				t.Fatal("no note's page in the output: the test tests nothing")
			}
			if reuse.Reused < perNote {
				t.Errorf("the page store gave %d pages and %d were rendered: want at least the %d notes' pages given", reuse.Reused, reuse.Rendered, perNote)
			}
			before = after
		})
	}
}
