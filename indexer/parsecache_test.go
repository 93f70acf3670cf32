package indexer

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"

	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
)

// parseStoreRepo is testdata/basic.txtar as a git repository, with a
// build's options into a fresh output and store.
func parseStoreRepo(t *testing.T) (Options, string) {
	t.Helper()
	archive, err := os.ReadFile(filepath.Join("testdata", "basic.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	if err := source.WriteTxtarRepo(repo, archive); err != nil {
		t.Fatal(err)
	}
	opt := Options{Repo: repo, Out: filepath.Join(t.TempDir(), "public"), CacheDir: t.TempDir()}
	dir, err := store.PagesDir(opt.Repo, opt.CacheDir)
	if err != nil {
		t.Fatal(err)
	}
	return opt, filepath.Join(dir, store.ParsedFile)
}

func buildFor(t *testing.T, opt Options) *Report {
	t.Helper()
	r, err := Build(context.Background(), opt)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return r
}

// TestParseStore: a second build of the same notes parses none of the
// published ones again (issue 30, decision 2), and says it; the private
// note and the one whose front matter is broken (withheld as private)
// are parsed every time, and nothing of them is in the store's file
// (SPEC §6, "Caches hold only what was published"); an edited note is
// parsed again, the others still reused, and only its chunk of the
// store's file is encoded again.
func TestParseStore(t *testing.T) {
	opt, file := parseStoreRepo(t)
	first := buildFor(t, opt)
	published := first.Counts["episodes"] + first.Counts["patterns"] + first.Counts["notes"]
	if first.Parses.Reused != 0 || first.Parses.Parsed == 0 {
		t.Fatalf("first build: %+v, want every note parsed", first.Parses)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the published build kept no parse store: %v", err)
	}
	for _, private := range []string{"Something private", "EPISODE-private", "Broken front matter"} {
		if bytes.Contains(data, []byte(private)) {
			t.Errorf("the parse store holds %q, of a note withheld as private", private)
		}
	}
	second := buildFor(t, opt)
	if second.Parses.Encoded != 0 {
		t.Errorf("second build encoded %d chunks of notes that did not change: want every one copied", second.Parses.Encoded)
	}
	if second.Parses.Reused != published || second.Parses.Parsed != first.Parses.Parsed-published {
		t.Errorf("second build: %+v, want the %d published notes reused and the %d others parsed", second.Parses, published, first.Parses.Parsed-published)
	}
	concept := filepath.Join(opt.Repo, "concepts", "clocks.md")
	if err := os.WriteFile(concept, []byte("---\ntitle: Clocks\ntype: concept\n---\n\n- [fact] Clocks drift\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	third := buildFor(t, opt)
	if third.Parses.Reused != published-1 || third.Parses.Encoded != 1 {
		t.Errorf("after an edit: %+v, want %d reused and the edited note's chunk alone encoded", third.Parses, published-1)
	}
}

// TestParseStoreSaysWhy: a parse store's file that cannot be trusted is
// never used, and the build says why (a file damaged or cut short), or
// says nothing (another engram's, whose key differs); either way every
// note is parsed and the output is the same as with a good store.
func TestParseStoreSaysWhy(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(data []byte) []byte
		reset  bool
	}{
		{"a flipped byte", func(d []byte) []byte { d[len(d)-10] ^= 1; return d }, true},
		{"cut short", func(d []byte) []byte { return d[:len(d)/2] }, true},
		{"a foreign file", func([]byte) []byte { return []byte("{\"not\": \"a parse store\"}") }, true},
		{"another engram's", func(d []byte) []byte { d[len(store.ParsedMagic)] ^= 1; return d }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			opt, file := parseStoreRepo(t)
			first := buildFor(t, opt)
			want := readTree(t, opt.Out)
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, c.damage(data), 0o644); err != nil {
				t.Fatal(err)
			}
			r := buildFor(t, opt)
			if (r.Parses.Reset != nil) != c.reset || r.Parses.Reused != 0 || r.Parses.Parsed != first.Parses.Parsed {
				t.Errorf("parses %+v, want reset %v and every note parsed", r.Parses, c.reset)
			}
			if got := readTree(t, opt.Out); !equalTrees(got, want) {
				t.Error("the output differs from the build with a good store")
			}
			if again := buildFor(t, opt); again.Parses.Reused == 0 || again.Parses.Reset != nil {
				t.Errorf("the build after: %+v, want the store written afresh and used", again.Parses)
			}
		})
	}
}

// TestParseStoreNotKeptByRefusedBuild: a build that is refused (two
// notes with one title) leaves the parse store as the last published
// build left it, and nothing of its own beside it.
func TestParseStoreNotKeptByRefusedBuild(t *testing.T) {
	opt, file := parseStoreRepo(t)
	buildFor(t, opt)
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	twin := filepath.Join(opt.Repo, "concepts", "clocks-again.md")
	if err := os.WriteFile(twin, []byte("---\ntitle: Clocks\ntype: concept\n---\n\nUnpublished words.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stageFile(t, opt.Repo, "concepts/clocks-again.md")
	if _, err := Build(context.Background(), opt); !errors.Is(err, ErrRefused) {
		t.Fatalf("build = %v, want refused", err)
	}
	after, err := os.ReadFile(file)
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("a refused build changed the parse store (%v)", err)
	}
	// Nothing the refused build wrote for the store is left beside it.
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".engram-write-*"))
	if len(left) != 0 {
		t.Errorf("the refused build left %v in the store", left)
	}
}

// stageFile stages path (slash-separated) in repo: a build reads tracked
// files only.
func stageFile(t *testing.T, repo, path string) {
	t.Helper()
	r, err := git.PlainOpen(repo)
	if err != nil {
		t.Fatal(err)
	}
	w, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(path); err != nil {
		t.Fatal(err)
	}
}

// readTree reads every file under dir, by path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		files[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestParseStoreRealData: on real snapshots (read in place, as plain
// directories) a second build takes every published note from the
// store: what the first build kept comes back exactly, front matter
// extras, empty lists, pointers to zero and diagnostics included.
func TestParseStoreRealData(t *testing.T) {
	for _, snap := range []string{"ai-agents", "ai-agents@316ed2f2d41c"} {
		t.Run(snap, func(t *testing.T) {
			repo := filepath.Join("../../shared/corpus/real", snap)
			if _, err := os.Stat(repo); err != nil {
				t.Skipf("the real-data corpus (../shared/corpus/real) is not here: %v", err)
			}
			now := time.Date(2026, 8, 22, 12, 0, 0, 0, time.UTC)
			opt := Options{Repo: repo, Out: filepath.Join(t.TempDir(), "public"), CacheDir: t.TempDir(), Now: &now}
			buildFor(t, opt)
			r := buildFor(t, opt)
			published := r.Counts["episodes"] + r.Counts["patterns"] + r.Counts["notes"]
			if published == 0 || r.Parses.Reused < published || r.Parses.Reset != nil || r.Parses.Err != nil {
				t.Errorf("second build: %+v; want all %d published notes from the store", r.Parses, published)
			}
		})
	}
}
