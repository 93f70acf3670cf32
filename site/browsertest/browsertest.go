// Package browsertest starts headless chromium for the tests that check
// pages in a real browser (site's, and engram serve's in cmd/engram), and
// records what a page must not do there. Only tests import it.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Chromium finds Debian's chromium (installed by .ci/run). Without it the
// test is skipped, or fails when $CI is set.
func Chromium(t testing.TB) string {
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

// New starts headless chromium (bin) for one test, with any extra
// options; it is stopped when the test ends. Its context ends shortly
// before the test binary's deadline (-timeout), never at a time of its
// own: how long a page takes is for benchmarks to measure, and a loaded
// machine must not fail a test by being slow.
func New(t testing.TB, bin string, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin),
		chromedp.NoSandbox, chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()))
	opts = append(opts, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithCancel(ctx)
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if at, ok := d.Deadline(); ok {
			ctx, cancelTimeout = context.WithDeadline(ctx, at.Add(-time.Until(at)/20))
		}
	}
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}

// Watch records what a page must not do in the browser in ctx: any
// console output, exceptions, dialogs (dismissed), and the Log domain's
// errors and warnings (CSP violations, failed loads).
func Watch(t testing.TB, ctx context.Context) *Problems {
	t.Helper()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	p := &Problems{}
	err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			p.add("console " + string(e.Type))
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
				p.add(string(e.Entry.Source) + ": " + e.Entry.Text)
			}
		case *runtime.EventExceptionThrown:
			p.add("exception: " + e.ExceptionDetails.Text)
		case *page.EventJavascriptDialogOpening:
			p.add("dialog: " + e.Message)
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	return p
}

// Problems is what Watch recorded.
type Problems struct {
	mu   sync.Mutex
	list []string
}

func (p *Problems) add(s string) { p.mu.Lock(); p.list = append(p.list, s); p.mu.Unlock() }

// Reset forgets what was recorded.
func (p *Problems) Reset() { p.mu.Lock(); p.list = nil; p.mu.Unlock() }

// Take returns what was recorded since the last Take or Reset.
func (p *Problems) Take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.list
	p.list = nil
	return l
}
