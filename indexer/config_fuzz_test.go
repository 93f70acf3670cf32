package indexer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/BurntSushi/toml"

	"github.com/engramhq/engram/indexer/config"
)

// configSeeds are engram.toml files, good and bad: every key, wrong
// types, out-of-range values, broken TOML, base URLs that are not URLs.
var configSeeds = []string{
	"",
	"title = \"Team memory\"\nbase_url = \"https://example.com/memory/\"\n",
	"base_url = \"/memory\"\n",
	"base_url = \"javascript:alert(1)\"\n",
	"base_url = \"https://\"\n",
	"base_url = \"//evil.example/\"\n",
	"[paths]\nepisodes = [\"eps\", \"more/eps\"]\npatterns = [\"pats\"]\n",
	"[antipatterns]\nmax_success = 0.25\nmin_occurrences = 3\n",
	"[antipatterns]\nmax_success = 1.5\n",
	"[antipatterns]\nmin_occurrences = -1\n",
	"[decay]\nlambda = 0.02\nstale_days = 30\n",
	"[decay]\nlambda = nan\n",
	"[decay]\nstale_days = inf\n",
	"[ttl]\nfact = 180\nepisode = 365.5\n",
	"[ttl]\nfact = 0\n",
	"[ttl]\n\"we\\\"ird\" = 1\n",
	"[bootstrap]\nbudget = 0\n",
	"[events]\nretention_days = 7\n",
	"[poisoning]\nallow = [\"notes/injection.md:override:3f9a2c41d0b7\"]\n",
	"[poisoning]\nallow = \"notes/injection.md:override:3f9a2c41d0b7\"\n",
	"[poisoning]\nallow = [\"\"]\n",
	"[events]\nretention_days = 9999999999999999999999\n",
	"title = 1\n",
	"title = \"a\"\ntitle = \"b\"\n",
	"unknown = 1\n[other]\nx = [1, 2]\n",
	"title = \"unclosed\n",
	"[paths\n",
	"\uFEFFtitle = \"bom\"\r\n",
	"a = {b = {c = {d = {e = 1}}}}\n",
	"x = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
	"\x00\xff",
}

// FuzzLoadConfig reads engram.toml through LoadConfig. Whatever the file
// holds: no panic; an error names engram.toml; a warning names the file
// and a line; a config that loads is valid, stays the same when validated
// again, and survives being written out as TOML and read back.
func FuzzLoadConfig(f *testing.F) {
	for _, s := range configSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, diags, err := config.Load(fstest.MapFS{config.File: {Data: data}})
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, d := range diags {
			if d.Path != config.File || d.Line < 1 || d.Line > lines || d.Rule == "" || d.Message == "" {
				t.Errorf("diagnostic %#v has no path, rule or message, or a line outside 1..%d", d, lines)
			}
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), config.File) {
				t.Fatalf("error %q does not name %s", err, config.File)
			}
			return
		}
		checkConfig(t, c)
		again := c
		if err := again.Validate(); err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("Validate is not idempotent: %v\n%+v\n%+v", err, c, again)
		}
		var buf bytes.Buffer
		if err := toml.NewEncoder(&buf).Encode(c); err != nil {
			t.Fatalf("a loaded config does not encode: %v", err)
		}
		back, _, err := config.Load(fstest.MapFS{config.File: {Data: buf.Bytes()}})
		if err != nil {
			t.Fatalf("a loaded config, written out, does not load: %v\n%s", err, buf.Bytes())
		}
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("round trip changed the config:\n%+v\n%+v\n%s", c, back, buf.Bytes())
		}
	})
}

// checkConfig asserts what Validate promises of a config it accepted.
func checkConfig(t *testing.T, c config.Config) {
	t.Helper()
	if c.Title == "" || (c.BaseURL != "" && !strings.HasSuffix(c.BaseURL, "/")) || len(c.Paths.Episodes) == 0 || len(c.Paths.Patterns) == 0 {
		t.Fatalf("defaults not filled: %+v", c)
	}
	if err := config.CheckBaseURL(c.BaseURL); c.BaseURL != "" && err != nil {
		t.Fatalf("accepted base_url %q is invalid: %v", c.BaseURL, err)
	}
	if c.Antipatterns.MaxSuccess == nil || c.Antipatterns.MinOccurrences == nil || c.Decay.Lambda == nil ||
		c.Decay.StaleDays == nil || c.Bootstrap.Budget == nil || c.Events.RetentionDays == nil {
		t.Fatalf("a default is missing: %+v", c)
	}
	if v := *c.Antipatterns.MaxSuccess; !(v >= 0 && v <= 1) {
		t.Fatalf("max_success %g accepted", v)
	}
	if v := *c.Decay.Lambda; !(v >= 0 && v <= 10) {
		t.Fatalf("lambda %g accepted", v)
	}
	if v := *c.Decay.StaleDays; !(v >= 0) {
		t.Fatalf("stale_days %g accepted", v)
	}
	if *c.Antipatterns.MinOccurrences < 0 || *c.Bootstrap.Budget < 1 || *c.Events.RetentionDays < 1 {
		t.Fatalf("a count below its minimum accepted: %+v", c)
	}
	for k, v := range c.TTL {
		if !(v > 0) {
			t.Fatalf("ttl.%s = %g accepted", k, v)
		}
	}
}

