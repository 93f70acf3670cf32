package indexer_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/secrets/secretstest"
	"github.com/engramhq/engram/indexer/store"
)

// SPEC §6: "Caches hold only what was published. The page store and the
// query cache keep only what a passing build published, and are purged
// of what later fails the scan or turns private." These tests look at
// every byte under the cache directory.

// holding lists the files under dir whose bytes hold text in any form
// (secretstest.Holds); skip leaves out a path.
func holding(t *testing.T, dir, text string, skip func(string) bool) []string {
	t.Helper()
	var where []string
	for p, data := range tree(t, dir) {
		if skip != nil && skip(p) {
			continue
		}
		if secretstest.Holds(data, text) {
			where = append(where, p)
		}
	}
	return where
}

// queryCache leaves the page store out: the query cache alone.
func queryCache(p string) bool { return strings.Contains(p, ".pages/") }

// outputOnly is a note whose secret the input scan does not see and the
// build's output shows: the scan of the files does not decode an HTML
// entity in the body or a YAML escape in the title, and the page does.
func outputOnly(secret string) map[string]string {
	rest := secret[1:] // the secret is ghp_…: &#103; and \x67 are its g
	return map[string]string{
		"entity in the body":  "---\ntitle: EPISODE-2026-03-01-session-02\noutcome: success\ntask: Deploy again\n---\n\n## Context\n\nWe used &#103;" + rest + " for the deploy.\n",
		"escape in the title": "---\ntitle: \"\\x67" + rest + "\"\noutcome: success\ntask: Deploy again\n---\n\n## Context\n\nPlain text.\n",
	}
}

const fixedNote = "---\ntitle: EPISODE-2026-03-01-session-02\noutcome: success\ntask: Deploy again\n---\n\n## Context\n\nPlain text.\n"

// TestCachesKeepNoRefusedSecret: a secret only the output's scan finds
// refuses the build, and neither the page store nor the query cache holds
// it then, nor after the note is fixed and built four times; a query on
// the repository holding it refuses too, and caches nothing.
func TestCachesKeepNoRefusedSecret(t *testing.T) {
	k := secretstest.Kinds(29)[0]
	if !strings.HasPrefix(k.Secret, "ghp_") {
		t.Fatalf("kind %s: want a GitHub token", k.Name)
	}
	for name, data := range outputOnly(k.Secret) {
		t.Run(name, func(t *testing.T) {
			repo := writeRepo(t, map[string][]byte{"episodes/leak.md": []byte(data)})
			cache, out := t.TempDir(), filepath.Join(t.TempDir(), "public")
			opt := indexer.Options{Repo: repo, Out: out, CacheDir: cache}
			_, _, err := indexer.Snapshot(context.Background(), opt, store.PartEpisodes|store.PartSearch)
			if !errors.Is(err, indexer.ErrRefused) {
				t.Errorf("a query: %v, want refused", err)
			} else if secretstest.Holds([]byte(err.Error()), k.Secret) {
				t.Errorf("the query's error holds the secret: %v", err)
			}
			if where := holding(t, cache, k.Secret, nil); len(where) > 0 {
				t.Errorf("after the query, the cache holds the secret in %v", where)
			}
			var log bytes.Buffer
			opt.Log = &log
			r, err := indexer.Build(context.Background(), opt)
			if !errors.Is(err, indexer.ErrRefused) {
				t.Fatalf("build: %v, want refused", err)
			}
			for what, text := range reportTexts(r, err, &log) {
				if secretstest.Holds(text, k.Secret) {
					t.Errorf("the build's %s holds the secret", what)
				}
			}
			if where := holding(t, cache, k.Secret, nil); len(where) > 0 {
				t.Errorf("after the refused build, the cache holds the secret in %v", where)
			}
			if err := os.WriteFile(filepath.Join(repo, "episodes", "leak.md"), []byte(fixedNote), 0o644); err != nil {
				t.Fatal(err)
			}
			for i := range 4 {
				if _, err := indexer.Build(context.Background(), opt); err != nil {
					t.Fatalf("build %d after the fix: %v", i+1, err)
				}
				if where := holding(t, cache, k.Secret, nil); len(where) > 0 {
					t.Errorf("after build %d of the fixed note, the cache holds the secret in %v", i+1, where)
				}
			}
		})
	}
}

