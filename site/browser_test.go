package site_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/engramhq/engram/indexer"
)

// chromium finds Debian's chromium (installed by .ci/run).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium not found: install Debian's chromium package to run the browser tests")
	return ""
}

// siteHeaders reads the headers netlify.toml sends with every page, so the
// browser test runs under the same Content-Security-Policy as production.
func siteHeaders(t *testing.T) map[string]string {
	t.Helper()
	var cfg struct {
		Headers []struct {
			For    string            `toml:"for"`
			Values map[string]string `toml:"values"`
		} `toml:"headers"`
	}
	if _, err := toml.DecodeFile(filepath.Join("..", "netlify.toml"), &cfg); err != nil {
		t.Fatal(err)
	}
	for _, h := range cfg.Headers {
		if h.For == "/*" {
			return h.Values
		}
	}
	t.Fatal("netlify.toml sends no headers for /*")
	return nil
}

// TestBrowserDemo builds the demo memory repository, serves it with the
// production headers, and loads each kind of page in headless chromium:
// the page must show its parts, log no console error and break no CSP rule.
func TestBrowserDemo(t *testing.T) {
	bin := chromium(t)
	out := filepath.Join(t.TempDir(), "public")
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: filepath.Join("..", "content"), Out: out, Now: &now}); err != nil {
		t.Fatal(err)
	}
	headers := siteHeaders(t)
	files := http.FileServer(http.Dir(out))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range headers {
			w.Header().Set(k, v)
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin),
		chromedp.NoSandbox, chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()

	var mu sync.Mutex
	var problems []string
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				problems = append(problems, "console "+string(e.Type))
			}
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
				problems = append(problems, string(e.Entry.Source)+": "+e.Entry.Text)
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// The Log domain reports what the console API does not: CSP violations
	// and failed loads.
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		path  string
		parts []string // CSS selectors that must be present
		text  string   // text the page must show
	}{
		{"/", []string{"#counts", "#warnings", "#recent", "#health", "section.health a[href$='health.json']", "table a[href*='/episodes/']"}, "Acme Payments agent memory"},
		{"/episodes/", []string{"table tbody tr", ".badge.failure"}, "newest first"},
		{"/episodes/episode-2026-08-26-session-09/", []string{"#context", "#observations", "#decisions", "#timeline", "#lessons", "#relations", "#backlinks", "#source", ".missing", "link[rel=alternate][type='application/json']"}, "Switch ledger reads"},
		{"/patterns/", []string{"table tbody tr.anti"}, "Wilson lower bound"},
		{"/patterns/pattern-feature-flag-risky-changes/", []string{"#rule", "#stats", "#evidence", "#edges"}, "Declared"},
		{"/patterns/antipattern-big-bang-change/", []string{".banner"}, "Antipattern."},
		{"/notes/", []string{"main ul li a"}, "Notes"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			mu.Lock()
			problems = nil
			mu.Unlock()
			actions := []chromedp.Action[chromedp.Void]{chromedp.Navigate(srv.URL + tc.path)}
			for _, sel := range tc.parts {
				actions = append(actions, chromedp.WaitReady(chromedp.CSS(sel)))
			}
			tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
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
			mu.Lock()
			defer mu.Unlock()
			if len(problems) > 0 {
				t.Errorf("%s: %v", tc.path, problems)
			}
		})
	}
	if path := os.Getenv("ENGRAM_SCREENSHOT"); path != "" {
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/patterns/pattern-feature-flag-risky-changes/")); err == nil {
			if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(90)); err == nil {
				_ = os.WriteFile(path, png, 0o644)
			}
		}
	}
}
