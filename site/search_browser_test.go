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

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/search/searchtest"
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
		// A result leads with its note's headline; its id follows.
		first, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(function(){
			var li = document.querySelector('ol.results li'), id = li.querySelector('.id');
			return [li.querySelector('a').textContent, id ? id.textContent : ''];
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if first[1] != n.Title || first[0] == "" || first[0] == n.Title {
			t.Errorf("query %q: first hit %q (id %q), want %s, led by its headline", n.Word, first[0], first[1], n.Title)
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
	var queries []string
	for i := 0; i < len(notes); i += len(notes) / 12 {
		if notes[i].Task != "" { // an episode
			queries = append(queries, notes[i].Task, notes[i].Word+" "+notes[i].Task)
		}
	}
	tiered, inexact := compareSearches(t, ctx, fetch, queries)
	if tiered == 0 {
		t.Error("no query read a later tier of postings: the test does not hold the script's tiers")
	}
	// Again with a budget (meta.json's) that long queries run out of;
	// a new page, without the browser's cache, so that the script reads
	// the new meta.json.
	metaPath := filepath.Join(out, "api", "v1", "search", "meta.json")
	data, err := os.ReadFile(metaPath)
	if err != nil {
		t.Fatal(err)
	}
	var meta map[string]any
	if err := json.Unmarshal(data, &meta); err != nil {
		t.Fatal(err)
	}
	meta["tier_budget"] = meta["first_tier"]
	if data, err = json.Marshal(meta); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(metaPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.ClearBrowserCache, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/search/")); err != nil {
		t.Fatal(err)
	}
	_, inexactSmall := compareSearches(t, ctx, fetch, queries)
	if inexactSmall == 0 {
		t.Error("with a small budget, every query was exact: the test does not hold the script's budget")
	}
	t.Logf("%d of %d queries read a later tier; %d, then %d with a small budget, stopped at the budget", tiered, len(queries), inexact, inexactSmall)
}

// compareSearches runs each query in the page's script and in
// search.StaticSearch, which must give the same hits with the same
// scores. It returns how many queries read a later tier, and how many
// stopped at the budget.
func compareSearches(t *testing.T, ctx context.Context, fetch searchtest.StaticFetch, queries []string) (tiered, inexact int) {
	t.Helper()
	for _, q := range queries {
		res, err := searchtest.StaticSearch(fetch, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(res.Read, func(p string) bool { return strings.Contains(p, "-") }) {
			tiered++
		}
		if !res.Exact {
			inexact++
		}
		js, _ := json.Marshal(q)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]scriptHit](`window.engramSearch.search(`+string(js)+`, 10).then(function (r) { return r.hits; })`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(res.Hits) {
			t.Fatalf("%q: the script has %d hits, StaticSearch %d", q, len(got), len(res.Hits))
		}
		for k, want := range res.Hits {
			if got[k].ID != want.ID || math.Abs(got[k].Score-want.Score) > 1e-9 {
				t.Errorf("%q: hit %d: the script has %s (%g), StaticSearch %s (%g)", q, k, got[k].ID, got[k].Score, want.ID, want.Score)
			}
		}
	}
	return tiered, inexact
}

type scriptHit struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}