// privateMark is a word only the note that turns private holds, in its
// task (which the query cache keeps) and its page.
const privateMark = "Quokkazebrine"

func markedNote(private bool) string {
	fm := "---\ntitle: EPISODE-2026-03-02-session-01\noutcome: success\ntask: Feed the " + privateMark + "\n"
	if private {
		fm += "private: true\n"
	}
	return fm + "---\n\n## Context\n\nThe " + privateMark + " was fed.\n"
}

// TestCachesForgetPrivateNote: a note turned private is gone from every
// byte of the caches once a build publishes without it (a build writes
// no query cache, and removes the one a query made of the repository
// before), and from the query cache once a query reads the repository
// again.
func TestCachesForgetPrivateNote(t *testing.T) {
	for _, by := range []string{"build", "query"} {
		t.Run(by, func(t *testing.T) {
			repo := writeRepo(t, map[string][]byte{"episodes/marked.md": []byte(markedNote(false))})
			cache := t.TempDir()
			opt := indexer.Options{Repo: repo, Out: filepath.Join(t.TempDir(), "public"), CacheDir: cache}
			build := func() {
				t.Helper()
				if _, err := indexer.Build(context.Background(), opt); err != nil {
					t.Fatal(err)
				}
			}
			// query returns how many search results the mark has.
			query := func() int {
				t.Helper()
				snap, _, err := indexer.Snapshot(context.Background(), opt, store.PartEpisodes|store.PartSearch)
				if err != nil {
					t.Fatal(err)
				}
				defer snap.Close()
				hits, err := snap.Search(privateMark, "", 10, false)
				if err != nil {
					t.Fatal(err)
				}
				return len(hits)
			}
			// The page store holds the note's page, the query cache its
			// snapshot and search index.
			build()
			if n := query(); n == 0 {
				t.Fatal("a search does not find the note: the test would see nothing")
			}
			if len(holding(t, cache, privateMark, queryCache)) == 0 || len(holding(t, cache, privateMark, func(p string) bool { return !queryCache(p) })) == 0 {
				t.Fatal("the caches hold nothing of the note: the test would see nothing")
			}
			if err := os.WriteFile(filepath.Join(repo, "episodes", "marked.md"), []byte(markedNote(true)), 0o644); err != nil {
				t.Fatal(err)
			}
			if by == "build" {
				build()
			} else if n := query(); n > 0 {
				t.Errorf("a search finds the note turned private (%d results)", n)
			}
			skip := queryCache // a query leaves the page store as it was
			if by == "build" {
				skip = nil
			}
			if where := holding(t, cache, privateMark, skip); len(where) > 0 {
				t.Errorf("the note turned private is still in %v", where)
			}
		})
	}
}

