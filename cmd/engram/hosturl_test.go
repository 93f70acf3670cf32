package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostURL: the deploy URL is read from each host's variables, the
// host's own before Netlify's URL; a production deploy on Vercel gets the
// production address, a preview its branch's; Vercel's hosts get https.
// A value that is not a URL is passed on as it is (the build refuses it).
func TestHostURL(t *testing.T) {
	for _, tc := range []struct {
		name      string
		env       map[string]string
		url, from string
	}{
		{"none", nil, "", ""},
		{"Netlify production", map[string]string{"URL": "https://memory.example.com", "CONTEXT": "production", "DEPLOY_PRIME_URL": "https://main--m.netlify.app"}, "https://memory.example.com", "$URL"},
		{"Netlify deploy preview", map[string]string{"URL": "https://memory.example.com", "CONTEXT": "deploy-preview", "DEPLOY_PRIME_URL": "https://deploy-preview-4--m.netlify.app"}, "https://deploy-preview-4--m.netlify.app", "$DEPLOY_PRIME_URL"},
		{"Netlify branch deploy without its URL", map[string]string{"URL": "https://memory.example.com", "CONTEXT": "branch-deploy"}, "https://memory.example.com", "$URL"},
		{"Cloudflare Pages", map[string]string{"CF_PAGES": "1", "CF_PAGES_BRANCH": "main", "CF_PAGES_URL": "https://3a5c.memory.pages.dev"}, "https://3a5c.memory.pages.dev", "$CF_PAGES_URL"},
		{"Cloudflare Pages before a stray URL", map[string]string{"CF_PAGES_URL": "https://3a5c.memory.pages.dev", "URL": "https://elsewhere.example"}, "https://3a5c.memory.pages.dev", "$CF_PAGES_URL"},
		{"Vercel production", map[string]string{"VERCEL": "1", "VERCEL_ENV": "production", "VERCEL_URL": "m-3a5c.vercel.app", "VERCEL_BRANCH_URL": "m-git-main.vercel.app", "VERCEL_PROJECT_PRODUCTION_URL": "memory.example.com"}, "https://memory.example.com", "$VERCEL_PROJECT_PRODUCTION_URL"},
		{"Vercel preview", map[string]string{"VERCEL": "1", "VERCEL_ENV": "preview", "VERCEL_URL": "m-3a5c.vercel.app", "VERCEL_BRANCH_URL": "m-git-fix.vercel.app", "VERCEL_PROJECT_PRODUCTION_URL": "memory.example.com"}, "https://m-git-fix.vercel.app", "$VERCEL_BRANCH_URL"},
		{"Vercel preview without a branch", map[string]string{"VERCEL_ENV": "preview", "VERCEL_URL": "m-3a5c.vercel.app"}, "https://m-3a5c.vercel.app", "$VERCEL_URL"},
		{"Vercel production without its address", map[string]string{"VERCEL_ENV": "production", "VERCEL_URL": "m-3a5c.vercel.app"}, "https://m-3a5c.vercel.app", "$VERCEL_URL"},
		{"Vercel with a scheme already", map[string]string{"VERCEL_URL": "https://m.vercel.app"}, "https://m.vercel.app", "$VERCEL_URL"},
		{"GitLab Pages", map[string]string{"GITLAB_CI": "true", "CI_PAGES_URL": "https://group.gitlab.io/memory"}, "https://group.gitlab.io/memory", "$CI_PAGES_URL"},
		// Bad values: passed on, for the build to refuse and say why.
		{"empty CF_PAGES_URL falls through", map[string]string{"CF_PAGES_URL": "", "URL": "https://memory.example.com"}, "https://memory.example.com", "$URL"},
		{"Cloudflare not a URL", map[string]string{"CF_PAGES_URL": "not a url"}, "not a url", "$CF_PAGES_URL"},
		{"Vercel spaces only", map[string]string{"VERCEL_URL": "   "}, "", ""},
		{"GitLab javascript", map[string]string{"CI_PAGES_URL": "javascript:alert(1)"}, "javascript:alert(1)", "$CI_PAGES_URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, from := hostURL(func(k string) string { return tc.env[k] })
			if url != tc.url || from != tc.from {
				t.Errorf("hostURL = %q from %q, want %q from %q", url, from, tc.url, tc.from)
			}
		})
	}
}

// TestBuildHostURL: a build on each host takes the address its variable
// gives into the sitemap; one that is not an http(s) URL is refused with
// a warning that names the variable, and the site is relative.
func TestBuildHostURL(t *testing.T) {
	for _, tc := range []struct {
		name, key, value string
		sitemap, warns   string
	}{
		{"Cloudflare Pages", "CF_PAGES_URL", "https://3a5c.memory.pages.dev", "<loc>https://3a5c.memory.pages.dev/episodes/", ""},
		{"Vercel", "VERCEL_URL", "m-3a5c.vercel.app", "<loc>https://m-3a5c.vercel.app/episodes/", ""},
		{"GitLab Pages", "CI_PAGES_URL", "https://group.gitlab.io/memory", "<loc>https://group.gitlab.io/memory/episodes/", ""},
		{"not a URL", "CF_PAGES_URL", "memory.pages.dev", "<loc>episodes/", `no base URL ($CF_PAGES_URL is "memory.pages.dev", not an http(s) URL)`},
		{"a space in the host", "VERCEL_URL", "m 3a5c.vercel.app", "<loc>episodes/", `no base URL ($VERCEL_URL is "https://m 3a5c.vercel.app", not an http(s) URL)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"URL", "DEPLOY_PRIME_URL", "CONTEXT", "CF_PAGES_URL", "VERCEL_ENV", "VERCEL_URL", "VERCEL_BRANCH_URL", "VERCEL_PROJECT_PRODUCTION_URL", "CI_PAGES_URL"} {
				t.Setenv(k, "")
			}
			t.Setenv(tc.key, tc.value)
			out := filepath.Join(t.TempDir(), "public")
			var stderr strings.Builder
			if code := run(context.Background(), []string{"build", "--repo", demoRepo, "--out", out}, io.Discard, &stderr); code != 0 {
				t.Fatalf("exit %d:\n%s", code, stderr.String())
			}
			sitemap, err := os.ReadFile(filepath.Join(out, "sitemap.xml"))
			if err != nil || !strings.Contains(string(sitemap), tc.sitemap) {
				t.Errorf("sitemap lacks %q (%v):\n%.600s", tc.sitemap, err, sitemap)
			}
			if tc.warns != "" && !strings.Contains(stderr.String(), tc.warns) {
				t.Errorf("stderr lacks %q:\n%s", tc.warns, stderr.String())
			}
		})
	}
}
