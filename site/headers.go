package site

import (
	"bytes"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Header is one HTTP response header.
type Header struct{ Name, Value string }

// HeaderRule gives the headers of every path For matches: a "*" in For
// (one at most) matches any run of characters, the rest must be equal.
type HeaderRule struct {
	For    string
	Values []Header
}

// csp lets a page load nothing but the site's own files: no inline script,
// no inline style (not even a style attribute), nothing from elsewhere.
const csp = "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// HeaderRules are the headers the site is served with. Every build writes
// them as _headers into its output, where Netlify and Cloudflare Pages
// read them, and engram serve sends them, so a preview runs under the
// policy of the deployed site.
//
// For every path, each header is set by one matching rule at most: the
// hosts do not agree on what two rules setting the same header mean
// (Cloudflare Pages joins their values with a comma, which makes two
// Content-Types or two Cache-Controls of one), so no rule relies on
// another being overridden. The order is then of no consequence. What no
// rule sets the host sends as it would anyway: the pages' Cache-Control
// is the one Netlify and Cloudflare Pages send by default (DefaultHeaders),
// and a page's Content-Type the one of its extension.
var HeaderRules = []HeaderRule{
	// Every response: the policy and the two headers beside it.
	{"/*", []Header{
		{"Content-Security-Policy", csp},
		{"X-Content-Type-Options", "nosniff"},
		{"Referrer-Policy", "strict-origin-when-cross-origin"},
	}},
	// The stylesheets and scripts keep their names from build to build:
	// cached for an hour, then revalidated.
	{"/css/*", []Header{{"Cache-Control", assetCache}}},
	{"/js/*", []Header{{"Cache-Control", assetCache}}},
	// Agents fetch the JSON API from anywhere, browsers included.
	{"/api/*", []Header{
		{"Access-Control-Allow-Origin", "*"},
		{"Cache-Control", "public, max-age=300"},
	}},
	// The API's files say their type and charset: JSON, and the Markdown
	// bootstraps, whole and by area. (A splat inside a path's last element
	// matches across folders on both hosts: Netlify's parser makes it
	// "(.*)", Cloudflare's rules engine too.)
	{"/api/*.json", []Header{{"Content-Type", "application/json; charset=utf-8"}}},
	{"/api/v1/bootstrap.md", []Header{{"Content-Type", markdownType}}},
	{"/api/v1/bootstrap/*.md", []Header{{"Content-Type", markdownType}}},
	// llms.txt and the feeds are for agents and readers too.
	{"/llms.txt", []Header{{"Content-Type", "text/plain; charset=utf-8"}, {"Access-Control-Allow-Origin", "*"}}},
	{"/feed.json", []Header{{"Content-Type", "application/feed+json; charset=utf-8"}, {"Access-Control-Allow-Origin", "*"}}},
	{"/index.xml", []Header{{"Content-Type", "application/rss+xml; charset=utf-8"}}},
}

const (
	assetCache   = "public, max-age=3600, stale-while-revalidate=86400"
	markdownType = "text/markdown; charset=utf-8"
)

// DefaultHeaders are what Netlify and Cloudflare Pages send where no rule
// of _headers sets the header: every file revalidated on every visit, so
// a push shows at once. engram serve sends them too, as those hosts do.
var DefaultHeaders = []Header{{"Cache-Control", "public, max-age=0, must-revalidate"}}

// headersFile is the name of the rules in the output, in Netlify's format.
const headersFile = "_headers"

// HeadersFor returns the headers the rules give urlPath (a path from the
// site's root): those of every rule that matches it. No two matching
// rules set one header (TestHeadersOnePerPath), so this is what Netlify
// and Cloudflare Pages send, DefaultHeaders aside.
func HeadersFor(urlPath string) http.Header {
	h := http.Header{}
	for _, r := range HeaderRules {
		if matchHeaderRule(r.For, urlPath) {
			for _, v := range r.Values {
				h.Add(v.Name, v.Value)
			}
		}
	}
	return h
}

// matchHeaderRule reports whether rule matches urlPath as Cloudflare
// Pages matches it: a "*" (one at most) matches any run of characters,
// slashes included, and the rest must equal the path. Netlify matches a
// little more (a trailing slash is optional, case is ignored, and "/css/*"
// also matches "/cssx"), which over the paths a site has makes the same
// choice: TestHeadersNetlifyParser applies Netlify's own patterns.
func matchHeaderRule(rule, urlPath string) bool {
	before, after, splat := strings.Cut(rule, "*")
	if !splat {
		return rule == urlPath
	}
	return len(urlPath) >= len(before)+len(after) && strings.HasPrefix(urlPath, before) && strings.HasSuffix(urlPath, after)
}

// renderHeaders writes HeaderRules in the _headers format.
func renderHeaders() []byte {
	var b bytes.Buffer
	b.WriteString("# Written by engram build: the headers the site is served with (the\n# _headers format of Netlify and Cloudflare Pages). No path gets one\n# header from two rules.\n")
	for _, r := range HeaderRules {
		b.WriteString(r.For + "\n")
		for _, v := range r.Values {
			b.WriteString("  " + v.Name + ": " + v.Value + "\n")
		}
	}
	return b.Bytes()
}

// Handler serves a built site from dir as Netlify would: with
// HeaderRules and DefaultHeaders, the rewrites of its _redirects where no
// file answers, and where nothing answers its 404.html with status 404.
// Neither _headers nor _redirects is served: they are the host's, not
// the site's. prefix is the path the site is served under ("" for the
// root): it is removed before the rules are matched.
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
		if hasDotDot(r.URL.Path) {
			http.Error(w, "400 bad request: a path with ..", http.StatusBadRequest)
			return
		}
		if !servable(dir, r.URL.Path) {
			to, ok := rewriteTo(rules, r.URL.Path)
			if !ok || !servable(dir, to) {
				notFound(w, r, dir)
				return
			}
			r = r.Clone(r.Context())
			r.URL.Path = to
		}
		setHeaders(w, r.URL.Path)
		files.ServeHTTP(w, r)
	}))
}

