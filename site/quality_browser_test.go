package site_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/site/browsertest"
)

// qualityReportEnv names a Markdown file the test writes its findings
// to, grouped by check and page kind.
const qualityReportEnv = "ENGRAM_QUALITY_REPORT"

// qualityTools are the paths of the npm tools (browsertest.NPMTools).
type qualityTools struct{ axe, htmlValidate, lighthouse string }

func findQualityTools(t *testing.T) qualityTools {
	t.Helper()
	p := browsertest.NPMTools(t, browsertest.AxeEnv, browsertest.HTMLValidateEnv, browsertest.LighthouseEnv)
	return qualityTools{axe: p[0], htmlValidate: p[1], lighthouse: p[2]}
}

// The checks shared with site/layouttest live in browsertest.
var (
	emulate      = browsertest.Emulate
	runAxe       = browsertest.RunAxe
	htmlValidate = browsertest.HTMLValidate
)

func overflow(t *testing.T, ctx context.Context, width int) browsertest.Overflow {
	t.Helper()
	res, err := browsertest.MeasureOverflow(ctx, width)
	if err != nil {
		t.Fatalf("measure overflow: %v", err)
	}
	return res
}

// The widths and colour schemes every page is checked at.
var (
	qualityWidths = []int{390, 1280}
	qualityThemes = []string{"light", "dark"}
)

// qualityNotes are notes that are neither episodes nor patterns, from the
// demo repository, for the notes index and a note's page.
var qualityNotes = []string{"concepts/idempotency-keys.md", "threads/ledger-amount-migration.md"}

// TestBrowserQuality is what remains of issue 18's must-show that
// site/layouttest does not check: every kind of page of a generated
// repository (with notes and workflows added), built for an absolute
// base URL and served over HTTP with the production headers, is
// html-validate clean (qualityHTMLValidateConfig), and the home page and
// an episode score 100 in Lighthouse's SEO category. $ENGRAM_QUALITY_REPORT
// names a Markdown file for the findings.
//
// The width × colour scheme matrix this test once ran on these pages
// (overflow and axe-core at 390 and 1280 px, light and dark) is issue
// 33's browsertest.Layout, which site/layouttest runs at 320, 390 and
// 1280 px on the demo, a repository of bad input and the real snapshots,
// with the same checks (TestBrowserQualityChecks shows they are not
// blind); running it here too cost two minutes of CI for nothing either
// did not already find.
func TestBrowserQuality(t *testing.T) {
	bin := browsertest.Chromium(t)
	tools := findQualityTools(t)
	started := time.Now()

	// The server starts first, so that the site is built for its address:
	// canonical, sitemap and robots URLs are absolute and resolve.
	out := filepath.Join(t.TempDir(), "public")
	srv := serveSite(t, out)
	repo, corpus := qualityRepo(t)
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, BaseURL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	pages := qualityPages(t, out, corpus)
	t.Logf("site built and %d page kinds found in %v", len(pages), time.Since(started).Round(time.Millisecond))

	report := &qualityReport{base: srv.URL}
	if file := os.Getenv(qualityReportEnv); file != "" {
		t.Cleanup(func() {
			if err := os.WriteFile(file, report.markdown(pages), 0o644); err != nil {
				t.Error(err)
			}
		})
	}

	t.Run("html-validate", func(t *testing.T) {
		began := time.Now()
		files := map[string]qualityPage{}
		var list []string
		for _, p := range pages {
			f := p.file(out)
			files[f] = p
			list = append(list, f)
		}
		msgs := htmlValidate(t, tools.htmlValidate, list)
		for f, ms := range msgs {
			p := files[f]
			for _, m := range ms {
				report.add(finding{check: checkHTML, kind: p.kind, path: p.path, rule: m.RuleID,
					target: fmt.Sprintf("%s (line %d:%d)", m.Selector, m.Line, m.Column), message: m.Message + ": " + excerpt(f, m.Line, m.Column)})
			}
		}
		report.fail(t, checkHTML, "")
		t.Logf("%d files validated in %v", len(list), time.Since(began).Round(time.Millisecond))
	})

	t.Run("lighthouse", func(t *testing.T) {
		for _, p := range pages {
			if p.kind != "home" && p.kind != "episode" {
				continue
			}
			began := time.Now()
			score, failed := lighthouseSEO(t, tools.lighthouse, bin, srv.URL+p.path)
			for _, a := range failed {
				report.add(finding{check: checkSEO, kind: p.kind, path: p.path, rule: a.ID, target: a.Items, message: a.Title})
			}
			if score < 1 {
				report.add(finding{check: checkSEO, kind: p.kind, path: p.path, rule: "seo-score", target: "category", message: fmt.Sprintf("SEO score %.0f, want 100", score*100)})
			}
			t.Logf("%s: SEO score %.0f in %v", p.path, score*100, time.Since(began).Round(time.Millisecond))
		}
		report.fail(t, checkSEO, "")
	})
	t.Logf("the whole check took %v", time.Since(started).Round(time.Millisecond))
}

