package site_test

import (
	"context"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/gen"
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
}
