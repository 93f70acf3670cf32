package site_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/net/html"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/site"
	"github.com/engramhq/engram/site/browsertest"
)

// relativePages are pages of the demo of every kind that links much.
var relativePages = []string{"index.html", "episodes/index.html", "episodes/episode-2026-08-26-session-09/index.html",
	"patterns/index.html", "patterns/pattern-feature-flag-risky-changes/index.html", "graph/index.html", "tags/index.html",
	"timeline/index.html", "search/index.html", "lessons/index.html", "notes/index.html", "decisions/index.html",
	"candidates/index.html"}

// buildRelative builds the demo without a base URL, as the README's
// first command does.
func buildRelative(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "public")
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: filepath.Join("..", "content"), Out: out, Now: &now}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBrowserFromDisk opens the demo, built without a base URL, from
// file:// in headless chromium, as someone who opens public/index.html
// does: every page is styled, every link the browser resolves names a
// file of the output (not a folder, which a browser lists from disk), and
// following the navigation opens the page it names.
func TestBrowserFromDisk(t *testing.T) {
	bin := browsertest.Chromium(t)
	out := buildRelative(t)
	ctx := browsertest.New(t, bin, chromedp.Flag("allow-file-access-from-files", false))
	root := (&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/"}).String()
	for _, p := range relativePages {
		t.Run(p, func(t *testing.T) {
			if err := chromedp.Do(ctx, chromedp.Navigate(root+p), chromedp.WaitReady(chromedp.CSS("footer.site"))); err != nil {
				t.Fatal(err)
			}
			// engram.css sets main's width: unstyled, it would be "none".
			width, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector("main")).maxWidth`))
			if err != nil || width == "none" || width == "" {
				t.Errorf("%s is not styled: main's max-width %q (%v)", p, width, err)
			}
			links, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("a[href], link[href], script[src], img[src], form[action]")).map(function (e) { return new URL(e.getAttribute("href") || e.getAttribute("src") || e.getAttribute("action"), location.href).href; })`))
			if err != nil {
				t.Fatal(err)
			}
			if len(links) < 20 {
				t.Fatalf("%s has %d links", p, len(links))
			}
			for _, l := range links {
				u, err := url.Parse(l)
				if err != nil {
					t.Errorf("%s: link %q: %v", p, l, err)
					continue
				}
				switch u.Scheme {
				case "http", "https", "mailto":
					continue // outside the site
				case "file":
				default:
					t.Errorf("%s links %q", p, l)
					continue
				}
				if !strings.HasPrefix(u.Path, filepath.ToSlash(out)+"/") {
					t.Errorf("%s links %s, outside the site", p, u.Path)
					continue
				}
				if fi, err := os.Stat(filepath.FromSlash(u.Path)); err != nil || fi.IsDir() {
					t.Errorf("%s links %s: not a file of the site (%v)", p, l, err)
				}
			}
		})
	}
	// Follow the navigation from an episode page to the patterns, and
	// from there to the home page.
	if err := chromedp.Do(ctx, chromedp.Navigate(root+"episodes/episode-2026-08-26-session-09/index.html"),
		chromedp.Click(chromedp.CSS(`header.site nav a[href$="patterns/index.html"]`)), chromedp.WaitReady(chromedp.CSS("table tbody tr.anti")),
		chromedp.Click(chromedp.CSS(`header.site a.brand`)), chromedp.WaitReady(chromedp.CSS("#counts"))); err != nil {
		t.Fatalf("following the navigation from disk: %v", err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil || loc != root+"index.html" {
		t.Errorf("the home link opened %q (%v), want %s", loc, err, root+"index.html")
	}
}

// TestSubpath serves the same output (built without a base URL) under
// /memory/, as GitHub serves a project's pages: every page reachable
// from the home page is fetched, and every link and asset of each names
// a page under /memory/ that answers 200. In chromium, the search, the
// graph explorer and the episodes filter, which build links from the
// JSON, link under /memory/ too.
func TestSubpath(t *testing.T) {
	out := buildRelative(t)
	mux := http.NewServeMux()
	mux.Handle("/memory/", site.Handler(out, "/memory"))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	start := srv.URL + "/memory/"

	crawlSite(t, start)
	// A page's twin at index.json is its API file, served by the rewrite
	// of _redirects, as Netlify serves it.
	res, err := http.Get(start + "episodes/episode-2026-08-26-session-09/index.json")
	if err != nil {
		t.Fatal(err)
	}
	twin, _ := io.ReadAll(res.Body)
	res.Body.Close()
	api, err := os.ReadFile(filepath.Join(out, "api", "v1", "episodes", "episode-2026-08-26-session-09.json"))
	if err != nil || res.StatusCode != http.StatusOK || string(twin) != string(api) || res.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("the twin at index.json: %s %q, want the API file's %d bytes as JSON (%v)", res.Status, res.Header.Get("Content-Type"), len(api), err)
	}

	bin := browsertest.Chromium(t)
	ctx := browsertest.New(t, bin)
	problems := browsertest.Watch(t, ctx)
	for _, tc := range []struct{ path, sel string }{
		{"search/?q=idempotency", "ol.results li a"},
		{"episodes/", "#episode-filter"},
	} {
		if err := chromedp.Do(ctx, chromedp.Navigate(start+tc.path), chromedp.WaitReady(chromedp.CSS(tc.sel))); err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
	}
	// The filter lists the episodes from the page's JSON twin.
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#episode-filter")), chromedp.SetValue(chromedp.CSS("#episode-filter select"), "failure"),
		chromedp.Click(chromedp.CSS(`#episode-filter button[type="submit"]`)), chromedp.WaitReady(chromedp.CSS("#filter-results table tbody tr a"))); err != nil {
		t.Fatalf("filter: %v", err)
	}
	filtered, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#filter-results a")).map(function (a) { return a.href; })`))
	if err != nil || len(filtered) == 0 {
		t.Fatalf("filter results %v, %v", filtered, err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(start+"search/?q=idempotency"), chromedp.WaitReady(chromedp.CSS("ol.results li a"))); err != nil {
		t.Fatal(err)
	}
	found, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("ol.results a")).map(function (a) { return a.href; })`))
	if err != nil || len(found) == 0 {
		t.Fatalf("search results %v, %v", found, err)
	}
	for _, l := range append(found, filtered...) {
		if !strings.HasPrefix(l, start) {
			t.Errorf("a link made from the JSON goes to %s, outside %s", l, start)
			continue
		}
		if res, err := http.Get(l); err != nil || res.StatusCode != http.StatusOK {
			t.Errorf("a link made from the JSON, %s: %v %v", l, err, res.Status)
		} else {
			res.Body.Close()
		}
	}
	if p := problems.Take(); len(p) > 0 {
		t.Errorf("problems in the browser: %v", p)
	}
}

// TestNotFoundAtDepth: a site built without a base URL, served at a
// host's root, answers a deep missing path with its 404 page (as Netlify
// serves 404.html there), and in chromium that page is styled and every
// link and asset of it answers 200: its links are from the site's root,
// not relative to a page it is not at.
func TestNotFoundAtDepth(t *testing.T) {
	out := builtSites(t)["demo"] // without a base URL, as buildRelative's
	srv := httptest.NewServer(site.Handler(out, ""))
	t.Cleanup(srv.Close)
	bin := browsertest.Chromium(t)
	ctx := browsertest.New(t, bin)
	for _, p := range []string{"/nope", "/episodes/x/y/z/", "/" + strings.Repeat("deep/", 50)} {
		t.Run(p[:min(len(p), 20)], func(t *testing.T) {
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+p), chromedp.WaitReady(chromedp.CSS("footer.site"))); err != nil {
				t.Fatal(err)
			}
			// engram.css sets main's width: unstyled, it would be "none".
			width, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("h1").textContent + " " + getComputedStyle(document.querySelector("main")).maxWidth`))
			if err != nil || !strings.HasPrefix(width, "Not found ") || strings.HasSuffix(width, " none") {
				t.Errorf("%s: the 404 page is not styled: %q (%v)", p, width, err)
			}
			links, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("a[href]:not([href^='#']), link[href], script[src]")).map(function (e) { return new URL(e.getAttribute("href") || e.getAttribute("src"), location.href).href; })`))
			if err != nil || len(links) < 5 {
				t.Fatalf("%s: links %v (%v)", p, links, err)
			}
			for _, l := range links {
				res, err := http.Get(l)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					t.Errorf("%s: the 404 page links %s, which answers %s", p, l, res.Status)
				}
			}
		})
	}
}

// crawlSite fetches every page reachable from start, the site's root,
// and checks that each link and asset of each names a page under start
// that answers 200.
func crawlSite(t *testing.T, start string) {
	t.Helper()
	root, _ := url.Parse(start)
	seen := map[string]bool{start: true}
	queue := []string{start}
	pages, checked := 0, 0
	for len(queue) > 0 {
		page := queue[0]
		queue = queue[1:]
		res, err := http.Get(page)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %s", page, res.Status)
			continue
		}
		if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			continue
		}
		pages++
		base, _ := url.Parse(page)
		for _, l := range pageLinks(t, body) {
			u, err := base.Parse(l)
			if err != nil {
				t.Errorf("%s: link %q: %v", page, l, err)
				continue
			}
			if u.Host != base.Host {
				continue
			}
			u.Fragment, u.RawQuery = "", ""
			if !strings.HasPrefix(u.Path, root.Path) {
				t.Errorf("%s links %s, outside %s", page, u.Path, root.Path)
				continue
			}
			if s := u.String(); !seen[s] {
				seen[s] = true
				checked++
				queue = append(queue, s)
			}
		}
	}
	if pages < 100 {
		t.Errorf("only %d pages reached from %s", pages, start)
	}
	t.Logf("%d pages, %d distinct links under %s", pages, checked, root.Path)

}

// TestProjectPages builds the demo with a base URL that has a path, as a
// GitHub project site has (https://owner.github.io/REPO/), serves it
// there, and crawls it: every link stays under the path and answers.
func TestProjectPages(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	mux := http.NewServeMux()
	mux.Handle("/REPO/", site.Handler(out, "/REPO"))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: filepath.Join("..", "content"), Out: out, Now: &now, BaseURL: srv.URL + "/REPO/"}); err != nil {
		t.Fatal(err)
	}
	crawlSite(t, srv.URL+"/REPO/")
}

// pageLinks are the links and assets of an HTML page: href, src, action
// and the engram-api meta's content.
func pageLinks(t *testing.T, page []byte) []string {
	t.Helper()
	var links []string
	z := html.NewTokenizer(strings.NewReader(string(page)))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return links
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			for _, a := range tok.Attr {
				switch {
				case a.Key == "href" || a.Key == "src" || a.Key == "action" || a.Key == "data-src":
					links = append(links, a.Val)
				case a.Key == "content" && tok.Data == "meta" && strings.Contains(a.Val, "api/v1/"):
					links = append(links, a.Val+"index.json")
				}
			}
		}
	}
}