// The pages of TestBrowserQualityChecks: a clean one, and one with a
// problem for each check. Their stylesheet is a file, as the CSP wants.
const (
	qualityCSS = `body { margin: 0 auto; max-width: 40rem; padding: 1rem; font: 16px/1.5 sans-serif; color: #222; background: #fff; }
.wide { width: 800px; }
@media (prefers-color-scheme: dark) {
  body { color: #eee; background: #111; }
  a { color: #9cf; }
  .faint { color: #333; }
}
`
	qualityHead = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/q.css">
<link rel="icon" type="image/svg+xml" href="/q.svg">
`
	qualityClean = qualityHead + `<title>A clean page</title>
<meta name="description" content="A page with nothing wrong, to show that every check passes it.">
</head>
<body>
<main>
<h1>A clean page</h1>
<p>Nothing on this page is wrong, so every check passes it.</p>
<p><a href="/bad/">A page with problems</a></p>
</main>
</body>
</html>
`
	// qualityBad is 800 px wide (the 390 px viewport overflows, the 1280
	// px one does not), has an image without alt text and, in the dark
	// scheme only, text of too little contrast; its id is used twice, its
	// input has no type and its head no description.
	qualityBad = qualityHead + `<title>A page with problems</title>
</head>
<body>
<main>
<h1 id="x">A page with problems</h1>
<div class="wide"><p id="x">Too wide for a phone.</p></div>
<p class="faint">Faint in the dark.</p>
<img src="/q.svg" width="10" height="10">
<form action="/clean/"><label>Name <input name="q"></label> <button type="submit">Go</button></form>
</main>
</body>
</html>
`
)

// TestBrowserQualityChecks shows that TestBrowserQuality's checks are not
// blind: on a small site served as the real one is (the production
// headers, CSP included), each finds what was planted in a page, at the
// width and in the scheme where it was planted, and nothing in a clean
// page; Lighthouse fails the other for its missing description and alt
// text, and for nothing else.
func TestBrowserQualityChecks(t *testing.T) {
	bin := browsertest.Chromium(t)
	tools := findQualityTools(t)
	out := t.TempDir()
	for name, data := range map[string]string{"q.css": qualityCSS, "clean/index.html": qualityClean, "bad/index.html": qualityBad,
		"q.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>`} {
		f := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := serveSite(t, out)
	clean := qualityPage{"clean", pageCheck{"clean", "/clean/", []string{"main h1"}, "Nothing on this page is wrong"}}
	bad := qualityPage{"bad", pageCheck{"bad", "/bad/", []string{"main h1"}, "Too wide"}}

	t.Run("html-validate", func(t *testing.T) {
		msgs := htmlValidate(t, tools.htmlValidate, []string{clean.file(out), bad.file(out)})
		if m := msgs[clean.file(out)]; len(m) > 0 {
			t.Errorf("clean page: %+v", m)
		}
		var got []string
		for _, m := range msgs[bad.file(out)] {
			got = append(got, m.RuleID)
		}
		slices.Sort(got)
		if want := []string{"no-dup-id", "no-implicit-input-type", "wcag/h37"}; !slices.Equal(slices.Compact(got), want) {
			t.Errorf("page with problems: html-validate found %v, want %v", got, want)
		}
	})

	axeSrc, err := os.ReadFile(tools.axe)
	if err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.New(t, bin)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	problems := browsertest.Watch(t, ctx)
	for _, width := range qualityWidths {
		for _, theme := range qualityThemes {
			t.Run(fmt.Sprintf("%d-%s", width, theme), func(t *testing.T) {
				if err := emulate(ctx, width, theme); err != nil {
					t.Fatal(err)
				}
				for _, p := range []qualityPage{clean, bad} {
					problems.Take()
					loadPage(t, ctx, srv.URL, p.pageCheck)
					over := overflowFindings(overflow(t, ctx, width), p)
					var targets []string
					for _, f := range over {
						targets = append(targets, f.target)
					}
					wantOver := p.kind == "bad" && width < 600
					if wantOver != (len(over) > 0) || (wantOver && !slices.Equal(targets, []string{"body > main > div.wide"})) {
						t.Errorf("%s: overflow found %v, want it: %v", p.path, over, wantOver)
					}
					vs, err := runAxe(ctx, axeSrc)
					if err != nil {
						t.Fatal(err)
					}
					var got []string
					for _, v := range vs {
						got = append(got, v.ID)
					}
					slices.Sort(got)
					var want []string
					if p.kind == "bad" {
						want = []string{"image-alt"}
						if theme == "dark" {
							want = []string{"color-contrast", "image-alt"}
						}
					}
					if !slices.Equal(got, want) {
						t.Errorf("%s: axe found %v, want %v: %+v", p.path, got, want, vs)
					}
					// axe runs in the page under its CSP, and breaks none of it.
					if pr := problems.Take(); len(pr) > 0 {
						t.Errorf("%s: %v", p.path, pr)
					}
				}
			})
		}
	}

	// One run of Lighthouse, on the page with problems: it fails the two
	// audits planted and no other, so the way the site is served (over
	// HTTP on a loopback address, with no robots.txt) costs no point.
	t.Run("lighthouse", func(t *testing.T) {
		score, failed := lighthouseSEO(t, tools.lighthouse, bin, srv.URL+bad.path)
		var got []string
		for _, a := range failed {
			got = append(got, a.ID)
		}
		slices.Sort(got)
		if score >= 1 || !slices.Equal(got, []string{"image-alt", "meta-description"}) {
			t.Errorf("page with problems: SEO score %v, failed %v, want image-alt and meta-description", score, got)
		}
	})
}

