package site

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestHeadersFile: the _headers a build writes reads back, in Netlify's
// format, as the rules the preview server sends.
func TestHeadersFile(t *testing.T) {
	var got []HeaderRule
	sc := bufio.NewScanner(bytes.NewReader(renderHeaders()))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "/"):
			got = append(got, HeaderRule{For: line})
		case strings.HasPrefix(line, "  ") && len(got) > 0:
			name, value, ok := strings.Cut(strings.TrimSpace(line), ": ")
			if !ok {
				t.Fatalf("header line %q has no name: value", line)
			}
			got[len(got)-1].Values = append(got[len(got)-1].Values, Header{name, value})
		default:
			t.Fatalf("line %q is neither a path nor an indented header", line)
		}
	}
	if len(got) != len(HeaderRules) {
		t.Fatalf("_headers has %d rules, want %d", len(got), len(HeaderRules))
	}
	for i := range got {
		if got[i].For != HeaderRules[i].For || len(got[i].Values) != len(HeaderRules[i].Values) {
			t.Errorf("rule %d: %+v, want %+v", i, got[i], HeaderRules[i])
		}
	}
	if h := HeadersFor("/api/v1/bootstrap.md"); h.Get("Content-Type") != "text/markdown; charset=utf-8" || h.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("bootstrap.md headers: %v", h)
	}
	if h := HeadersFor("/css/engram.css"); h.Get("Cache-Control") != assetCache {
		t.Errorf("the stylesheet's headers: %v", h)
	}
	for _, r := range HeaderRules {
		if err := checkRulePath(r.For); err != nil {
			t.Error(err)
		}
	}
	// Cloudflare Pages reads at most 100 rules, of lines of at most 2,000
	// characters.
	if len(HeaderRules) > 100 {
		t.Errorf("%d rules: Cloudflare Pages reads 100", len(HeaderRules))
	}
	for _, line := range strings.Split(string(renderHeaders()), "\n") {
		if len(line) > 2000 {
			t.Errorf("a line of %d characters: Cloudflare Pages reads 2,000: %.80s", len(line), line)
		}
	}
}

// TestCheckRulePath: a rule's path the hosts would read otherwise than
// engram matches it is refused.
func TestCheckRulePath(t *testing.T) {
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{"/*", true},
		{"/api/v1/bootstrap/*.md", true},
		{"/llms.txt", true},
		{"/a b", false},
		{"/a\tb", false},
		{"api/*", false},
		{"", false},
		{"/*/x/*", false},
		{"/episodes/:slug", false},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if err := checkRulePath(tc.path); (err == nil) != tc.ok {
				t.Errorf("checkRulePath(%q) = %v, want ok %v", tc.path, err, tc.ok)
			}
		})
	}
}

// TestMatchHeaderRule: a splat matches any run of characters, slashes
// included, where it stands; the rest of the path must be equal.
func TestMatchHeaderRule(t *testing.T) {
	for _, tc := range []struct {
		rule, path string
		want       bool
	}{
		{"/*", "/", true},
		{"/*", "/episodes/x/", true},
		{"/css/*", "/css/engram.css", true},
		{"/css/*", "/cssx", false},
		{"/api/v1/bootstrap/*.md", "/api/v1/bootstrap/tag-ci.md", true},
		{"/api/v1/bootstrap/*.md", "/api/v1/bootstrap/tag-ci.json", false},
		{"/api/v1/bootstrap/*.md", "/api/v1/bootstrap.md", false},
		{"/api/*.json", "/api/v1/episodes/x.json", true},
		{"/api/*.json", "/api/v1/bootstrap.md", false},
		{"/llms.txt", "/llms.txt", true},
		{"/llms.txt", "/llms.txt/", false},
	} {
		t.Run(tc.rule+" "+tc.path, func(t *testing.T) {
			if got := matchHeaderRule(tc.rule, tc.path); got != tc.want {
				t.Errorf("matchHeaderRule(%q, %q) = %v, want %v", tc.rule, tc.path, got, tc.want)
			}
		})
	}
}

// TestTwinRewrites: a page whose twin is an API file is served that file
// at index.json, by a rule per folder of notes or per page, as _redirects
// tells Netlify; Handler follows the same rules.
func TestTwinRewrites(t *testing.T) {
	ps := []page{
		{path: "episodes/x.md", api: "api/v1/episodes/x.json"},
		{path: "episodes/y.md", api: "api/v1/episodes/y.json"},
		{path: "episodes/_index.md", api: "api/v1/episodes.json"},
		{path: "_index.md", api: "api/v1/index.json"},
		{path: "tags/_index.md", twin: []string{}},
	}
	rules := twinRewrites(ps)
	got := parseRedirects(renderRedirects(rules))
	want := []rewrite{{"/episodes/:slug/index.json", "/api/v1/episodes/:slug.json"}, {"/episodes/index.json", "/api/v1/episodes.json"}, {"/index.json", "/api/v1/index.json"}}
	if !slices.Equal(got, want) {
		t.Fatalf("rules %v, want %v", got, want)
	}
	for _, tc := range []struct{ path, want string }{
		{"/episodes/x/index.json", "/api/v1/episodes/x.json"},
		{"/episodes/index.json", "/api/v1/episodes.json"},
		{"/index.json", "/api/v1/index.json"},
		{"/episodes/a/b/index.json", ""},
		{"/episodes//index.json", ""},
		{"/patterns/x/index.json", ""},
	} {
		to := ""
		for _, r := range got {
			if p, ok := r.apply(tc.path); ok {
				to = p
				break
			}
		}
		if to != tc.want {
			t.Errorf("%s is served %q, want %q", tc.path, to, tc.want)
		}
	}
}

// checkRulePath says what is wrong with a rule's path, which the hosts
// read up to a space and match with one splat at most.
func checkRulePath(p string) error {
	switch {
	case !strings.HasPrefix(p, "/"):
		return fmt.Errorf("rule path %q does not start with /", p)
	case strings.ContainsFunc(p, unicode.IsSpace):
		return fmt.Errorf("rule path %q has a space", p)
	case strings.Count(p, "*") > 1:
		return fmt.Errorf("rule path %q has more than one *", p)
	case strings.Contains(p, ":"):
		return fmt.Errorf("rule path %q has a : (a placeholder to the hosts)", p)
	}
	return nil
}
