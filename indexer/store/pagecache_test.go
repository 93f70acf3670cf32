package store

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engramhq/engram/site"
)

func key(s string) site.PageKey { return site.PageKey(sha256.Sum256([]byte(s))) }

// storeRound opens the store, gets the keys in get (reporting which were
// found), puts the pages in put, and commits unless abort.
func storeRound(t *testing.T, opt testRepo, get []string, put map[string]string, abort bool) map[string]string {
	t.Helper()
	found, _ := storeReuse(t, opt, get, put, abort)
	return found
}

// storeReuse is storeRound that also returns what the commit reported.
func storeReuse(t *testing.T, opt testRepo, get []string, put map[string]string, abort bool) (map[string]string, PageReuse) {
	t.Helper()
	s, err := OpenPages(opt.Repo, opt.CacheDir)
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
		s.Abort()
		return found, PageReuse{}
	}
	r, err := s.Commit()
	if err != nil {
		t.Fatal(err)
	}
	return found, r
}

// TestPageStore: a page kept by a committed build is found by the next; a
// page kept by a build that did not commit (killed, failed) is not, and
// the pages before it still are; a page whose bytes were damaged is not
// found; a page the last build did not use is dropped.
func TestPageStore(t *testing.T) {
	opt := testRepo{Repo: t.TempDir(), CacheDir: t.TempDir()}
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
	dir, _ := PagesDir(opt.Repo, opt.CacheDir)
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
	opt := testRepo{Repo: t.TempDir(), CacheDir: t.TempDir()}
	storeRound(t, opt, nil, map[string]string{"a": "A"}, false)
	dir, _ := PagesDir(opt.Repo, opt.CacheDir)
	for _, bad := range []string{"", "not an index", pagesMagic + "../../etc/passwd\n", pagesMagic + "pages-1.pack\nshort"} {
		if err := os.WriteFile(filepath.Join(dir, pagesIndex), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := storeRound(t, opt, []string{"a"}, map[string]string{"a": "A"}, false); len(got) != 0 {
			t.Errorf("index %q: found %v", bad, got)
		}
	}
	held, err := OpenPages(opt.Repo, opt.CacheDir)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Abort()
	if _, err := OpenPages(opt.Repo, opt.CacheDir); err == nil || !strings.Contains(err.Error(), "in use by another build") {
		t.Errorf("a store in use: %v", err)
	}
}

// TestPageStoreCompacts: once most of the pack is pages no build uses, it
// is rewritten with the used ones, which are still found; the old pack is
// removed.
func TestPageStoreCompacts(t *testing.T) {
	opt := testRepo{Repo: t.TempDir(), CacheDir: t.TempDir()}
	big := strings.Repeat("x", compactAbove/4)
	storeRound(t, opt, nil, map[string]string{"1": big + "1", "2": big + "2", "3": big + "3", "4": big + "4", "keep": "kept"}, false)
	storeRound(t, opt, []string{"keep"}, nil, false)
	dir, _ := PagesDir(opt.Repo, opt.CacheDir)
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

// storeBytes is every byte of every file in the page store.
func storeBytes(t *testing.T, opt testRepo) []byte {
	t.Helper()
	dir, _ := PagesDir(opt.Repo, opt.CacheDir)
	var all []byte
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		all = append(all, data...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestPageStoreHoldsOnlyPublished: the bytes of a page are gone from the
// store's files when a build ends without naming it, whatever the way it
// ends (SPEC §6, "Caches hold only what was published"): a page a build
// rendered and then was refused, failed or killed; a page the last
// published build no longer used (its note changed, turned private, was
// deleted). The pages that build still names are served.
func TestPageStoreHoldsOnlyPublished(t *testing.T) {
	for _, c := range []struct {
		name string
		// end ends the second build, which reuses "a" and renders
		// "new"; gone and served are checked after it.
		end    func(s *PageStore)
		gone   []string
		served []string
	}{
		{"published, b not used", func(s *PageStore) { s.Commit() }, []string{"<p>b</p>"}, []string{"a", "new"}},
		{"refused by the output scan", func(s *PageStore) { s.Refuse() }, []string{"<p>b</p>", "<p>new</p>"}, []string{"a"}},
		{"failed or interrupted", func(s *PageStore) { s.Abort() }, []string{"<p>new</p>"}, []string{"a", "b"}},
		// Killed: the process dies holding the store; the next open
		// clears what it left before anything else.
		{"killed", func(s *PageStore) { s.close() }, []string{"<p>new</p>"}, []string{"a", "b"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			opt := testRepo{Repo: t.TempDir(), CacheDir: t.TempDir()}
			storeRound(t, opt, nil, map[string]string{"a": "<p>a</p>", "b": "<p>b</p>"}, false)
			s, err := OpenPages(opt.Repo, opt.CacheDir)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := s.Get(key("a")); !ok {
				t.Fatal("a is not served")
			}
			if err := s.Put(key("new"), []byte("<p>new</p>")); err != nil {
				t.Fatal(err)
			}
			c.end(s)
			if c.name == "killed" {
				// What the next build finds once it has the store.
				next, err := OpenPages(opt.Repo, opt.CacheDir)
				if err != nil {
					t.Fatal(err)
				}
				defer next.Abort()
			}
			all := storeBytes(t, opt)
			for _, g := range c.gone {
				if bytes.Contains(all, []byte(g)) {
					t.Errorf("%s is still in the store's files", g)
				}
			}
			if c.name == "killed" {
				return
			}
			got := storeRound(t, opt, c.served, nil, true)
			for _, k := range c.served {
				if got[k] != "<p>"+k+"</p>" {
					t.Errorf("%s is not served after the build: %v", k, got)
				}
			}
		})
	}
}

// TestPageStoreClearsLeftovers: opening the store removes a pack its index
// does not name (a killed compaction's, or an older one's), and an index
// engram cannot read takes its pack with it.
func TestPageStoreClearsLeftovers(t *testing.T) {
	opt := testRepo{Repo: t.TempDir(), CacheDir: t.TempDir()}
	storeRound(t, opt, nil, map[string]string{"a": "<p>a</p>"}, false)
	dir, _ := PagesDir(opt.Repo, opt.CacheDir)
	if err := os.WriteFile(filepath.Join(dir, "pages-7.pack"), []byte("<p>stray</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := storeRound(t, opt, []string{"a"}, nil, true); got["a"] != "<p>a</p>" {
		t.Fatalf("a is not served: %v", got)
	}
	if bytes.Contains(storeBytes(t, opt), []byte("<p>stray</p>")) {
		t.Error("a pack the index does not name is still there")
	}
	if err := os.WriteFile(filepath.Join(dir, pagesIndex), []byte("engram pages 0\nsomething else"), 0o644); err != nil {
		t.Fatal(err)
	}
	storeRound(t, opt, nil, nil, true)
	if bytes.Contains(storeBytes(t, opt), []byte("<p>a</p>")) {
		t.Error("the pack of an index engram cannot read is still there")
	}
}

// TestPageStoreSaysWhy: a store that cannot be trusted is never served
// from, and the build is told why (issue 30): an index that is damaged,
// cut short or of another engram is a Reset, and pages whose bytes fail
// their SHA-256 (flipped, or the pack cut short) are counted as Damaged.
func TestPageStoreSaysWhy(t *testing.T) {
	open := func(t *testing.T, opt testRepo) (PageReuse, map[string]string) {
		t.Helper()
		found, r := storeReuse(t, opt, []string{"a", "b"}, nil, false)
		return r, found
	}
	fresh := func(t *testing.T) (testRepo, string) {
		opt := testRepo{Repo: t.TempDir(), CacheDir: t.TempDir()}
		storeRound(t, opt, nil, map[string]string{"a": "page A", "b": "page B"}, false)
		dir, _ := PagesDir(opt.Repo, opt.CacheDir)
		return opt, dir
	}
	t.Run("a good store", func(t *testing.T) {
		opt, _ := fresh(t)
		r, found := open(t, opt)
		if r.Reset != nil || r.Damaged != 0 || len(found) != 2 {
			t.Errorf("reset %v, damaged %d, found %v", r.Reset, r.Damaged, found)
		}
	})
	for name, index := range map[string]string{
		"another engram's index": "engram pages 1\npages-1.pack\n",
		"a foreign file":         "{\"not\": \"an index\"}",
		"an index cut short":     pagesMagic + "pages-1.pack\n" + strings.Repeat("x", entryLength-1),
	} {
		t.Run(name, func(t *testing.T) {
			opt, dir := fresh(t)
			if err := os.WriteFile(filepath.Join(dir, pagesIndex), []byte(index), 0o644); err != nil {
				t.Fatal(err)
			}
			r, found := open(t, opt)
			if r.Reset == nil || len(found) != 0 {
				t.Errorf("reset %v, found %v", r.Reset, found)
			}
		})
	}
	t.Run("a flipped byte", func(t *testing.T) {
		opt, dir := fresh(t)
		pack := filepath.Join(dir, "pages-1.pack")
		data, err := os.ReadFile(pack)
		if err != nil {
			t.Fatal(err)
		}
		data[bytes.Index(data, []byte("page B"))] ^= 1
		if err := os.WriteFile(pack, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, found := open(t, opt)
		if r.Reset != nil || r.Damaged != 1 || found["a"] != "page A" || found["b"] != "" {
			t.Errorf("reset %v, damaged %d, found %v", r.Reset, r.Damaged, found)
		}
	})
	t.Run("a pack cut short", func(t *testing.T) {
		opt, dir := fresh(t)
		if err := os.Truncate(filepath.Join(dir, "pages-1.pack"), 3); err != nil {
			t.Fatal(err)
		}
		r, found := open(t, opt)
		if r.Damaged != 2 || len(found) != 0 {
			t.Errorf("damaged %d, found %v", r.Damaged, found)
		}
	})
}

// TestPageStoreFullDisk: when the pack cannot grow (a full disk), the
// published build keeps in the store only the pages it reused; a page of
// the build before that it did not use (a note since turned private) is
// gone from the index and from the pack's bytes, and the store still
// serves the pages it kept.
func TestPageStoreFullDisk(t *testing.T) {
	opt := testRepo{Repo: t.TempDir(), CacheDir: t.TempDir()}
	storeRound(t, opt, nil, map[string]string{"a": "page A", "p": "page P, now private"}, false)
	s, err := OpenPages(opt.Repo, opt.CacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(key("a")); !ok {
		t.Fatal("page a is not in the store")
	}
	s.broken = errors.New("write pages-1.pack: no space left on device")
	if _, err := s.Commit(); err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Errorf("commit after a failed append: %v", err)
	}
	if found := storeRound(t, opt, []string{"a", "p"}, nil, false); found["a"] != "page A" || found["p"] != "" {
		t.Errorf("after the full disk the store serves %v, want page a only", found)
	}
	dir, _ := PagesDir(opt.Repo, opt.CacheDir)
	data, err := os.ReadFile(filepath.Join(dir, "pages-1.pack"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("private")) {
		t.Errorf("the pack still holds the page no build kept: %q", data)
	}
}

// testRepo is where a test's page store goes: the repository and the
// cache directory.
type testRepo struct{ Repo, CacheDir string }
