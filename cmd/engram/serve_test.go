package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/site"
)

// serving is an engram serve running in-process for one test.
type serving struct {
	url            string
	stdout, stderr *syncBuffer
	stop           func() // stops it and waits; also at the test's end
}

var serveURL = regexp.MustCompile(`engram serve: (http://localhost:\d+/) \(Ctrl-C to stop\)`)

// startServe runs cmdServe on repo on any free port, and returns once it
// printed its URL.
func startServe(t testing.TB, repo string) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &serving{stdout: newSyncBuffer(), stderr: newSyncBuffer()}
	done := make(chan error, 1)
	go func() { done <- cmdServe(ctx, []string{"--repo", repo, "--port", "0"}, s.stdout, s.stderr) }()
	var once sync.Once
	s.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("engram serve stopped with %v\nstderr:\n%s", err, s.stderr)
				}
			case <-testDeadline(t).Done():
				t.Errorf("engram serve did not stop after its context ended, by the test's deadline")
			}
		})
	}
	t.Cleanup(s.stop)
	wait := testDeadline(t)
	for {
		if m := serveURL.FindStringSubmatch(s.stdout.String()); m != nil {
			s.url = m[1]
			return s
		}
		select {
		case err := <-done:
			t.Fatalf("engram serve ended before serving: %v\nstderr:\n%s", err, s.stderr)
		case <-wait.Done():
			t.Fatalf("engram serve printed no URL by the test's deadline\nstdout:\n%s\nstderr:\n%s", s.stdout, s.stderr)
		case <-s.stdout.written:
		}
	}
}

// testDeadline is a context that ends shortly before the test binary's
// -timeout (never, for a benchmark or without one): a wait that never
// ends fails the test with its own message, and no wait is cut short by
// a time of its own, which a loaded machine may need.
func testDeadline(t testing.TB) context.Context {
	ctx := context.Background()
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if at, ok := d.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, at.Add(-time.Until(at)/20))
			t.Cleanup(cancel)
		}
	}
	return ctx
}

