package browsertest

import (
	"context"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/site"
	"github.com/engramhq/engram/templates"
)

// Corpus is a memory repository for Layout to build: Repo returns its
// folder, or skips the test when it is not here.
type Corpus struct {
	Name string
	Repo func(t *testing.T) string
}

// The widths (a small phone, a common phone, a laptop) and the colour
// schemes every page is checked at.
var (
	widths = []int{320, 390, 1280}
	themes = []string{"light", "dark"}
)

// Layout is issue 33's must-show, for site/layouttest's packages. Each
// corpus is built once, served with the production headers, and each of its pages of every kind
// (pickPages) is loaded in one shared chromium at each width and scheme,
// where
//
//   - the document is no wider than the viewport (browsertest's overflow
//     measure names what sticks out),
//   - axe-core finds no violation,
//   - no text of the site header is cut, clipped or off screen, and every
//     section of its navigation is on screen (headerCutJS);
//   - the outcomes chart's text is legible, its legend and axis of counts
//     in view as it opens, and it says when it scrolls (chartJS);
//
// and each page's HTML file is html-validate clean. It returns the kinds
// of page checked, for CheckCoverage, or nil when a corpus was skipped.
// $ENGRAM_SCREENSHOTS names a folder to keep a screenshot of each.
func Layout(t *testing.T, corpora []Corpus) map[string]bool {
	bin := Chromium(t)
	tools := NPMTools(t, AxeEnv, HTMLValidateEnv)
	axeSrc, err := os.ReadFile(tools[0])
	if err != nil {
		t.Fatal(err)
	}
	ctx := New(t, bin)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	shots := os.Getenv("ENGRAM_SCREENSHOTS")
	checked := map[string]bool{}
	built := 0
	for _, c := range corpora {
		t.Run(c.Name, func(t *testing.T) {
			repo := c.Repo(t)
			built++
			began := time.Now()
			out := filepath.Join(t.TempDir(), "public")
			srv := httptest.NewServer(site.Handler(out, ""))
			defer srv.Close()
			Build(t, repo, out, srv.URL+"/")
			pages := pickPages(t, out)
			t.Logf("built in %v; %d pages", time.Since(began).Round(time.Millisecond), len(pages))
			validate(t, tools[1], out, pages)
			for _, p := range pages {
				checked[p.kind] = true
				t.Run(p.kind, func(t *testing.T) {
					checkPage(t, ctx, srv.URL, p, axeSrc, shotPrefix(shots, c.Name, p.kind))
				})
			}
			t.Logf("checked in %v", time.Since(began).Round(time.Millisecond))
		})
	}
	if built < len(corpora) {
		return nil
	}
	return checked
}

func shotPrefix(dir, corpus, kind string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, corpus+"-"+kind)
}

// PageKinds are the page kinds of templates/layouts: every layout but
// the base and Hugo's defaults (page, section).
func PageKinds(t testing.TB) []string {
	t.Helper()
	layouts, err := fs.ReadDir(templates.FS, "layouts")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range layouts {
		kind, ok := strings.CutSuffix(e.Name(), ".html")
		if !e.IsDir() && ok && kind != "baseof" && kind != "page" && kind != "section" {
			kinds = append(kinds, kind)
		}
	}
	return kinds
}

// CheckCoverage: every page kind (PageKinds) is among the kinds checked.
func CheckCoverage(t *testing.T, checked map[string]bool) {
	t.Helper()
	for _, kind := range PageKinds(t) {
		if !checked[kind] {
			t.Errorf("layouts/%s.html is checked on no corpus: add its kind to pickPages", kind)
		}
	}
}

// Build builds the memory repository repo into out as a deployed site
// is, at a fixed reference time, with baseURL ("/" for one served from
// the root).
func Build(t testing.TB, repo, out, baseURL string) {
	t.Helper()
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, Now: &now, BaseURL: baseURL}); err != nil {
		t.Fatal(err)
	}
}

// validate runs html-validate once over the pages' files.
func validate(t *testing.T, bin, out string, pages []layoutPage) {
	t.Helper()
	var files []string
	for _, p := range pages {
		files = append(files, p.file(out))
	}
	msgs := HTMLValidate(t, bin, files)
	for _, f := range files {
		for _, m := range msgs[f] {
			t.Errorf("%s:%d:%d: html-validate %s: %s (%s)", f, m.Line, m.Column, m.RuleID, m.Message, m.Selector)
		}
	}
}

// checkPage loads p once and checks it at every width and scheme: the
// viewport and the scheme change in place, as when a phone turns, and
// the media queries follow. What is found is reported once per page,
// naming the widths and schemes where it was found.
func checkPage(t *testing.T, ctx context.Context, base string, p layoutPage, axeSrc []byte, shot string) {
	if err := chromedp.Do(ctx, chromedp.Navigate(base+p.path), chromedp.WaitReady(chromedp.CSS(p.ready))); err != nil {
		t.Fatalf("load %s: %v", p.path, err)
	}
	f := &findings{}
	for _, width := range widths {
		for _, theme := range themes {
			where := fmt.Sprintf("%d-%s", width, theme)
			if err := Emulate(ctx, width, theme); err != nil {
				t.Fatal(err)
			}
			checkOverflow(t, ctx, f, width, where)
			checkAxe(t, ctx, f, axeSrc, where)
			checkHeader(t, ctx, f, width, where)
			checkChart(t, ctx, f, where)
			if shot != "" {
				png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
				if err == nil {
					err = os.WriteFile(shot+"-"+where+".png", png, 0o644)
				}
				if err != nil { // a convenience, not a check: a page too tall for one is still checked
					t.Logf("screenshot %s: %v", where, err)
				}
			}
		}
	}
	for _, m := range f.order {
		t.Errorf("%s: %s [%s]", p.path, m, strings.Join(f.where[m], ", "))
	}
}