// qualityRepo writes the generated repository: gen.Sized(60) with a
// fixed seed, then a commit adding a concept and a thread (the notes
// pages) and two workflows' events within retention (the workflows
// pages), one with an event type of its own and a long unbroken value.
func qualityRepo(t *testing.T) (string, gen.Corpus) {
	t.Helper()
	o := gen.Sized(60)
	o.Seed = 1818
	corpus := gen.Generate(o)
	when := corpus.Commits[len(corpus.Commits)-1].When.Add(time.Hour)
	files := map[string][]byte{}
	for _, n := range qualityNotes {
		data, err := os.ReadFile(filepath.Join("..", "content", filepath.FromSlash(n)))
		if err != nil {
			t.Fatal(err)
		}
		files[n] = data
	}
	var events []string
	add := func(id, workflow, typ, task string, ago time.Duration, data string) {
		events = append(events, fmt.Sprintf(`{"id":%q,"workflow_id":%q,"event_type":%q,"task_id":%q,"timestamp":%q,"data":%s}`,
			id, workflow, typ, task, when.Add(-ago).Format(time.RFC3339), data))
	}
	refunds := `"context":{"service":"refunds","env":"prod","change":"idempotency-keys"}`
	add("q-1", "refund-service-deploy", "speculation_start", "refunds-v2.4", 72*time.Hour, `{`+refunds+`,"prediction":{"error_rate_below":0.005}}`)
	add("q-2", "refund-service-deploy", "ail_decision", "refunds-v2.4", 70*time.Hour, `{`+refunds+`,"decision":{"approved":true,"by":"canary analysis"}}`)
	add("q-3", "refund-service-deploy", "hil_decision", "refunds-v2.4", 48*time.Hour, `{`+refunds+`,"decision":{"approved":true,"by":"on-call payments engineer"}}`)
	add("q-4", "refund-service-deploy", "task_complete", "refunds-v2.4", 46*time.Hour, `{`+refunds+`,"result":{"status":"partial","note":"rolled out in 2 of 3 regions"}}`)
	add("q-5", "refund-service-deploy", "rollback_requested", "refunds-v2.4", 40*time.Hour, `{`+refunds+`,"reason":"a very long reason that goes on without a break: idempotency-key-collision-between-regions-eu-west-1-and-us-east-1"}`)
	add("q-6", "payout-retry-tuning", "speculation_start", "payouts-retry-cap", 30*time.Hour, `{"context":{"service":"payouts"},"prediction":{"error_rate_below":0.01}}`)
	add("q-7", "payout-retry-tuning", "task_complete", "payouts-retry-cap", 20*time.Hour, `{"context":{"service":"payouts"},"result":"success"}`)
	files["events/"+when.Format("2006-01")+".jsonl"] = []byte(strings.Join(events, "\n") + "\n")
	commits := append(corpus.Commits, source.Commit{When: when, Message: "notes and workflows", Files: files})
	repo := t.TempDir()
	if err := source.WriteRepo(repo, commits); err != nil {
		t.Fatal(err)
	}
	return repo, corpus
}