// TestConfigBaseURL: base_url is an http or https URL with a host, or a
// path from the root; anything else is an error naming engram.toml and
// base_url, whether it comes from engram.toml or from --base-url.
func TestConfigBaseURL(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want "" means refused
	}{
		{"/", "/"},
		{"/memory", "/memory/"},
		{"/team/memory/", "/team/memory/"},
		{"https://example.com", "https://example.com/"},
		{"http://localhost:1313/memory/", "http://localhost:1313/memory/"},
		{"HTTPS://Example.com/", "HTTPS://Example.com/"},
		{"https://[::1]:8080/", "https://[::1]:8080/"},
		{"javascript:alert(1)", ""},
		{"JavaScript://example.com/%0Aalert(1)", ""},
		{"data:text/html,<script>alert(1)</script>", ""},
		{"vbscript:msgbox", ""},
		{"file:///etc/", ""},
		{"ftp://example.com/", ""},
		{"https://", ""},
		{"https:example.com", ""},
		{"//evil.example/", ""},
		{"memory/", ""},
		{"example.com", ""},
		{"https://user:hunter2@example.com/", ""},
		{"https://example.com/?q=1", ""},
		{"https://example.com/#top", ""},
		{"/a b/", ""},
		{"/\"onmouseover=alert(1)/", ""},
		{"/<script>/", ""},
		{"/a\x00/", ""},
		{"https://example.com/\n", ""},
	} {
		t.Run(tc.in, func(t *testing.T) {
			doc := "base_url = " + strconv.Quote(tc.in) + "\n"
			c, _, err := config.Load(fstest.MapFS{config.File: {Data: []byte(doc)}})
			if tc.want != "" {
				if err != nil || c.BaseURL != tc.want {
					t.Fatalf("engram.toml %s: base URL %q, %v; want %q", doc, c.BaseURL, err, tc.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("engram.toml %s accepted as %q", doc, c.BaseURL)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, config.File+": ") || !strings.Contains(msg, "base_url") {
				t.Errorf("error %q names neither %s nor base_url", msg, config.File)
			}
			// --base-url: Load validates the flag the same way.
			var flag config.Config
			flag.BaseURL = tc.in
			if err := flag.Validate(); err == nil || !strings.Contains(err.Error(), "base_url") {
				t.Errorf("--base-url %q: %v", tc.in, err)
			}
		})
	}
}

// TestResolveBaseURL: --base-url, else engram.toml, else the host's
// deploy URL; none leaves the site relative; a path has no host, so it is
// not absolute; a host's variable that is not an http(s) URL is not used,
// and says why.
func TestResolveBaseURL(t *testing.T) {
	host := Options{HostURL: "https://deploy-preview-4--memory.netlify.app", HostURLFrom: "$DEPLOY_PRIME_URL"}
	for _, tc := range []struct {
		name            string
		opt             Options
		configured      string
		want, from, why string
		absolute        bool
	}{
		{"nothing", Options{}, "", "", "", "", false},
		{"flag", Options{BaseURL: "https://a.example/m", HostURL: "https://b.example/"}, "https://c.example/", "https://a.example/m/", "--base-url", "", true},
		{"engram.toml", Options{HostURL: "https://b.example/"}, "https://c.example/", "https://c.example/", config.File, "", true},
		{"host", host, "", "https://deploy-preview-4--memory.netlify.app/", "$DEPLOY_PRIME_URL", "", true},
		{"root path", Options{}, "/", "/", config.File, "", false},
		{"path", Options{BaseURL: "/memory"}, "", "/memory/", "--base-url", "", false},
		{"host not a URL", Options{HostURL: "memory.example", HostURLFrom: "$URL"}, "", "", "", `$URL is "memory.example", not an http(s) URL`, false},
		{"host javascript", Options{HostURL: "javascript:alert(1)", HostURLFrom: "$URL"}, "", "", "", `$URL is "javascript:alert(1)", not an http(s) URL`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := resolveBaseURL(tc.opt, tc.configured)
			if err != nil || b.URL != tc.want || b.From != tc.from || b.Why != tc.why {
				t.Errorf("got %+v, %v; want %q from %q, why %q", b, err, tc.want, tc.from, tc.why)
			}
			if b.Absolute() != tc.absolute {
				t.Errorf("Absolute() = %v for %q", b.Absolute(), b.URL)
			}
			if want := map[bool]string{true: "/", false: b.URL}[b.URL == ""]; b.prefix() != want {
				t.Errorf("prefix() = %q, want %q", b.prefix(), want)
			}
		})
	}
	if _, err := resolveBaseURL(Options{BaseURL: "data:text/html,x"}, ""); err == nil || !strings.HasPrefix(err.Error(), "--base-url") {
		t.Errorf("a bad --base-url: %v", err)
	}
}

// TestBuildRefusesBadBaseURL: --base-url is refused before the build
// reads a note, naming the flag.
func TestBuildRefusesBadBaseURL(t *testing.T) {
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.md"), []byte("---\ntitle: A\n---\nText.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	_, err := Build(context.Background(), Options{Repo: repo, Out: out, BaseURL: "javascript:alert(1)", CacheDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "--base-url") || !strings.Contains(err.Error(), "base_url") {
		t.Fatalf("build with --base-url javascript: gave %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err == nil {
		t.Fatal("a site was written")
	}
}
