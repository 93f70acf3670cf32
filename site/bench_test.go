package site_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/site"
)

// The 10,000-note repository is written once per test binary: git writes
// dominate its cost and both benchmarks share it.
var (
	corpusOnce sync.Once
	corpusDir  string
	corpus     gen.Corpus
	corpusErr  error
)

func repo10k(b *testing.B) (string, gen.Corpus) {
	b.Helper()
	corpusOnce.Do(func() {
		corpus = gen.Generate(gen.Sized(10_000))
		corpusDir, corpusErr = os.MkdirTemp("", "engram-bench-")
		if corpusErr == nil {
			corpusErr = source.WriteRepo(corpusDir, corpus.Commits)
		}
	})
	if corpusErr != nil {
		b.Fatal(corpusErr)
	}
	return corpusDir, corpus
}

// BenchmarkBuild10k is the whole engram build of 10,000 notes: git history,
// parsing, graph, JSON and the Hugo site, written atomically; it reports
// the seconds of each stage.
func BenchmarkBuild10k(b *testing.B) {
	repo, _ := repo10k(b)
	i := 0
	stages := map[string]float64{}
	for b.Loop() {
		// A fresh output folder each time, as for Hugo alone: replacing a
		// previous output also deletes it, which is measured apart.
		i++
		out := filepath.Join(b.TempDir(), fmt.Sprint(i))
		// And an empty page store: every page is rendered.
		r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range r.Stages {
			stages[s.Name] += s.Duration.Seconds()
		}
	}
	// Each stage's seconds per build, to profile with (-cpuprofile).
	for name, total := range stages {
		b.ReportMetric(total/float64(b.N), name+"-s/op")
	}
}

// BenchmarkIncremental10k is a build of the 10,000 notes after an edit,
// into the output and with the page store of the build before it: one
// episode changed (one-note), or one pattern that episodes cite given a
// new trigger and success rate (pattern). Each iteration undoes the
// previous one's edit, so every build has exactly one note changed; the
// repository is as it was when the benchmark ends.
func BenchmarkIncremental10k(b *testing.B) {
	repo, c := repo10k(b)
	var episode, pattern string
	for _, p := range slices.Sorted(maps.Keys(c.FS())) {
		switch {
		case episode == "" && strings.HasPrefix(p, "episodes/"):
			episode = p
		case pattern == "" && strings.HasPrefix(p, "patterns/PATTERN-"):
			pattern = p
		}
	}
	for _, bc := range []struct {
		name, note string
		edit       func([]byte) []byte
	}{
		{"one-note", episode, func(d []byte) []byte { return append(d, "\n- One more line in the last section.\n"...) }},
		{"pattern", pattern, func(d []byte) []byte {
			return regexp.MustCompile(`(?m)^trigger: .*$`).ReplaceAll(bytes.Replace(d, []byte("success_rate: 0."), []byte("success_rate: 0.0"), 1), []byte("trigger: when the benchmark edits it"))
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			file := filepath.Join(repo, filepath.FromSlash(bc.note))
			original, err := os.ReadFile(file)
			if err != nil {
				b.Fatal(err)
			}
			write := func(data []byte) {
				if err := os.WriteFile(file, data, 0o644); err != nil {
					b.Fatal(err)
				}
				if err := source.Stage(repo, bc.note); err != nil {
					b.Fatal(err)
				}
			}
			defer write(original)
			out, cache := filepath.Join(b.TempDir(), "public"), b.TempDir()
			if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: cache}); err != nil {
				b.Fatal(err)
			}
			edited, i := bc.edit(original), 0
			stages := map[string]float64{}
			var reused, rendered int
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				if i++; i%2 == 1 {
					write(edited)
				} else {
					write(original)
				}
				b.StartTimer()
				r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: cache})
				if err != nil {
					b.Fatal(err)
				}
				for _, s := range r.Stages {
					stages[s.Name] += s.Duration.Seconds()
				}
				reused, rendered = reused+r.Pages.Reused, rendered+r.Pages.Rendered
			}
			for name, total := range stages {
				b.ReportMetric(total/float64(b.N), name+"-s/op")
			}
			b.ReportMetric(float64(reused)/float64(b.N), "reused/op")
			b.ReportMetric(float64(rendered)/float64(b.N), "rendered/op")
		})
	}
}

// BenchmarkHugoAlone10k renders the same set of pages (same paths, same
// titles and dates) with Hugo alone and minimal templates: the floor that
// engram's build is compared with.
func BenchmarkHugoAlone10k(b *testing.B) {
	_, c := repo10k(b)
	work := b.TempDir()
	if err := writeMinimalProject(work, c); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		if err := site.RenderHugo(context.Background(), work, filepath.Join(b.TempDir(), fmt.Sprint(i))); err != nil {
			b.Fatal(err)
		}
	}
}

func writeMinimalProject(dir string, c gen.Corpus) error {
	files := map[string]string{
		"hugo.toml":                  "baseURL = \"/\"\ntitle = \"bench\"\ndisableKinds = [\"taxonomy\", \"term\"]\n",
		"layouts/home.html":          "<h1>{{ .Title }}</h1>{{ range .Sections }}<a href=\"{{ .RelPermalink }}\">{{ .Title }}</a>{{ end }}\n",
		"layouts/section.html":       "<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></li>{{ end }}</ul>\n",
		"layouts/page.html":          "<h1>{{ .Title }}</h1><p>{{ .Date.Format \"2006-01-02\" }}</p>{{ .Content }}\n",
		"content/episodes/_index.md": "---\ntitle: Episodes\n---\n",
		"content/patterns/_index.md": "---\ntitle: Patterns\n---\n",
	}
	for _, n := range c.Notes {
		section := "episodes"
		if n.Pattern != nil {
			section = "patterns"
		}
		files["content/"+section+"/"+export.Slug(n.Title)+".md"] = fmt.Sprintf("---\ntitle: %q\ndate: %s\n---\n", n.Title, n.Created.Format("2006-01-02T15:04:05Z"))
	}
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}