// qualityPage is one page of each kind: its kind (the layout's name, or
// 404) and how to load it.
type qualityPage struct {
	kind string
	pageCheck
}

// file is the page's HTML file in the output.
func (p qualityPage) file(out string) string {
	u, _ := url.Parse(p.path)
	rel := strings.TrimPrefix(u.Path, "/")
	if rel == "" || strings.HasSuffix(rel, "/") {
		rel += "index.html"
	}
	return filepath.Join(out, filepath.FromSlash(rel))
}

// qualityPages picks a page of every kind from the built site: an
// episode cited by a pattern, that pattern, a tag, a month, a note and a
// workflow. Every layout of templates/layouts that is a kind's must be
// among them, so a new kind cannot go unchecked.
func qualityPages(t *testing.T, out string, corpus gen.Corpus) []qualityPage {
	t.Helper()
	// An episode that a pattern cites as evidence, with decisions, and
	// that pattern, as TestBrowserPages picks them.
	ep, pat := citedEpisode(t, corpus)
	epURL, patURL := localPath(t, pageURL(t, out, "episodes", ep.Title)), localPath(t, pageURL(t, out, "patterns", pat.Title))
	var epDoc export.Episode
	readJSON(t, twinFile(t, out, epURL), &epDoc)
	first := func(section string) string {
		var l export.List[struct {
			URL string `json:"url"`
		}]
		readJSON(t, twinFile(t, out, "/"+section+"/"), &l)
		if len(l.Items) == 0 {
			t.Fatalf("/%s/ lists nothing", section)
		}
		return l.Items[0].URL
	}
	var tags export.List[struct{ Tag, URL string }]
	readJSON(t, filepath.Join(out, "tags", "index.json"), &tags)
	if len(tags.Items) == 0 {
		t.Fatal("the site has no tags")
	}
	pages := []qualityPage{
		{"home", pageCheck{"home", "/", []string{"main h1"}, ""}},
		{"episodes", pageCheck{"episodes", "/episodes/", []string{"main h1"}, ""}},
		{"episode", pageCheck{"episode", epURL, []string{"main h1"}, ""}},
		{"pattern", pageCheck{"pattern", patURL, []string{"main h1"}, ""}},
		{"patterns", pageCheck{"patterns", "/patterns/", []string{"main h1"}, ""}},
		{"antipatterns", pageCheck{"antipatterns", "/antipatterns/", []string{"main h1"}, ""}},
		{"lessons", pageCheck{"lessons", "/lessons/", []string{"main h1"}, ""}},
		{"graph", pageCheck{"graph", "/graph/", []string{"canvas"}, ""}},
		{"search", pageCheck{"search", "/search/?q=" + url.QueryEscape(ep.Word), []string{"ol.results li a"}, ""}},
		{"tags", pageCheck{"tags", "/tags/", []string{"main h1"}, ""}},
		{"tag", pageCheck{"tag", tags.Items[0].URL, []string{"main h1"}, ""}},
		{"timeline", pageCheck{"timeline", "/timeline/", []string{"main h1"}, ""}},
		{"month", pageCheck{"month", "/timeline/" + epDoc.Date[:7] + "/", []string{"main h1"}, ""}},
		{"outcome", pageCheck{"outcome", "/outcomes/failure/", []string{"main h1"}, ""}},
		{"outcomes", pageCheck{"outcomes", "/outcomes/", []string{"main h1"}, ""}},
		{"pending", pageCheck{"pending", "/pending/", []string{"main h1"}, ""}},
		{"diagnostics", pageCheck{"diagnostics", "/diagnostics/", []string{"main h1"}, ""}},
		{"notes", pageCheck{"notes", "/notes/", []string{"main h1"}, ""}},
		{"note", pageCheck{"note", first("notes"), []string{"main h1"}, ""}},
		{"workflows", pageCheck{"workflows", "/workflows/", []string{"main h1"}, ""}},
		{"workflow", pageCheck{"workflow", first("workflows"), []string{"main h1"}, ""}},
		{"decisions", pageCheck{"decisions", "/decisions/", []string{"main h1"}, ""}},
		{"candidates", pageCheck{"candidates", "/candidates/", []string{"main h1"}, ""}},
		{"404", pageCheck{"404", "/404.html", []string{"main h1"}, ""}},
	}
	for i := range pages {
		pages[i].path = localPath(t, pages[i].path)
		if _, err := os.Stat(pages[i].file(out)); err != nil {
			t.Fatalf("%s page %s: %v", pages[i].kind, pages[i].path, err)
		}
	}
	for _, kind := range browsertest.PageKinds(t) {
		if !slices.ContainsFunc(pages, func(p qualityPage) bool { return p.kind == kind }) {
			t.Errorf("layouts/%s.html is not checked: add a page of kind %s to qualityPages", kind, kind)
		}
	}
	return pages
}

