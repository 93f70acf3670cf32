package site_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/site"
)

// TestBatchesRenderAsOneSite: the regular pages rendered in batches, each
// its own Hugo site, and the list pages in one more over stubs, write the
// same files, byte for byte, as one Hugo site of every page: the lists,
// their order, the sitemap, the feed, _redirects and the relative links.
// With one page a batch, every page is in a site of its own; with a page
// store, the second render writes the pages it kept.
func TestBatchesRenderAsOneSite(t *testing.T) {
	generated := t.TempDir()
	if err := source.WriteRepo(generated, gen.Generate(gen.Sized(150)).Commits); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, repo, base string
		batch            int
		store            bool
	}{
		{"demo, a page a batch", filepath.Join("..", "content"), "https://example.org/memory/", 1, false},
		{"demo, relative links, a page a batch", filepath.Join("..", "content"), "", 1, false},
		{"demo, one batch, with a store", filepath.Join("..", "content"), "", 0, true},
		{"generated, 7 pages a batch", generated, "https://example.org/", 7, false},
		{"generated, relative links, 40 pages a batch, with a store", generated, "", 40, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, api := loadSite(t, tc.repo, tc.base)
			want := filepath.Join(t.TempDir(), "one")
			if err := site.RenderOneSite(context.Background(), s, want, api); err != nil {
				t.Fatal(err)
			}
			if tc.batch > 0 {
				defer site.SetBatchSize(tc.batch)()
			}
			opt := site.Options{API: api}
			if tc.store {
				opt.Pages = &mapStore{m: map[site.PageKey][]byte{}}
				if _, err := site.Render(context.Background(), s, filepath.Join(t.TempDir(), "cold"), opt); err != nil {
					t.Fatal(err)
				}
			}
			got := filepath.Join(t.TempDir(), "batches")
			r, err := site.Render(context.Background(), s, got, opt)
			if err != nil {
				t.Fatal(err)
			}
			if tc.store && len(r.Reused) == 0 {
				t.Error("the second render reused no page")
			}
			sameTree(t, want, got)
		})
	}
}

// loadSite is the export documents of the repository repo, and the
// paths of their API files (the static search index's among them, which
// the search page names as its twin).
func loadSite(t *testing.T, repo, base string) (*export.Site, []string) {
	t.Helper()
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	in, err := indexer.Load(context.Background(), indexer.Options{Repo: repo, Now: &now, BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	s := export.Documents(in.Export)
	files, err := s.Files()
	if err != nil {
		t.Fatal(err)
	}
	return s, append(export.Paths(files), "api/v1/search/meta.json")
}

// mapStore is a page store in memory.
type mapStore struct {
	mu sync.Mutex
	m  map[site.PageKey][]byte
}

func (s *mapStore) Get(k site.PageKey) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[k]
	return b, ok
}

func (s *mapStore) Put(k site.PageKey, page []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = bytes.Clone(page)
	return nil
}

// sameTree fails unless the trees want and got hold the same files with
// the same bytes.
func sameTree(t *testing.T, want, got string) {
	t.Helper()
	w, g := treeFiles(t, want), treeFiles(t, got)
	for _, p := range slices.Sorted(maps.Keys(w)) {
		gb, ok := g[p]
		switch {
		case !ok:
			t.Errorf("%s is missing", p)
		case !bytes.Equal(w[p], gb):
			t.Errorf("%s differs:\nwant %s\ngot  %s", p, w[p], gb)
		}
	}
	for p := range g {
		if _, ok := w[p]; !ok {
			t.Errorf("%s was not written by one site", p)
		}
	}
	if len(w) < 20 {
		t.Errorf("only %d files: the comparison compares nothing", len(w))
	}
}

// treeFiles are the files under dir by slash-separated path.
func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestBatchesStopWhenCancelled: a render whose context ends renders no
// further batch, nor the list site. The store ends the context as the
// first page is kept, with a page a batch.
func TestBatchesStopWhenCancelled(t *testing.T) {
	s, api := loadSite(t, filepath.Join("..", "content"), "")
	defer site.SetBatchSize(1)()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := &cancelStore{mapStore: mapStore{m: map[site.PageKey][]byte{}}, cancel: cancel}
	out := filepath.Join(t.TempDir(), "public")
	_, err := site.Render(ctx, s, out, site.Options{API: api, Pages: store})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Render() = %v, want context.Canceled", err)
	}
	if len(store.m) != 1 {
		t.Errorf("%d pages rendered, want the first only", len(store.m))
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the home page was rendered after the context ended: %v", err)
	}
}

// cancelStore ends the render's context as it keeps a page.
type cancelStore struct {
	mapStore
	cancel context.CancelFunc
}

func (s *cancelStore) Put(k site.PageKey, page []byte) error {
	defer s.cancel()
	return s.mapStore.Put(k, page)
}