// findings are the problems found on a page, each once, with where
// (width and scheme) it was found.
type findings struct {
	order []string
	where map[string][]string
}

func (f *findings) add(where, format string, args ...any) {
	m := fmt.Sprintf(format, args...)
	if f.where == nil {
		f.where = map[string][]string{}
	}
	if _, ok := f.where[m]; !ok {
		f.order = append(f.order, m)
	}
	f.where[m] = append(f.where[m], where)
}

func checkOverflow(t *testing.T, ctx context.Context, f *findings, width int, where string) {
	t.Helper()
	ov, err := MeasureOverflow(ctx, width)
	if err != nil {
		t.Fatalf("measure overflow: %v", err)
	}
	if ov.ScrollWidth <= ov.Width {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the document is %d px wide in a %d px viewport", ov.ScrollWidth, ov.Width)
	for _, c := range ov.Culprits {
		fmt.Fprintf(&b, "\n  %s spans to %.0f px", c.Selector, c.Right)
		if c.Line != "" {
			fmt.Fprintf(&b, "; its longest line, %.0f px, is %q in %s", c.LineWidth, c.Line, c.LineIn)
		}
	}
	f.add(where, "%s", b.String())
}

func checkAxe(t *testing.T, ctx context.Context, f *findings, axeSrc []byte, where string) {
	t.Helper()
	vs, err := RunAxe(ctx, axeSrc)
	if err != nil {
		t.Fatalf("axe at %s: %v", where, err)
	}
	for _, v := range vs {
		for _, n := range v.Nodes {
			f.add(where, "axe %s (%s): %s: %s; %s", v.ID, v.Impact, n.Target, v.Help, n.HTML)
		}
	}
}

func checkHeader(t *testing.T, ctx context.Context, f *findings, width int, where string) {
	t.Helper()
	cut, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf("%s(%d)", headerCutJS, width)))
	if err != nil {
		t.Fatalf("measure the header: %v", err)
	}
	for _, c := range cut {
		f.add(where, "header: %s", c)
	}
}

// layoutPage is one page to check: its kind (the layout's name, or 404), its
// path from the site's root, and a selector that is there once it is
// ready (its script, if any, has run).
type layoutPage struct{ kind, path, ready string }

func (p layoutPage) file(out string) string {
	u, _ := url.Parse(p.path)
	rel := strings.TrimPrefix(u.Path, "/")
	if rel == "" || strings.HasSuffix(rel, "/") {
		rel += "index.html"
	}
	return filepath.Join(out, filepath.FromSlash(rel))
}

// sections are the pages of a kind at a fixed path.
var sections = []layoutPage{
	{"home", "/", "main"}, {"episodes", "/episodes/", "main"}, {"patterns", "/patterns/", "main"},
	{"antipatterns", "/antipatterns/", "main"}, {"lessons", "/lessons/", "main"}, {"graph", "/graph/", "canvas"},
	{"tags", "/tags/", "main"}, {"timeline", "/timeline/", "main"}, {"outcomes", "/outcomes/", "main"},
	{"pending", "/pending/", "main"}, {"diagnostics", "/diagnostics/", "main"}, {"notes", "/notes/", "main"},
	{"workflows", "/workflows/", "main"}, {"decisions", "/decisions/", "main"}, {"candidates", "/candidates/", "main"},
	{"404", "/404.html", "main"},
}

// items are the kinds of a page per item of a section: the largest page
// of each is checked, as the one most likely to be too wide.
var items = []struct{ kind, section string }{
	{"episode", "episodes"}, {"pattern", "patterns"}, {"tag", "tags"}, {"month", "timeline"},
	{"outcome", "outcomes"}, {"note", "notes"}, {"workflow", "workflows"},
}

// pickPages picks a page of every kind the built site out has, and a
// search for a word of the episode checked.
func pickPages(t *testing.T, out string) []layoutPage {
	t.Helper()
	pages := slices.Clone(sections)
	for _, it := range items {
		dir, ok := largest(t, filepath.Join(out, it.section))
		if !ok {
			t.Logf("no %s page: this site has none", it.kind)
			continue
		}
		pages = append(pages, layoutPage{it.kind, "/" + it.section + "/" + dir + "/", "main"})
	}
	word := "memory"
	for _, p := range pages {
		if p.kind == "episode" {
			word = searchWord(t, p.file(out))
		}
	}
	pages = append(pages, layoutPage{"search", "/search/?q=" + url.QueryEscape(word), "ol.results li, #search-results p[role=status]"})
	return pages
}

// largest is the folder under dir whose index.html is the largest, ties
// broken by name.
func largest(t *testing.T, dir string) (string, bool) {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	best, size := "", int64(-1)
	for _, e := range es {
		fi, err := os.Stat(filepath.Join(dir, e.Name(), "index.html"))
		if !e.IsDir() || err != nil {
			continue
		}
		if fi.Size() > size {
			best, size = e.Name(), fi.Size()
		}
	}
	return best, size >= 0
}

var headingWord = regexp.MustCompile(`<h1[^>]*>[^<]*?\b([A-Za-z]{5,12})\b`)

// searchWord is a word of the heading of the page in file, to search for.
func searchWord(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if m := headingWord.FindSubmatch(data); m != nil {
		return strings.ToLower(string(m[1]))
	}
	return "memory"
}