// localPath is the path and query of a URL of the site, which is built
// with the server's absolute address.
func localPath(t *testing.T, s string) string {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	if u.RawQuery != "" {
		return u.Path + "?" + u.RawQuery
	}
	return u.Path
}

// findings are the elements that stick out, or the document if none
// does on its own.
func overflowFindings(ov browsertest.Overflow, p qualityPage) []finding {
	var fs []finding
	for _, c := range ov.Culprits {
		msg := fmt.Sprintf("spans %.0f to %.0f px, past the %d px viewport (document scrollWidth %d)", c.Left, c.Right, ov.Width, ov.ScrollWidth)
		if c.Line != "" {
			msg += fmt.Sprintf("; its longest line, %.0f px, is %q in %s", c.LineWidth, c.Line, c.LineIn)
		}
		msg += "; " + c.HTML
		fs = append(fs, finding{check: checkOverflow, kind: p.kind, path: p.path, rule: "horizontal-overflow", target: c.Selector, message: msg})
	}
	if ov.ScrollWidth > ov.Width && len(fs) == 0 {
		fs = append(fs, finding{check: checkOverflow, kind: p.kind, path: p.path, rule: "horizontal-overflow", target: "html",
			message: fmt.Sprintf("document scrollWidth %d > viewport %d (innerWidth %d), and no element found that sticks out", ov.ScrollWidth, ov.Width, ov.InnerWidth)})
	}
	return fs
}

// excerpt is the text of file at line and column (from 1), to show what
// a finding is about.
func excerpt(file string, line, column int) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(string(data), "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	l := []rune(lines[line-1])
	from := 0
	if len(l) > 200 {
		from = max(0, min(column-1, len(l))-100)
	}
	to := min(len(l), from+200)
	return strings.TrimSpace(string(l[from:to]))
}

