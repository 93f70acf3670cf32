package site

import (
	"bytes"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// Header is one HTTP response header.
type Header struct{ Name, Value string }

// HeaderRule gives the headers of every path For matches: a For that ends
// in "*" matches any rest, any other must equal the path.
type HeaderRule struct {
	For    string
	Values []Header
}

// csp lets a page load nothing but the site's own files: no inline script,
// no inline style (not even a style attribute), nothing from elsewhere.
const csp = "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// HeaderRules are the headers the site is served with, in the order
// Netlify applies them: a later rule that matches overrides an earlier one
// for the same header. Every build writes them as _headers into its
// output, where Netlify (and Cloudflare Pages) read them, and engram serve
// sends them, so a preview runs under the policy of the deployed site.
var HeaderRules = []HeaderRule{
	// HTML is revalidated on every visit, so a push shows at once.
	{"/*", []Header{
		{"Content-Security-Policy", csp},
		{"X-Content-Type-Options", "nosniff"},
		{"Referrer-Policy", "strict-origin-when-cross-origin"},
		{"Cache-Control", "public, max-age=0, must-revalidate"},
	}},
	// The stylesheets and scripts keep their names from build to build:
	// cached for an hour, then revalidated.
	{"/css/*", []Header{{"Cache-Control", "public, max-age=3600, stale-while-revalidate=86400"}}},
	{"/js/*", []Header{{"Cache-Control", "public, max-age=3600, stale-while-revalidate=86400"}}},
	// Agents fetch the JSON API from anywhere, browsers included; the
	// Markdown bootstrap keeps its own type.
	{"/api/*", []Header{
		{"Content-Type", "application/json; charset=utf-8"},
		{"Access-Control-Allow-Origin", "*"},
		{"Cache-Control", "public, max-age=300"},
	}},
	{"/api/v1/bootstrap.md", []Header{{"Content-Type", "text/markdown; charset=utf-8"}}},
	// llms.txt and the feeds are for agents and readers too.
	{"/llms.txt", []Header{{"Content-Type", "text/plain; charset=utf-8"}, {"Access-Control-Allow-Origin", "*"}}},
	{"/feed.json", []Header{{"Content-Type", "application/feed+json; charset=utf-8"}, {"Access-Control-Allow-Origin", "*"}}},
	{"/index.xml", []Header{{"Content-Type", "application/rss+xml; charset=utf-8"}}},
}

// headersFile is the name of the rules in the output, in Netlify's format.
const headersFile = "_headers"

// HeadersFor returns the headers of urlPath (a path from the site's
// root), the later rule winning for the same header.
func HeadersFor(urlPath string) http.Header {
	h := http.Header{}
	for _, r := range HeaderRules {
		if matchHeaderRule(r.For, urlPath) {
			for _, v := range r.Values {
				h.Set(v.Name, v.Value)
			}
		}
	}
	return h
}

func matchHeaderRule(rule, urlPath string) bool {
	if prefix, ok := strings.CutSuffix(rule, "*"); ok {
		return strings.HasPrefix(urlPath, prefix)
	}
	return rule == urlPath
}

// renderHeaders writes HeaderRules in the _headers format.
func renderHeaders() []byte {
	var b bytes.Buffer
	b.WriteString("# Written by engram build: the headers the site is served with (Netlify's\n# _headers format; a later rule overrides an earlier one for a header).\n")
	for _, r := range HeaderRules {
		b.WriteString(r.For + "\n")
		for _, v := range r.Values {
			b.WriteString("  " + v.Name + ": " + v.Value + "\n")
		}
	}
	return b.Bytes()
}

// Handler serves a built site from dir as Netlify would: with
// HeaderRules, and the rewrites of its _redirects where no file answers.
// prefix is the path the site is served under ("" for the root): it is
// removed before the rules are matched.
func Handler(dir, prefix string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	var once sync.Once
	var rules []rewrite
	return http.StripPrefix(prefix, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() {
			if data, err := os.ReadFile(filepath.Join(dir, redirectsFile)); err == nil {
				rules = parseRedirects(data)
			}
		})
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(path.Clean("/"+r.URL.Path)))); err != nil {
			for _, rule := range rules {
				if to, ok := rule.apply(r.URL.Path); ok {
					r = r.Clone(r.Context())
					r.URL.Path = to
					break
				}
			}
		}
		for k, v := range HeadersFor(r.URL.Path) {
			w.Header()[k] = v
		}
		files.ServeHTTP(w, r)
	}))
}
