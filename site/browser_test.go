package site_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/search"
	"github.com/engramhq/engram/site"
	"github.com/engramhq/engram/site/browsertest"
)

// serveSite serves a built site with the headers of HeaderRules, as
// Netlify sends them from the output's _headers; the server stops when
// the test ends.
func serveSite(t *testing.T, out string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(site.Handler(out, ""))
	t.Cleanup(srv.Close)
	return srv
}

// TestBrowserDemo builds the demo memory repository, serves it with the
// production headers, and loads each kind of page in headless chromium:
// the page must show its parts, log no console error and break no CSP rule.
func TestBrowserDemo(t *testing.T) {
	bin := browsertest.Chromium(t)
	out := filepath.Join(t.TempDir(), "public")
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: filepath.Join("..", "content"), Out: out, Now: &now, BaseURL: "/"}); err != nil {
		t.Fatal(err)
	}
	srv := serveSite(t, out)
	ctx := browsertest.New(t, bin)

	problems := browsertest.Watch(t, ctx)

	for _, tc := range []struct {
		path  string
		parts []string // CSS selectors that must be present
		text  string   // text the page must show
	}{
		{"/", []string{"#counts", "#warnings", "#recent", "#health", "section.health a[href$='health.json']", "table a[href*='/episodes/']"}, "Acme Payments agent memory"},
		{"/episodes/", []string{"table tbody tr", ".badge.failure"}, "newest first"},
		{"/episodes/episode-2026-08-26-session-09/", []string{"#context", "#observations", "#decisions", "#timeline", "#lessons", "#relations", "#backlinks", "#source", ".missing", "link[rel=alternate][type='application/json']"}, "Switch ledger reads"},
		{"/patterns/", []string{"table tbody tr.anti"}, "Wilson lower bound"},
		{"/patterns/pattern-feature-flag-risky-changes/", []string{"#rule", "#observations", "#stats", "#evidence", "#edges"}, "Declared"},
		{"/patterns/antipattern-big-bang-change/", []string{".banner"}, "Antipattern."},
		{"/notes/", []string{"main ul li a"}, "Notes"},
		{"/workflows/", []string{"table.workflows tbody tr a[href*='/workflows/refund-service-deploy/']", "nav a[aria-current=page][href$='/workflows/']"}, "most recently active first"},
		{"/workflows/refund-service-deploy/", []string{"#summary", "#counts", "ol.timeline li .badge.partial", "#summary + dl time[datetime][title]", "ol.timeline li time[datetime][title]", "link[rel=alternate][type='application/json']"}, "75%"},
		// The static search: the script fetches the shards the query needs.
		{"/search/?q=idempotency+keys", []string{"form[role=search] input[name=q]", "ol.results li a[href*='idempotency']"}, "best matches for"},
		{"/search/?q=the+of+and", []string{"#search-results p[role=status]"}, "Nothing to search for"},
		{"/search/?q=" + url.QueryEscape(`+-&|!(){}[]^"~*?:\/`), []string{"#search-results p[role=status]"}, "Nothing to search for"},
		{"/search/?q=" + url.QueryEscape(strings.Repeat("idempotency keys ", 600)), []string{"ol.results li a"}, "best matches for"},
		{"/search/?q=" + url.QueryEscape("支付 فشل"), []string{"#search-results p[role=status]"}, "No matches for"},
		{"/episodes/", []string{"header form[role=search] input[name=q]"}, "Episodes"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			problems.Take()
			actions := []chromedp.Action[chromedp.Void]{chromedp.Navigate(srv.URL + tc.path)}
			for _, sel := range tc.parts {
				actions = append(actions, chromedp.WaitReady(chromedp.CSS(sel)))
			}
			tctx, cancel := context.WithCancel(ctx)
			defer cancel()
			if err := chromedp.Do(tctx, actions...); err != nil {
				t.Fatalf("load %s: %v (missing one of %v?)", tc.path, err, tc.parts)
			}
			body, err := chromedp.Run(tctx, chromedp.Text(chromedp.CSS("body")))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(body, tc.text) {
				t.Errorf("%s does not show %q", tc.path, tc.text)
			}
			if p := problems.Take(); len(p) > 0 {
				t.Errorf("%s: %v", tc.path, p)
			}
		})
	}
	t.Run("the script analyses text as the index does", func(t *testing.T) {
		texts := searchTexts(t, out)
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/search/")); err != nil {
			t.Fatal(err)
		}
		stop, err := json.Marshal(stopWords(t, out))
		if err != nil {
			t.Fatal(err)
		}
		in, _ := json.Marshal(texts)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](`(function(texts, stop){ var m = new Set(stop); return texts.map(function(t){ return window.engramSearch.analyze(t, m); }); })(`+string(in)+`, `+string(stop)+`)`))
		if err != nil {
			t.Fatal(err)
		}
		diff := 0
		for i, text := range texts {
			want := search.Analyze(text)
			if !slices.Equal(got[i], want) && diff < 10 {
				diff++
				t.Errorf("%q:\n script %q\n  index %q", text, got[i], want)
			}
		}
		t.Logf("%d texts compared", len(texts))
	})
	if path := os.Getenv("ENGRAM_SCREENSHOT"); path != "" {
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/patterns/pattern-feature-flag-risky-changes/")); err == nil {
			if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(90)); err == nil {
				_ = os.WriteFile(path, png, 0o644)
			}
		}
	}
}

// searchTexts are texts to analyse both ways: every line of every JSON
// document of the demo, and text that tests the tokenizer's edges.
func searchTexts(t *testing.T, out string) []string {
	t.Helper()
	texts := []string{
		"Running the tests before committing!", "ledger's CloseDay reads time.Now", "It’s the partner’S API",
		"v1.2.3 and 3.14 and 1,000,000 items", "e-mail foo_bar @handle #tag", "支付失败 されます カタカナ テスト",
		"فشل الدفع", "Привет мир", "naïve café résumé", "ประเทศไทย", "emoji 🎉 ok", "generalizations happily",
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if len(x) > 2 && len(texts) < 3000 {
				texts = append(texts, x)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, dir := range []string{"episodes", "patterns"} {
		entries, err := os.ReadDir(filepath.Join(out, "api", "v1", dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(out, "api", "v1", dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatal(err)
			}
			walk(v)
		}
	}
	slices.Sort(texts)
	return slices.Compact(texts)
}

func stopWords(t *testing.T, out string) []string {
	t.Helper()
	var meta struct {
		StopWords []string `json:"stop_words"`
	}
	data, err := os.ReadFile(filepath.Join(out, "api", "v1", "search", "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		t.Fatal(err)
	}
	return meta.StopWords
}