// lighthouseAudit is an audit of the SEO category that did not pass.
type lighthouseAudit struct{ ID, Title, Items string }

// lighthouseSEO runs Lighthouse's SEO category on pageURL in chromium,
// and returns the category's score and the audits that failed.
func lighthouseSEO(t *testing.T, bin, chromium, pageURL string) (float64, []lighthouseAudit) {
	t.Helper()
	dir := t.TempDir()
	report := filepath.Join(dir, "report.json")
	// Lighthouse starts chromium itself (chrome-launcher, with a profile
	// of its own); the flags are those of browsertest.New.
	flags := "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
	cmd := exec.Command(bin, pageURL, "--only-categories=seo", "--output=json", "--output-path="+report, "--quiet",
		"--disable-full-page-screenshot", "--chrome-flags="+flags)
	cmd.Env = append(os.Environ(), "CHROME_PATH="+chromium)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("lighthouse %s: %v\n%s", pageURL, err, b)
	}
	var lhr struct {
		RuntimeError *struct{ Code, Message string } `json:"runtimeError"`
		Categories   struct {
			SEO struct {
				Score     *float64 `json:"score"`
				AuditRefs []struct {
					ID     string  `json:"id"`
					Weight float64 `json:"weight"`
				} `json:"auditRefs"`
			} `json:"seo"`
		} `json:"categories"`
		Audits map[string]struct {
			Title       string   `json:"title"`
			Score       *float64 `json:"score"`
			Explanation string   `json:"explanation"`
			Details     struct {
				Items []map[string]any `json:"items"`
			} `json:"details"`
		} `json:"audits"`
	}
	readJSON(t, report, &lhr)
	if lhr.RuntimeError != nil {
		t.Fatalf("lighthouse %s: %s: %s", pageURL, lhr.RuntimeError.Code, lhr.RuntimeError.Message)
	}
	if lhr.Categories.SEO.Score == nil {
		t.Fatalf("lighthouse %s: no SEO score", pageURL)
	}
	var failed []lighthouseAudit
	for _, ref := range lhr.Categories.SEO.AuditRefs {
		a := lhr.Audits[ref.ID]
		if ref.Weight == 0 || a.Score == nil || *a.Score >= 1 {
			continue
		}
		var items []string
		for _, it := range a.Details.Items {
			items = append(items, lighthouseItem(it))
		}
		detail := strings.Join(items, "; ")
		if a.Explanation != "" {
			detail = strings.TrimSpace(a.Explanation + " " + detail)
		}
		if detail == "" {
			detail = "page"
		}
		failed = append(failed, lighthouseAudit{ID: ref.ID, Title: a.Title, Items: detail})
	}
	return *lhr.Categories.SEO.Score, failed
}

// lighthouseItem names an element or resource of an audit's details.
func lighthouseItem(it map[string]any) string {
	if n, ok := it["node"].(map[string]any); ok {
		s, _ := n["selector"].(string)
		if snip, _ := n["snippet"].(string); snip != "" {
			s += " " + snip
		}
		return s
	}
	var parts []string
	for _, k := range []string{"source", "url", "href", "text", "description"} {
		if v, ok := it[k].(string); ok && v != "" {
			parts = append(parts, v)
		}
	}
	if len(parts) == 0 {
		b, _ := json.Marshal(it)
		return string(b)
	}
	return strings.Join(parts, " ")
}

// The checks, as the report names them.
const (
	checkOverflow = "Horizontal overflow"
	checkAxe      = "axe-core"
	checkHTML     = "html-validate"
	checkSEO      = "Lighthouse SEO"
)

// finding is one problem on one page: the same element breaking the same
// rule in the same way at several widths and schemes is one finding,
// listing where.
type finding struct {
	check, kind, path, rule, target, message string
	where                                    string // "390-dark"; "" for checks of the HTML file
}

// qualityReport gathers the findings of every check.
type qualityReport struct {
	base   string // the server's address, written {base} in messages
	list   []*finding
	wheres map[*finding][]string
}

