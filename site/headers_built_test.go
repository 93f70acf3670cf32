package site_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/site"
)

// builtSites builds the demo and a generated repository without a base
// URL, once for the tests that read them, and returns their outputs by
// name.
func builtSites(t *testing.T) map[string]string {
	t.Helper()
	built.once.Do(func() { built.outs, built.err = buildSites() })
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.outs
}

var built struct {
	once sync.Once
	outs map[string]string
	err  error
}

// buildSites makes the sites of builtSites in a folder of its own, left
// to the test binary's TestMain, which removes its temporary directory.
func buildSites() (map[string]string, error) {
	root, err := os.MkdirTemp(os.Getenv("XDG_CACHE_HOME"), "engram-headers-")
	if err != nil {
		return nil, err
	}
	generated := filepath.Join(root, "generated")
	if err := source.WriteRepo(generated, gen.Generate(gen.Sized(60)).Commits); err != nil {
		return nil, err
	}
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	outs := map[string]string{}
	for name, repo := range map[string]string{"demo": filepath.Join("..", "content"), "generated": generated} {
		out := filepath.Join(root, name+"-public")
		if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, Now: &now}); err != nil {
			return nil, err
		}
		outs[name] = out
	}
	return outs, nil
}

// servedPaths are the URL paths of every file of a built site that a host
// serves: the file, and a folder's index.html as the folder too.
func servedPaths(t *testing.T, out string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		u := "/" + filepath.ToSlash(rel)
		if u == "/_headers" || u == "/_redirects" {
			return nil
		}
		paths = append(paths, u)
		if path.Base(u) == "index.html" {
			paths = append(paths, strings.TrimSuffix(u, "index.html"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// cloudflareRule is a rule's path as Cloudflare Pages matches it (its
// asset worker's rules engine): the "*" a greedy group, a ":name" one
// path element, the whole path anchored.
func cloudflareRule(rule string) *regexp.Regexp {
	parts := strings.Split(rule, "*")
	for i, p := range parts {
		parts[i] = regexp.MustCompile(`:[A-Za-z]\w*`).ReplaceAllString(regexp.QuoteMeta(p), `[^/]+`)
	}
	return regexp.MustCompile("^" + strings.Join(parts, "(.*)") + "$")
}

// cloudflareHeaders are the headers Cloudflare Pages sends for urlPath:
// every matching rule's, the values of one header from several rules
// joined with ", ".
func cloudflareHeaders(rules []site.HeaderRule, urlPath string) (joined http.Header, from map[string][]string) {
	joined, from = http.Header{}, map[string][]string{}
	for _, r := range rules {
		if !cloudflareRule(r.For).MatchString(urlPath) {
			continue
		}
		for _, v := range r.Values {
			k := http.CanonicalHeaderKey(v.Name)
			from[k] = append(from[k], r.For)
			if old := joined.Get(k); old != "" {
				joined.Set(k, old+", "+v.Value)
			} else {
				joined.Set(k, v.Value)
			}
		}
	}
	return joined, from
}

// TestHeadersOnePerPath: for every file of a built site (the demo and a
// generated repository), Cloudflare's joining rule finds each header set
// by one rule, so its value is the one the rule gives, and what engram
// serve sends (HeadersFor) is the same.
func TestHeadersOnePerPath(t *testing.T) {
	rules := site.HeaderRules
	for name, out := range builtSites(t) {
		t.Run(name, func(t *testing.T) {
			written := readWrittenRules(t, out)
			if !slices.EqualFunc(written, rules, func(a, b site.HeaderRule) bool { return a.For == b.For && slices.Equal(a.Values, b.Values) }) {
				t.Fatalf("_headers has rules %v, want site.HeaderRules %v", written, rules)
			}
			for _, p := range servedPaths(t, out) {
				joined, from := cloudflareHeaders(written, p)
				for k, rs := range from {
					if len(rs) > 1 {
						t.Errorf("%s: %s is set by %d rules %v: Cloudflare sends %q", p, k, len(rs), rs, joined.Get(k))
					}
				}
				if got := site.HeadersFor(p); !headersEqual(got, joined) {
					t.Errorf("%s: engram serve sends %v, Cloudflare %v", p, got, joined)
				}
			}
			wantTypes := map[string]string{"/api/v1/bootstrap.md": "text/markdown; charset=utf-8", "/feed.json": "application/feed+json; charset=utf-8", "/api/v1/index.json": "application/json; charset=utf-8", "/api/v1/bootstrap/tag-ci.json": "application/json; charset=utf-8", "/episodes/index.json": ""}
			for p, want := range wantTypes {
				if got, _ := cloudflareHeaders(written, p); got.Get("Content-Type") != want {
					t.Errorf("%s: Content-Type %q, want %q", p, got.Get("Content-Type"), want)
				}
			}
		})
	}
}

func headersEqual(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// readWrittenRules parses the _headers a build wrote, in the format the
// hosts read: a path at the start of a line, its headers indented below.
func readWrittenRules(t *testing.T, out string) []site.HeaderRule {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	var rules []site.HeaderRule
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#"):
		case !strings.HasPrefix(line, " "):
			rules = append(rules, site.HeaderRule{For: line})
		case len(rules) > 0:
			name, value, ok := strings.Cut(strings.TrimSpace(line), ":")
			if !ok {
				t.Fatalf("_headers line %q has no name: value", line)
			}
			rules[len(rules)-1].Values = append(rules[len(rules)-1].Values, site.Header{Name: name, Value: strings.TrimSpace(value)})
		default:
			t.Fatalf("_headers line %q comes before any path", line)
		}
	}
	return rules
}

// TestHeadersNetlifyParser: the _headers a build writes, parsed by
// Netlify's own parser (@netlify/headers-parser, installed pinned by
// .ci/run, found through ENGRAM_NETLIFY_HEADERS_PARSER), gives no path of
// the built site the same header from two rules, and every rule it reads
// is one engram wrote.
func TestHeadersNetlifyParser(t *testing.T) {
	dir := os.Getenv("ENGRAM_NETLIFY_HEADERS_PARSER")
	if dir == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("ENGRAM_NETLIFY_HEADERS_PARSER is not set: .ci/run installs @netlify/headers-parser")
		}
		t.Skip("ENGRAM_NETLIFY_HEADERS_PARSER is not set (the folder .ci/run installs @netlify/headers-parser into); skipping")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	for name, out := range builtSites(t) {
		t.Run(name, func(t *testing.T) {
			parsed := netlifyParse(t, node, dir, filepath.Join(out, "_headers"))
			if len(parsed) != len(site.HeaderRules) {
				t.Fatalf("Netlify's parser reads %d rules, engram wrote %d: %+v", len(parsed), len(site.HeaderRules), parsed)
			}
			for _, p := range servedPaths(t, out) {
				seen := map[string]string{}
				for _, r := range parsed {
					if !r.re.MatchString(p) {
						continue
					}
					for k := range r.Values {
						k = http.CanonicalHeaderKey(k)
						if other, ok := seen[k]; ok {
							t.Errorf("%s gets %s from %s and from %s", p, k, other, r.For)
						}
						seen[k] = r.For
					}
				}
			}
		})
	}
}

// netlifyRule is one rule as Netlify's parser returns it, with the
// regular expression it matches paths with (forRegExp).
type netlifyRule struct {
	For    string            `json:"for"`
	Values map[string]string `json:"values"`
	Source string            `json:"re"`
	Flags  string            `json:"flags"`
	re     *regexp.Regexp
}

// netlifyParse runs Netlify's parser on file and returns its rules,
// failing on any error it reports.
func netlifyParse(t *testing.T, node, dir, file string) []netlifyRule {
	t.Helper()
	script := `import('@netlify/headers-parser').then(async (m) => {
  const r = await m.parseAllHeaders({headersFiles: [process.argv[1]], minimal: false});
  const headers = r.headers.map((h) => ({for: h.for, values: h.values, re: h.forRegExp.source, flags: h.forRegExp.flags}));
  process.stdout.write(JSON.stringify({headers, errors: r.errors.map(String)}));
}).catch((e) => { console.error(e); process.exit(1); });`
	cmd := exec.Command(node, "-e", script, file)
	cmd.Dir = dir
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("Netlify's parser: %v", err)
	}
	var res struct {
		Headers []netlifyRule `json:"headers"`
		Errors  []any         `json:"errors"`
	}
	if err := json.Unmarshal(outb, &res); err != nil {
		t.Fatalf("Netlify's parser's output %s: %v", outb, err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("Netlify's parser reports errors: %v", res.Errors)
	}
	for i, r := range res.Headers {
		flags := ""
		if strings.Contains(r.Flags, "i") {
			flags = "(?i)"
		}
		re, err := regexp.Compile(flags + r.Source)
		if err != nil {
			t.Fatalf("Netlify's pattern for %s: %v", r.For, err)
		}
		res.Headers[i].re = re
	}
	return res.Headers
}