// get fetches a path of the preview.
func (s *serving) get(t testing.TB, path string) (*http.Response, string) {
	t.Helper()
	res, err := http.Get(s.url + strings.TrimPrefix(path, "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(body)
}

// waitFor returns the body of path once ok holds of its response. It
// reads the preview's reload events (what a page's script listens to),
// which name the build served when they connect and after each rebuild,
// and looks at the page after each: a change shows after an event, and
// nothing but the test's deadline bounds the wait.
func (s *serving) waitFor(t testing.TB, path, what string, ok func(res *http.Response, body string) bool) string {
	t.Helper()
	ctx, cancel := context.WithCancel(testDeadline(t))
	defer cancel()
	events := s.reloads(t, ctx)
	var body string
	for {
		if _, open := <-events; !open {
			t.Fatalf("%s never %s: the reload events ended (by the test's deadline?); last body:\n%s\nstderr:\n%s", path, what, body, s.stderr)
		}
		var res *http.Response
		if res, body = s.get(t, path); ok(res, body) {
			return body
		}
	}
}

// reloads streams the versions the preview's reload events name, until
// ctx ends; the first is the version served when it connects.
func (s *serving) reloads(t testing.TB, ctx context.Context) <-chan string {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url+"_engram/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan string)
	go func() {
		defer close(out)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				select {
				case out <- v:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

// syncBuffer is a bytes.Buffer the server writes while the test reads;
// written, when made, hears of each write (without waiting).
type syncBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	written chan struct{}
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{written: make(chan struct{}, 1)} }

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case b.written <- struct{}{}:
	default:
	}
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

const (
	demoEpisode     = "episodes/2026/EPISODE-2026-08-03-session-01.md"
	demoEpisodePage = "/episodes/episode-2026-08-03-session-01/"
	demoTask        = "Fix flaky TestLedgerDailyClose"
)

// editFile replaces old by new in a file of repo, failing when old is
// not there.
func editFile(t testing.TB, repo, path, old, new string) {
	t.Helper()
	p := filepath.Join(repo, filepath.FromSlash(path))
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte(old)) {
		t.Fatalf("%s does not hold %q", path, old)
	}
	if err := os.WriteFile(p, bytes.Replace(src, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestServeShowsAnEdit: the page of an episode shows its new task after
// the save (issue 16; how soon is BenchmarkServeRebuild's to measure,
// never a test's to assert), with the preview's script and stylesheet,
// under the deployed site's headers; the temporary output is gone when
// serve stops.
func TestServeShowsAnEdit(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	repo := demoCopy(t)
	s := startServe(t, repo)

	res, body := s.get(t, demoEpisodePage)
	if res.StatusCode != http.StatusOK || !strings.Contains(body, demoTask) {
		t.Fatalf("GET %s: %s, want 200 with the task %q:\n%s", demoEpisodePage, res.Status, demoTask, body)
	}
	csp := site.HeadersFor("/").Get("Content-Security-Policy")
	if got := res.Header.Get("Content-Security-Policy"); got != csp {
		t.Errorf("page Content-Security-Policy = %q, want %q", got, csp)
	}
	for _, want := range []string{`<link rel="stylesheet" href="/_engram/serve.css">`, `<script src="/_engram/reload.js" defer></script>` + "\n</body>"} {
		if strings.Count(body, want) != 1 {
			t.Errorf("the page holds %q %d times, want once", want, strings.Count(body, want))
		}
	}
	if strings.Contains(body, "engram-serve-errors") {
		t.Errorf("the demo's page shows an error banner:\n%s", body)
	}
	if n, err := strconv.Atoi(res.Header.Get("Content-Length")); err != nil || n != len(body) {
		t.Errorf("Content-Length %q, the body has %d bytes", res.Header.Get("Content-Length"), len(body))
	}
	for _, asset := range []struct{ path, typ string }{{"/_engram/reload.js", "javascript"}, {"/_engram/serve.css", "text/css"}} {
		res, body := s.get(t, asset.path)
		if res.StatusCode != http.StatusOK || !strings.Contains(res.Header.Get("Content-Type"), asset.typ) || body == "" {
			t.Errorf("GET %s: %s, Content-Type %q", asset.path, res.Status, res.Header.Get("Content-Type"))
		}
		if got := res.Header.Get("Content-Security-Policy"); got != csp {
			t.Errorf("%s Content-Security-Policy = %q, want %q", asset.path, got, csp)
		}
	}

	editFile(t, repo, demoEpisode, demoTask, "Repair the flaky TestLedgerDailyClose")
	s.waitFor(t, demoEpisodePage, "showed the new task", func(_ *http.Response, body string) bool {
		return strings.Contains(body, "Repair the flaky TestLedgerDailyClose")
	})

	s.stop()
	if left, _ := filepath.Glob(filepath.Join(tmp, "engram-serve-*")); len(left) > 0 {
		t.Errorf("serve left its output behind: %v", left)
	}
}

// TestServeNotFound: engram serve answers as Netlify does: a missing page
// is a 404 with the site's 404.html (with the preview's additions, under
// the site's headers), not a plain-text 404; the host's files _headers
// and _redirects are not served; a path with ".." reaches no file.
func TestServeNotFound(t *testing.T) {
	s := startServe(t, demoCopy(t))
	csp := site.HeadersFor("/").Get("Content-Security-Policy")
	for _, p := range []string{"/episodes/x/y/z/", "/no-such-page/", "/_headers", "/_redirects", "/episodes/a%20b/", "/" + strings.Repeat("a", 2000) + "/"} {
		t.Run(p[:min(len(p), 40)], func(t *testing.T) {
			res, body := s.get(t, p)
			if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "<h1>Not found</h1>") {
				t.Fatalf("GET %s: %s, want 404 with the site's 404 page:\n%s", p, res.Status, body)
			}
			if !strings.Contains(body, `<script src="/_engram/reload.js" defer></script>`) {
				t.Errorf("GET %s: the 404 page does not reload", p)
			}
			if got := res.Header.Get("Content-Security-Policy"); got != csp || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
				t.Errorf("GET %s: headers %v", p, res.Header)
			}
			if n, err := strconv.Atoi(res.Header.Get("Content-Length")); err != nil || n != len(body) {
				t.Errorf("GET %s: Content-Length %q, the body has %d bytes", p, res.Header.Get("Content-Length"), len(body))
			}
		})
	}
	for _, p := range []string{"/../engram.toml", "/%2e%2e/engram.toml", "/css/%2E%2E/%2e%2e/engram.toml"} {
		req, err := http.NewRequest(http.MethodGet, strings.TrimSuffix(s.url, "/"), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.URL.Opaque = p // sent as it is, not cleaned by the client
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		// The preview's mux sends a path with ".." to its clean form (a
		// 404 here); site.Handler refuses one that reaches it.
		if (res.StatusCode != http.StatusBadRequest && res.StatusCode != http.StatusNotFound) || strings.Contains(string(body), "engram configuration") {
			t.Errorf("GET %s: %s, want 400 or 404:\n%s", p, res.Status, body)
		}
	}
}

// TestServeErrors: an error diagnostic and a refused build show in the
// terminal and in a banner on the page, escaped; a refused build keeps
// the last good pages served; a fixed one takes the banner away.
func TestServeErrors(t *testing.T) {
	repo := demoCopy(t)
	s := startServe(t, repo)
	banner := func(_ *http.Response, body string) bool {
		return strings.Contains(body, `<div class="engram-serve-errors" role="alert">`)
	}

	// An error diagnostic: the build publishes, the banner lists it.
	editFile(t, repo, demoEpisode, "outcome: success", `outcome: "<b>bogus</b>"`)
	body := s.waitFor(t, "/", "showed the error banner", banner)
	if !strings.Contains(body, `outcome &#34;&lt;b&gt;bogus&lt;/b&gt;&#34; is not`) || strings.Contains(body, "<b>bogus") {
		t.Errorf("the banner does not hold the escaped diagnostic:\n%s", body)
	}
	if want := demoEpisode + `:5:1: error: outcome "<b>bogus</b>" is not success, partial or failure [episode-outcome]`; !strings.Contains(s.stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, s.stderr)
	}

	// A refused build: the last good pages, and why in the banner.
	editFile(t, repo, demoEpisode, `outcome: "<b>bogus</b>"`, "outcome: success")
	for name, title := range map[string]string{"concepts/dup-a.md": "Dup <b>Title</b>", "concepts/dup-b.md": "dup <B>title</B>"} {
		mustWrite(t, filepath.Join(repo, name), "---\ntitle: \""+title+"\"\ntype: concept\n---\nText.\n")
	}
	if err := source.Stage(repo, "concepts/dup-a.md", "concepts/dup-b.md"); err != nil {
		t.Fatal(err)
	}
	body = s.waitFor(t, demoEpisodePage, "showed the refused build", func(res *http.Response, body string) bool {
		return res.StatusCode == http.StatusOK && strings.Contains(body, "build refused")
	})
	for _, want := range []string{"The build failed; this is the last good build.", "have the same title, ignoring case", "&lt;b&gt;", demoTask} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<b>") || strings.Contains(body, "<B>") {
		t.Errorf("note text became markup:\n%s", body)
	}
	if !strings.Contains(s.stderr.String(), "engram serve: the build failed; the preview shows the last good one: build refused: ") {
		t.Errorf("stderr lacks the refused build:\n%s", s.stderr)
	}

	// Fixed: the banner goes away.
	editFile(t, repo, "concepts/dup-b.md", "dup <B>title</B>", "Another title")
	s.waitFor(t, demoEpisodePage, "dropped the banner", func(res *http.Response, body string) bool {
		return res.StatusCode == http.StatusOK && !banner(res, body) && strings.Contains(body, demoTask)
	})
}

// TestServeFirstBuildFails: until a build succeeds every path is a
// placeholder page that says why, escaped; then the site.
func TestServeFirstBuildFails(t *testing.T) {
	repo := t.TempDir()
	files := map[string][]byte{}
	for name, title := range map[string]string{"concepts/a.md": "Dup <b>Title</b>", "concepts/b.md": "dup <B>title</B>"} {
		files[name] = []byte("---\ntitle: \"" + title + "\"\ntype: concept\n---\nText.\n")
	}
	if err := source.WriteRepo(repo, []source.Commit{{Files: files, When: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}}); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, repo)
	res, body := s.get(t, "/concepts/")
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "build refused") || !strings.Contains(body, "&lt;B&gt;title&lt;/B&gt;") || strings.Contains(body, "<B>") {
		t.Errorf("GET /concepts/ before a good build: %s, want 503 and the refusal, escaped:\n%s", res.Status, body)
	}
	if !strings.Contains(body, `<script src="/_engram/reload.js" defer></script>`) {
		t.Errorf("the placeholder does not reload:\n%s", body)
	}
	if got, want := res.Header.Get("Content-Security-Policy"), site.HeadersFor("/").Get("Content-Security-Policy"); got != want {
		t.Errorf("placeholder Content-Security-Policy = %q, want %q", got, want)
	}
	editFile(t, repo, "concepts/b.md", "dup <B>title</B>", "Another title")
	s.waitFor(t, "/", "served the site", func(res *http.Response, body string) bool {
		return res.StatusCode == http.StatusOK && !strings.Contains(body, "engram-serve-errors")
	})
}

