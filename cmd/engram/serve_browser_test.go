package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// serveChromium finds chromium; without it the test is skipped, or
// fails under CI, where .ci/run installs it.
func serveChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium not found, and CI is set: install Debian's chromium package")
	}
	t.Skip("chromium not found: install Debian's chromium package to run the browser tests")
	return ""
}

// newServeBrowser starts headless chromium for one test (as
// site/browser_test.go's newBrowser), recording the page's console
// output, exceptions, and the errors and warnings of its log (CSP
// violations, failed loads).
func newServeBrowser(t *testing.T, bin string) (context.Context, *serveProblems) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin),
		chromedp.NoSandbox, chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	p := &serveProblems{}
	err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			p.add("console " + string(e.Type))
		case *runtime.EventExceptionThrown:
			p.add("exception: " + e.ExceptionDetails.Text)
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
				p.add(string(e.Entry.Source) + ": " + e.Entry.Text)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	return ctx, p
}

type serveProblems struct {
	mu   sync.Mutex
	list []string
}

func (p *serveProblems) add(s string) { p.mu.Lock(); p.list = append(p.list, s); p.mu.Unlock() }
func (p *serveProblems) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.list
	p.list = nil
	return l
}

// waitInPage evaluates expr in the open page until it is true; a reload
// in between (no document for a moment) is waited out.
func waitInPage(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
			return
		}
	}
	t.Fatalf("the open page never %s within a minute", what)
}

// TestServeLiveReloadInBrowser: a page open in a browser shows an edit
// by itself within two seconds of the save (issue 16), and the error
// banner when a note breaks, styled by serve.css; the page's policy
// (the deployed site's) is never broken.
func TestServeLiveReloadInBrowser(t *testing.T) {
	bin := serveChromium(t)
	repo := demoCopy(t)
	s := startServe(t, repo)
	ctx, problems := newServeBrowser(t, bin)

	page := s.url + strings.TrimPrefix(demoEpisodePage, "/")
	if err := chromedp.Do(ctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	task, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("p.task")))
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
	saved := time.Now()
	waitInPage(t, ctx, "showed the new task", `(document.querySelector("p.task") || {textContent: ""}).textContent.includes("Repair the flaky TestLedgerDailyClose")`)
	if took := time.Since(saved); took > 2*time.Second && !raceDetector {
		t.Errorf("the open page showed the new task %v after the save, want within two seconds", took)
	}

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
	if position != "sticky" {
		t.Errorf("the banner's position is %q: serve.css did not apply", position)
	}
	if loc, err := chromedp.Run(ctx, chromedp.Location()); err != nil || loc != page {
		t.Errorf("the page is at %q (%v), want %q", loc, err, page)
	}
	if p := problems.take(); len(p) > 0 {
		t.Errorf("the browser reported:\n%s", strings.Join(p, "\n"))
	}
}
