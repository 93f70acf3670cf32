package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/engramhq/engram/site/browsertest"
)

// waitInPage evaluates expr in the open page until it is true; a reload
// in between (no document for a moment) is waited out. Only the test's
// deadline bounds the wait.
func waitInPage(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	wait := testDeadline(t)
	for {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
			return
		}
		select {
		case <-wait.Done():
			t.Fatalf("the open page never %s, by the test's deadline", what)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// TestServeLiveReloadInBrowser: a page open in a browser shows an edit
// by itself (issue 16; how soon is BenchmarkServeRebuild's), and the error
// banner when a note breaks, styled by serve.css; the page's policy
// (the deployed site's) is never broken.
func TestServeLiveReloadInBrowser(t *testing.T) {
	bin := browsertest.Chromium(t)
	repo := demoCopy(t)
	s := startServe(t, repo)
	ctx := browsertest.New(t, bin)
	problems := browsertest.Watch(t, ctx)

	page := s.url + strings.TrimPrefix(demoEpisodePage, "/")
	if err := chromedp.Do(ctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	// The task leads the page: its heading (and the line under it when
	// the heading is cut).
	task, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("article.episode > header")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(task, demoTask) {
		t.Fatalf("the page shows the task %q, want %q", task, demoTask)
	}
	// The live-reload stream is open before the edit: the reload below
	// comes from a rebuild, not from a page that loaded late.
	waitInPage(t, ctx, "opened its reload stream", `document.documentElement.dataset.engramServe === "live"`)

	editFile(t, repo, demoEpisode, demoTask, "Repair the flaky TestLedgerDailyClose")
	waitInPage(t, ctx, "showed the new task", `(document.querySelector("article.episode > header") || {textContent: ""}).textContent.includes("Repair the flaky TestLedgerDailyClose")`)

	editFile(t, repo, demoEpisode, "outcome: success", `outcome: "<b>bogus</b>"`)
	waitInPage(t, ctx, "showed the error banner", `!!document.querySelector(".engram-serve-errors")`)
	banner, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(".engram-serve-errors")))
	if err != nil {
		t.Fatal(err)
	}
	position, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector(".engram-serve-errors")).position`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(banner, `outcome "<b>bogus</b>" is not`) {
		t.Errorf("the banner reads %q, want the diagnostic as text", banner)
	}
	if position != "relative" {
		t.Errorf("the banner's position is %q: serve.css did not apply", position)
	}
	if loc, err := chromedp.Run(ctx, chromedp.Location()); err != nil || loc != page {
		t.Errorf("the page is at %q (%v), want %q", loc, err, page)
	}
	if p := problems.Take(); len(p) > 0 {
		t.Errorf("the browser reported:\n%s", strings.Join(p, "\n"))
	}
}

// TestServeBannerLeavesTheHeader: the error banner of engram serve, at a
// phone's width and a desktop's, covers none of the site's header: at the
// centre of every link of the header in view, the page has that link, at
// the top of the page and scrolled half way down the banner; the banner
// fits the screen's width.
func TestServeBannerLeavesTheHeader(t *testing.T) {
	bin := browsertest.Chromium(t)
	repo := demoCopy(t)
	editFile(t, repo, demoEpisode, "outcome: success", `outcome: "`+strings.Repeat("bogus-", 60)+`"`)
	s := startServe(t, repo)
	ctx := browsertest.New(t, bin)
	page := s.url + strings.TrimPrefix(demoEpisodePage, "/")
	const covered = `(function () {
  var out = [];
  document.querySelectorAll("header.site a").forEach(function (a) {
    var r = a.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (r.width === 0 || x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) { return; }
    var at = document.elementFromPoint(x, y);
    if (!at || !a.contains(at)) { out.push(a.getAttribute("href") + " is under " + (at ? at.className || at.tagName : "nothing")); }
  });
  return out;
})()`
	for _, width := range []int64{390, 1280} {
		t.Run(strconv.FormatInt(width, 10), func(t *testing.T) {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 800), chromedp.Navigate(page)); err != nil {
				t.Fatal(err)
			}
			waitInPage(t, ctx, "showed the error banner", `!!document.querySelector(".engram-serve-errors") && !!document.querySelector("header.site a")`)
			for _, scroll := range []string{"0", `document.querySelector(".engram-serve-errors").offsetHeight / 2`} {
				got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.scrollTo(0, `+scroll+`), `+covered))
				if err != nil {
					t.Fatal(err)
				}
				if len(got) > 0 {
					t.Errorf("scrolled to %s: %v", scroll, got)
				}
			}
			right, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector(".engram-serve-errors").getBoundingClientRect().right - innerWidth`))
			if err != nil || right > 0 {
				t.Errorf("the banner runs %v px past the screen (%v)", right, err)
			}
		})
	}
}