// TestServeBadInput: bad flags are usage errors (exit 2); a missing
// repository fails as build fails; a port in use fails clearly.
func TestServeBadInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	port := strconv.Itoa(busy.Addr().(*net.TCPAddr).Port)
	for _, tc := range []struct {
		name string
		args []string
		want int
		says string
	}{
		{"negative port", []string{"serve", "--port", "-1"}, exitUsage, "--port must be a port number"},
		{"port not a number", []string{"serve", "--port", "abc"}, exitUsage, "invalid value"},
		{"port too large", []string{"serve", "--port", "65536"}, exitUsage, "--port must be a port number"},
		{"bad --now", []string{"serve", "--now", "soon"}, exitUsage, "--now"},
		{"an argument", []string{"serve", "--repo", demoRepo, "extra"}, exitUsage, "unexpected argument"},
		{"missing repository", []string{"serve", "--repo", missing, "--port", "0"}, exitFail, "engram: open repository " + missing + ": no such directory\n"},
		{"port in use", []string{"serve", "--repo", demoRepo, "--port", port}, exitFail, "port " + port + " on localhost is in use"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := run(context.Background(), tc.args, &stdout, &stderr); got != tc.want || !strings.Contains(stderr.String(), tc.says) {
				t.Errorf("exit %d, want %d with %q\nstderr:\n%s", got, tc.want, tc.says, stderr.String())
			}
		})
	}
	// The same words as a build.
	var stderr bytes.Buffer
	run(context.Background(), []string{"build", "--repo", missing, "--out", filepath.Join(t.TempDir(), "out")}, io.Discard, &stderr)
	if want := "engram: open repository " + missing + ": no such directory\n"; stderr.String() != want {
		t.Errorf("build of a missing repository says %q, serve says %q", stderr.String(), want)
	}
}