// TestRefusalDropsQueryCache: a build refused (here for a secret in
// another note) leaves no query cache to answer from (the one a query
// made after the last good build), so a note turned private in the same
// change is not answered either; a query then refuses as the build did.
func TestRefusalDropsQueryCache(t *testing.T) {
	repo := writeRepo(t, map[string][]byte{"episodes/marked.md": []byte(markedNote(false))})
	cache := t.TempDir()
	opt := indexer.Options{Repo: repo, Out: filepath.Join(t.TempDir(), "public"), CacheDir: cache}
	if _, err := indexer.Build(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	if _, _, err := indexer.Snapshot(context.Background(), opt, store.PartEpisodes); err != nil {
		t.Fatal(err)
	}
	if len(holding(t, cache, privateMark, queryCache)) == 0 {
		t.Fatal("the query cache holds nothing of the note: the test would see nothing")
	}
	c := newSecretCase(secretstest.Kinds(30)[0], "body")
	for p, data := range map[string]string{"episodes/marked.md": markedNote(true), c.path: string(c.data)} {
		if err := os.WriteFile(filepath.Join(repo, filepath.FromSlash(p)), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := indexer.Build(context.Background(), opt); !errors.Is(err, indexer.ErrRefused) {
		t.Fatalf("build: %v, want refused", err)
	}
	if where := holding(t, cache, privateMark, queryCache); len(where) > 0 {
		t.Errorf("after the refused build, the query cache still holds the note turned private in %v", where)
	}
	if _, _, err := indexer.Snapshot(context.Background(), opt, store.PartEpisodes); !errors.Is(err, indexer.ErrRefused) {
		t.Errorf("a query: %v, want refused as the build is", err)
	}
	if where := holding(t, cache, privateMark, queryCache); len(where) > 0 {
		t.Errorf("after the refused query, the query cache holds the note turned private in %v", where)
	}
}

// TestMessagesHoldNoDecodedSecret: a secret escaped in front matter (the
// scan of the files reads it as written, parsing decodes it) is in no
// diagnostic and no error a load or a build gives: each is redacted.
func TestMessagesHoldNoDecodedSecret(t *testing.T) {
	k := secretstest.Kinds(37)[0]
	esc := `"\x67` + k.Secret[1:] + `"`
	for name, files := range map[string]map[string][]byte{
		"a title twice": {
			"episodes/a.md": []byte("---\ntitle: " + esc + "\noutcome: success\ntask: A\n---\n\nText.\n"),
			"episodes/b.md": []byte("---\ntitle: " + esc + "\noutcome: success\ntask: B\n---\n\nText.\n"),
		},
		"links in front matter": {
			"episodes/c.md": []byte("---\ntitle: EPISODE-2026-03-05-session-01\noutcome: success\ntask: C\nconcepts: [" + esc + "]\nsource_thread: " + esc + "\n---\n\nText.\n"),
		},
	} {
		t.Run(name, func(t *testing.T) {
			repo := writeRepo(t, files)
			var texts []string
			l, err := indexer.Load(context.Background(), indexer.Options{Repo: repo})
			if err != nil {
				texts = append(texts, err.Error())
			} else {
				for _, d := range l.Diagnostics {
					texts = append(texts, d.String())
				}
			}
			var log bytes.Buffer
			r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: filepath.Join(t.TempDir(), "public"), CacheDir: t.TempDir(), Log: &log})
			for what, text := range reportTexts(r, err, &log) {
				texts = append(texts, what+": "+string(text))
			}
			redacted := false
			for _, text := range texts {
				if secretstest.Holds([]byte(text), k.Secret) {
					t.Errorf("a message holds the secret: %s", text)
				}
				redacted = redacted || strings.Contains(text, "[REDACTED:"+k.Rule+"]")
			}
			if !redacted {
				t.Errorf("no message names the value redacted; the test sees nothing:\n%s", strings.Join(texts, "\n"))
			}
		})
	}
}

// TestOutputScanKnown: the scan of a build's output leaves out the files
// whose bytes passed it in the output last published (issue 30: per-note
// work once per note content), and never a file whose bytes changed: a
// secret only the output's scan finds, edited into a note after a
// passing build, still refuses the build.
func TestOutputScanKnown(t *testing.T) {
	k := secretstest.Kinds(29)[0]
	repo := writeRepo(t, map[string][]byte{"episodes/leak.md": []byte(fixedNote)})
	cache := t.TempDir()
	opt := indexer.Options{Repo: repo, Out: filepath.Join(t.TempDir(), "public"), CacheDir: cache}
	build := func(what string) (*indexer.Report, error) {
		t.Helper()
		r, err := indexer.Build(context.Background(), opt)
		if r != nil && r.Pages.Err != nil {
			t.Fatalf("%s: the page store: %v", what, r.Pages.Err)
		}
		return r, err
	}
	r, err := build("the first build")
	if err != nil {
		t.Fatal(err)
	}
	if r.Pages.ScanKnown != 0 {
		t.Errorf("the first build knew %d files", r.Pages.ScanKnown)
	}
	if r, err = build("the same build again"); err != nil {
		t.Fatal(err)
	}
	if r.Pages.ScanKnown == 0 {
		t.Error("the same build again scanned every file: none was known")
	}
	for name, data := range outputOnly(k.Secret) {
		if err := os.WriteFile(filepath.Join(repo, "episodes", "leak.md"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := build(name); !errors.Is(err, indexer.ErrRefused) {
			t.Errorf("%s after a passing build: %v, want refused", name, err)
		}
		if where := holding(t, cache, k.Secret, nil); len(where) > 0 {
			t.Errorf("%s: the cache holds the secret in %v", name, where)
		}
	}
}

// queryCacheFiles lists the files of the query cache under the cache
// directory cache: its folder is named by a hash of the repository's
// path, the page store (<hash>.pages) and the notes' titles
// (<hash>.notes.gob) are beside it.
func queryCacheFiles(t *testing.T, cache string) []string {
	t.Helper()
	var files []string
	for p := range tree(t, cache) {
		if top, _, _ := strings.Cut(p, "/"); !strings.Contains(top, ".") {
			files = append(files, p)
		}
	}
	slices.Sort(files)
	return files
}

// TestBuildLeavesQueryCacheToQueries (issue 30): a build writes no query
// cache and no search index, which serve the queries and never the
// site: the first query after it reads the repository and makes them,
// and its search finds the notes. A query cache made from the state the
// build read stays (the next query answers from it); one made from an
// earlier state goes with the build.
func TestBuildLeavesQueryCacheToQueries(t *testing.T) {
	for _, tc := range []struct {
		name string
		// before runs before the build: a query, an edit.
		before []string
		// kept: the query cache is there after the build.
		kept bool
	}{
		{"no query before", nil, false},
		{"a query of the state built", []string{"query"}, true},
		{"a query of an earlier state", []string{"query", "edit"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := writeRepo(t, map[string][]byte{"episodes/marked.md": []byte(markedNote(false))})
			cache := t.TempDir()
			opt := indexer.Options{Repo: repo, Out: filepath.Join(t.TempDir(), "public"), CacheDir: cache}
			search := func() (hits int, info indexer.SnapshotInfo) {
				t.Helper()
				snap, info, err := indexer.Snapshot(context.Background(), opt, store.PartEpisodes|store.PartSearch)
				if err != nil {
					t.Fatal(err)
				}
				defer snap.Close()
				items, err := snap.Search(privateMark, "", 10, false)
				if err != nil {
					t.Fatal(err)
				}
				return len(items), info
			}
			for _, step := range tc.before {
				switch step {
				case "query":
					search()
				case "edit":
					if err := os.WriteFile(filepath.Join(repo, "episodes", "other.md"), []byte(fixedNote), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			before := queryCacheFiles(t, cache)
			r, err := indexer.Build(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			if r.CacheErr != nil {
				t.Errorf("build: cache error %v", r.CacheErr)
			}
			for _, s := range r.Stages {
				if strings.Contains(s.Name, "cache") {
					t.Errorf("the build has a stage %q", s.Name)
				}
			}
			after := queryCacheFiles(t, cache)
			if tc.kept && !slices.Equal(after, before) {
				t.Errorf("the query cache of the state built: %v before the build, %v after; want it kept", before, after)
			}
			if !tc.kept && len(after) > 0 {
				t.Errorf("after the build, the query cache holds %v; want none", after)
			}
			hits, info := search()
			if hits != 1 || info.Refreshed == tc.kept || info.CacheErr != nil {
				t.Errorf("the query after the build: %d hits, refreshed %v, cache error %v; want 1 hit, refreshed %v", hits, info.Refreshed, info.CacheErr, !tc.kept)
			}
			if hits, info := search(); hits != 1 || info.Refreshed {
				t.Errorf("the next query: %d hits, refreshed %v; want 1 hit from the cache", hits, info.Refreshed)
			}
		})
	}
}
