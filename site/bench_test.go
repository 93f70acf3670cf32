package site_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
		r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out})
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
