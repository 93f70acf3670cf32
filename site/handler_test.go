package site_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engramhq/engram/site"
)

// TestHandlerAsNetlify: Handler serves a built site as Netlify does: a
// missing page answers 404 with the site's 404.html and its headers; the
// host's files _headers and _redirects are not served; a folder without
// an index.html is not listed; a path with ".." (plain or escaped) is
// refused and never reaches a file outside the site.
func TestHandlerAsNetlify(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "public")
	for name, body := range map[string]string{
		"index.html":             "<!doctype html><title>home</title>",
		"404.html":               "<!doctype html><title>Not found</title>",
		"_headers":               "/*\n  X-Test: no\n",
		"_redirects":             "/episodes/:slug/index.json  /api/v1/episodes/:slug.json  200\n",
		"episodes/x/index.html":  "<!doctype html><title>x</title>",
		"api/v1/episodes/x.json": `{"id":"x"}`,
		"css/engram.css":         "main{}",
		"empty/note.txt":         "a folder without index.html",
	} {
		full := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "secret.txt"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site.Handler(dir, ""))
	defer srv.Close()
	for _, tc := range []struct {
		path, body string
		status     int
	}{
		{"/", "<title>home</title>", 200},
		{"/episodes/x/", "<title>x</title>", 200},
		{"/episodes/x/index.json", `{"id":"x"}`, 200},
		{"/css/engram.css", "main{}", 200},
		{"/nope/", "<title>Not found</title>", 404},
		{"/episodes/x/y/z/", "<title>Not found</title>", 404},
		{"/episodes/y/index.json", "<title>Not found</title>", 404},
		{"/_headers", "<title>Not found</title>", 404},
		{"/_redirects", "<title>Not found</title>", 404},
		{"/empty/", "<title>Not found</title>", 404},
		{"/a%20b/", "<title>Not found</title>", 404},
		{"/" + strings.Repeat("deep/", 400), "<title>Not found</title>", 404},
		{"/../secret.txt", "", 400},
		{"/%2e%2e/secret.txt", "", 400},
		{"/css/%2e%2e/%2e%2e/secret.txt", "", 400},
	} {
		t.Run(tc.path, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.URL.Opaque = tc.path // sent as it is, not cleaned by the client
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.status || !strings.Contains(string(body), tc.body) || strings.Contains(string(body), "outside") {
				t.Fatalf("GET %s: %s %q, want %d with %q", tc.path, res.Status, body, tc.status, tc.body)
			}
			if tc.status == 404 {
				if res.Header.Get("Content-Type") != "text/html; charset=utf-8" || !strings.Contains(res.Header.Get("Content-Security-Policy"), "default-src 'none'") {
					t.Errorf("GET %s: the 404 page's headers %v", tc.path, res.Header)
				}
			}
			if res.Header.Get("X-Test") != "" {
				t.Errorf("GET %s: headers from the output's _headers, not site.HeaderRules: %v", tc.path, res.Header)
			}
		})
	}
}
