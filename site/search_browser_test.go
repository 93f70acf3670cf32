package site_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/search"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/site/browsertest"
)

// TestBrowserSearchPlantedWords: on a generated repository no other test
// uses, the site's static search, in headless chromium, shows the note
// that holds a planted unique word as its first hit.
func TestBrowserSearchPlantedWords(t *testing.T) {
	bin := browsertest.Chromium(t)
	o := gen.Sized(400)
	o.Seed = 55
	corpus := gen.Generate(o)
	repo := t.TempDir()
	if err := source.WriteRepo(repo, corpus.Commits); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, BaseURL: "/"}); err != nil {
		t.Fatal(err)
	}
	srv := serveSite(t, out)
	ctx := browsertest.New(t, bin)

	notes := append(corpus.Episodes(), corpus.Patterns()...)
	for i := 0; i < len(notes); i += len(notes) / 8 {
		n := notes[i]
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/search/?q="+url.QueryEscape(n.Word)),
			chromedp.WaitReady(chromedp.CSS("ol.results li a"))); err != nil {
			t.Fatalf("%s: no results for %q: %v", n.Title, n.Word, err)
		}
		first, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("ol.results li a")))
		if err != nil {
			t.Fatal(err)
		}
		if first != n.Title {
			t.Errorf("query %q: first hit %q, want %q", n.Word, first, n.Title)
		}
	}

	// The script ranks as search.StaticSearch, the reference, does, and
	// reads the same later tiers: tasks are long queries of words that
	// are in most notes.
	fetch := func(p string) ([]byte, error) {
		data, err := os.ReadFile(filepath.Join(out, "api", "v1", "search", filepath.FromSlash(p)))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return data, err
	}
	tiered := 0
	for i := 0; i < len(notes); i += len(notes) / 12 {
		for _, q := range []string{notes[i].Task, notes[i].Word + " " + notes[i].Task} {
			want, read, err := search.StaticSearch(fetch, q, 10)
			if err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(read, func(p string) bool { return strings.Contains(p, "-") }) {
				tiered++
			}
			js, _ := json.Marshal(q)
			got, err := chromedp.Run(ctx, chromedp.Evaluate[[]scriptHit](`window.engramSearch.search(`+string(js)+`, 10).then(function (r) { return r.hits; })`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%q: the script has %d hits, StaticSearch %d", q, len(got), len(want))
			}
			for k := range want {
				if got[k].ID != want[k].ID || math.Abs(got[k].Score-want[k].Score) > 1e-9 {
					t.Errorf("%q: hit %d: the script has %s (%g), StaticSearch %s (%g)", q, k, got[k].ID, got[k].Score, want[k].ID, want[k].Score)
				}
			}
		}
	}
	if tiered == 0 {
		t.Error("no query read a later tier of postings: the test does not hold the script's tiers")
	}
	t.Logf("%d queries read a later tier", tiered)
}

type scriptHit struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}
