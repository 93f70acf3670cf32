package indexer

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engramhq/engram/site"
)

func key(s string) site.PageKey { return site.PageKey(sha256.Sum256([]byte(s))) }

// storeRound opens the store, gets the keys in get (reporting which were
// found), puts the pages in put, and commits unless abort.
func storeRound(t *testing.T, opt Options, get []string, put map[string]string, abort bool) map[string]string {
	t.Helper()
	s, err := openPages(opt)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	for _, k := range get {
		if page, ok := s.Get(key(k)); ok {
			found[k] = string(page)
		}
	}
	for k, page := range put {
		if err := s.Put(key(k), []byte(page)); err != nil {
			t.Fatal(err)
		}
	}
	if abort {
		s.abort()
		return found
	}
	if _, err := s.commit(); err != nil {
		t.Fatal(err)
	}
	return found
}

// TestPageStore: a page kept by a committed build is found by the next; a
// page kept by a build that did not commit (killed, failed) is not, and
// the pages before it still are; a page whose bytes were damaged is not
// found; a page the last build did not use is dropped.
func TestPageStore(t *testing.T) {
	opt := Options{Repo: t.TempDir(), CacheDir: t.TempDir()}
	storeRound(t, opt, nil, map[string]string{"a": "<p>a</p>", "b": "<p>b</p>"}, false)
	// Killed: c appended, the index never replaced.
	storeRound(t, opt, []string{"a"}, map[string]string{"c": "<p>c</p>"}, true)
	got := storeRound(t, opt, []string{"a", "b", "c"}, nil, false)
	if got["a"] != "<p>a</p>" || got["b"] != "<p>b</p>" || got["c"] != "" {
		t.Fatalf("after an aborted build: %v, want a and b only", got)
	}
	// This build used only a: b is gone from the index.
	storeRound(t, opt, []string{"a"}, nil, false)
	if got := storeRound(t, opt, []string{"a", "b"}, nil, false); got["b"] != "" || got["a"] == "" {
		t.Fatalf("after a build that used only a: %v", got)
	}
	// Damage a's bytes in the pack: a is rendered again, never served.
	dir, _ := pagesDir(opt)
	packs, _ := filepath.Glob(filepath.Join(dir, "pages-*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs %v, want one", packs)
	}
	data, _ := os.ReadFile(packs[0])
	i := bytes.Index(data, []byte("<p>a</p>"))
	data[i+3] = 'X'
	if err := os.WriteFile(packs[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := storeRound(t, opt, []string{"a"}, nil, false); got["a"] != "" {
		t.Fatalf("a damaged page was served: %q", got["a"])
	}
}

// TestPageStoreBadIndex: an index engram cannot read is started afresh,
// and a store another build holds is not used (the build says why).
func TestPageStoreBadIndex(t *testing.T) {
	opt := Options{Repo: t.TempDir(), CacheDir: t.TempDir()}
	storeRound(t, opt, nil, map[string]string{"a": "A"}, false)
	dir, _ := pagesDir(opt)
	for _, bad := range []string{"", "not an index", pagesMagic + "../../etc/passwd\n", pagesMagic + "pages-1.pack\nshort"} {
		if err := os.WriteFile(filepath.Join(dir, pagesIndex), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := storeRound(t, opt, []string{"a"}, map[string]string{"a": "A"}, false); len(got) != 0 {
			t.Errorf("index %q: found %v", bad, got)
		}
	}
	held, err := openPages(opt)
	if err != nil {
		t.Fatal(err)
	}
	defer held.abort()
	if _, err := openPages(opt); err == nil || !strings.Contains(err.Error(), "in use by another build") {
		t.Errorf("a store in use: %v", err)
	}
}

// TestPageStoreCompacts: once most of the pack is pages no build uses, it
// is rewritten with the used ones, which are still found; the old pack is
// removed.
func TestPageStoreCompacts(t *testing.T) {
	opt := Options{Repo: t.TempDir(), CacheDir: t.TempDir()}
	big := strings.Repeat("x", compactAbove/4)
	storeRound(t, opt, nil, map[string]string{"1": big + "1", "2": big + "2", "3": big + "3", "4": big + "4", "keep": "kept"}, false)
	storeRound(t, opt, []string{"keep"}, nil, false)
	dir, _ := pagesDir(opt)
	packs, _ := filepath.Glob(filepath.Join(dir, "pages-*.pack"))
	if len(packs) != 1 || filepath.Base(packs[0]) != "pages-2.pack" {
		t.Fatalf("packs after compaction: %v, want pages-2.pack alone", packs)
	}
	if st, _ := os.Stat(packs[0]); st.Size() != int64(len("kept")) {
		t.Errorf("the compacted pack has %d bytes, want %d", st.Size(), len("kept"))
	}
	if got := storeRound(t, opt, []string{"keep", "1"}, nil, false); got["keep"] != "kept" || got["1"] != "" {
		t.Errorf("after compaction: %v", got)
	}
}