// servable reports whether urlPath names what the host serves: a file of
// dir, or a folder with an index.html (a folder without one is not
// listed), but not the host's own files.
func servable(dir, urlPath string) bool {
	clean := path.Clean("/" + urlPath)
	if clean == "/"+headersFile || clean == "/"+redirectsFile {
		return false
	}
	full := filepath.Join(dir, filepath.FromSlash(clean))
	info, err := os.Stat(full)
	if err == nil && info.IsDir() {
		info, err = os.Stat(filepath.Join(full, "index.html"))
	}
	return err == nil && !info.IsDir()
}

// rewriteTo is the path the first rule that matches urlPath serves.
func rewriteTo(rules []rewrite, urlPath string) (string, bool) {
	for _, rule := range rules {
		if to, ok := rule.apply(urlPath); ok {
			return to, true
		}
	}
	return "", false
}

// hasDotDot reports whether urlPath has a ".." element, which no page of
// the site has ("%2e%2e" is one too: the path is already decoded).
func hasDotDot(urlPath string) bool {
	return slices.Contains(strings.Split(strings.ReplaceAll(urlPath, "\\", "/"), "/"), "..")
}

// setHeaders sets the headers of urlPath: the rules', then the hosts'
// defaults where no rule set one.
func setHeaders(w http.ResponseWriter, urlPath string) {
	h := w.Header()
	for k, v := range HeadersFor(urlPath) {
		h[k] = v
	}
	for _, d := range DefaultHeaders {
		if h.Get(d.Name) == "" {
			h.Set(d.Name, d.Value)
		}
	}
}

// notFound answers 404 with the site's 404.html, served with that file's
// headers, as Netlify does; a site without one gets a plain 404.
func notFound(w http.ResponseWriter, r *http.Request, dir string) {
	page, err := os.ReadFile(filepath.Join(dir, "404.html"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	setHeaders(w, "/404.html")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(page)
	}
}