func (r *qualityReport) add(f finding) {
	if r.base != "" {
		f.message, f.target = strings.ReplaceAll(f.message, r.base, "{base}"), strings.ReplaceAll(f.target, r.base, "{base}")
	}
	if r.wheres == nil {
		r.wheres = map[*finding][]string{}
	}
	for _, g := range r.list {
		if g.check == f.check && g.kind == f.kind && g.rule == f.rule && g.target == f.target && g.message == f.message {
			if f.where != "" && !slices.Contains(r.wheres[g], f.where) {
				r.wheres[g] = append(r.wheres[g], f.where)
			}
			return
		}
	}
	g := f
	r.list = append(r.list, &g)
	if f.where != "" {
		r.wheres[&g] = []string{f.where}
	}
}

// grouped returns the findings of a check (of a kind, or of all kinds),
// by kind and then by rule.
func (r *qualityReport) grouped(check, kind string) map[string]map[string][]*finding {
	m := map[string]map[string][]*finding{}
	for _, f := range r.list {
		if f.check != check || (kind != "" && f.kind != kind) {
			continue
		}
		if m[f.kind] == nil {
			m[f.kind] = map[string][]*finding{}
		}
		m[f.kind][f.rule] = append(m[f.kind][f.rule], f)
	}
	return m
}

// maxListed caps the elements a failure message names for one rule of
// one page; the report lists them all.
const maxListed = 6

// fail reports the findings of a check (for one kind, or all) as errors,
// one per rule and page, naming the elements and where they break it.
func (r *qualityReport) fail(t *testing.T, check, kind string) {
	t.Helper()
	g := r.grouped(check, kind)
	for _, k := range sortedKeys(g) {
		byRule := g[k]
		for _, rule := range sortedKeys(byRule) {
			fs := byRule[rule]
			var b strings.Builder
			fmt.Fprintf(&b, "%s: %s %s on %s (%d):", fs[0].path, check, rule, k, len(fs))
			for i, f := range fs {
				if i == maxListed {
					fmt.Fprintf(&b, "\n  … and %d more (see $%s)", len(fs)-maxListed, qualityReportEnv)
					break
				}
				fmt.Fprintf(&b, "\n  %s: %s%s", f.target, f.message, r.whereText(f))
			}
			t.Error(b.String())
		}
	}
}

func (r *qualityReport) whereText(f *finding) string {
	w := r.wheres[f]
	if len(w) == 0 {
		return ""
	}
	if len(w) == len(qualityWidths)*len(qualityThemes) {
		return " [all widths and schemes]"
	}
	return " [" + strings.Join(w, ", ") + "]"
}

// markdown is the report: the findings by check, page kind and rule.
func (r *qualityReport) markdown(pages []qualityPage) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Quality findings (TestBrowserQuality)\n\nWritten %s. %d findings over %d page kinds; widths %v px, schemes %v. Paths are from the site's root; {base} is the test server's address (%s).\n",
		time.Now().UTC().Format(time.RFC3339), len(r.list), len(pages), qualityWidths, qualityThemes, r.base)
	for _, check := range []string{checkOverflow, checkAxe, checkHTML, checkSEO} {
		g := r.grouped(check, "")
		n := 0
		for _, byRule := range g {
			for _, fs := range byRule {
				n += len(fs)
			}
		}
		fmt.Fprintf(&b, "\n## %s (%d)\n", check, n)
		if n == 0 {
			b.WriteString("\nNone.\n")
		}
		for _, p := range pages {
			byRule := g[p.kind]
			if len(byRule) == 0 {
				continue
			}
			fmt.Fprintf(&b, "\n### %s (`%s`)\n", p.kind, p.path)
			for _, rule := range sortedKeys(byRule) {
				fmt.Fprintf(&b, "\n- **%s** (%d)\n", rule, len(byRule[rule]))
				for _, f := range byRule[rule] {
					fmt.Fprintf(&b, "  - `%s`: %s%s\n", f.target, strings.ReplaceAll(f.message, "\n", " "), r.whereText(f))
				}
			}
		}
	}
	return []byte(b.String())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
