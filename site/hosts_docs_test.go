package site_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/engramhq/engram/site"
)

// checkedExample returns the fenced block that follows the line
// "<!-- checked: name -->" in docs/publishing.md.
func checkedExample(t *testing.T, name string) []byte {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "publishing.md"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- checked: " + regexp.QuoteMeta(name) + " -->\n```[a-z]*\n(.*?)\n```")
	m := re.FindSubmatch(doc)
	if m == nil {
		t.Fatalf("docs/publishing.md has no example %s", name)
	}
	return m[1]
}

// TestVercelExample: the vercel.json of docs/publishing.md parses, builds
// into public/, and sends the headers of site.HeaderRules, rule for rule
// (Vercel reads no _headers), in Vercel's patterns.
func TestVercelExample(t *testing.T) {
	var cfg struct {
		BuildCommand    string `json:"buildCommand"`
		OutputDirectory string `json:"outputDirectory"`
		Headers         []struct {
			Source  string `json:"source"`
			Headers []struct {
				Key   string `json:"key"`
				Value string `json:"value"`
			} `json:"headers"`
		} `json:"headers"`
		Rewrites []struct{ Source, Destination string } `json:"rewrites"`
	}
	if err := json.Unmarshal(checkedExample(t, "vercel.json"), &cfg); err != nil {
		t.Fatalf("vercel.json: %v", err)
	}
	if cfg.OutputDirectory != "public" || !strings.Contains(cfg.BuildCommand, "build --out public") {
		t.Errorf("vercel.json builds %q into %q", cfg.BuildCommand, cfg.OutputDirectory)
	}
	var got, want []site.HeaderRule
	for _, h := range cfg.Headers {
		r := site.HeaderRule{For: h.Source}
		for _, v := range h.Headers {
			r.Values = append(r.Values, site.Header{Name: v.Key, Value: v.Value})
		}
		got = append(got, r)
	}
	for _, r := range site.HeaderRules {
		want = append(want, site.HeaderRule{For: strings.ReplaceAll(r.For, "*", "(.*)"), Values: r.Values})
	}
	if !slices.EqualFunc(got, want, func(a, b site.HeaderRule) bool { return a.For == b.For && slices.Equal(a.Values, b.Values) }) {
		t.Errorf("vercel.json's headers are\n%v\nwant site.HeaderRules in Vercel's patterns\n%v", got, want)
	}
	for _, r := range cfg.Rewrites {
		if !strings.HasPrefix(r.Source, "/") || !strings.HasPrefix(r.Destination, "/api/v1/") || strings.Contains(r.Source, ":slug") != strings.Contains(r.Destination, ":slug") {
			t.Errorf("rewrite %+v is not one of _redirects' kind", r)
		}
	}
}

// TestGitLabExample: the .gitlab-ci.yml of docs/publishing.md parses into
// a pages job that fetches the whole history, builds into public/, keeps
// it as the artifact, and runs on the default branch only.
func TestGitLabExample(t *testing.T) {
	var cfg map[string]struct {
		Image     string            `yaml:"image"`
		Variables map[string]string `yaml:"variables"`
		Script    []string          `yaml:"script"`
		Artifacts struct {
			Paths []string `yaml:"paths"`
		} `yaml:"artifacts"`
		Rules []struct {
			If string `yaml:"if"`
		} `yaml:"rules"`
	}
	if err := yaml.Unmarshal(checkedExample(t, ".gitlab-ci.yml"), &cfg); err != nil {
		t.Fatalf(".gitlab-ci.yml: %v", err)
	}
	job, ok := cfg["pages"]
	if !ok {
		t.Fatalf(".gitlab-ci.yml has no pages job: %v", cfg)
	}
	if job.Variables["GIT_DEPTH"] != "0" {
		t.Errorf("GIT_DEPTH %q: a shallow clone dates every note to the last commit", job.Variables["GIT_DEPTH"])
	}
	if !slices.Contains(job.Script, "engram build --out public") || !slices.Equal(job.Artifacts.Paths, []string{"public"}) {
		t.Errorf("the pages job runs %v and keeps %v", job.Script, job.Artifacts.Paths)
	}
	if len(job.Rules) != 1 || job.Rules[0].If != "$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH" {
		t.Errorf("the pages job runs on %v, want the default branch only", job.Rules)
	}
}
