package indexer_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
)

// TestGeneratedRepository builds a generated repository the build has
// never seen (120 episodes, 24 patterns, 3 bad notes) and checks it against
// the generator's ground truth.
func TestGeneratedRepository(t *testing.T) {
	corpus := gen.Generate(gen.Options{})
	if n := len(corpus.Episodes()); n != 120 {
		t.Fatalf("generator made %d episodes, want 120", n)
	}
	if n := len(corpus.Patterns()); n != 24 {
		t.Fatalf("generator made %d patterns, want 24", n)
	}
	repo := t.TempDir()
	if err := source.WriteRepo(repo, corpus.Commits); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	r := build(t, repo, out)

	t.Run("good notes published with created dates", func(t *testing.T) {
		for _, n := range append(corpus.Episodes(), corpus.Patterns()...) {
			section := "episodes"
			if n.Pattern != nil {
				section = "patterns"
			}
			slug := export.Slug(n.Title)
			if _, err := os.Stat(filepath.Join(out, section, slug, "index.html")); err != nil {
				t.Errorf("%s: no HTML page: %v", n.Path, err)
			}
			var doc struct {
				Created    string `json:"created"`
				DateSource string `json:"date_source"`
				Source     struct {
					Created string `json:"created"`
				} `json:"source"`
			}
			data, err := os.ReadFile(filepath.Join(out, "api", "v1", section, slug+".json"))
			if err != nil {
				t.Errorf("%s: no JSON: %v", n.Path, err)
				continue
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			want := n.Created.UTC().Format(time.RFC3339)
			if doc.Source.Created != want {
				t.Errorf("%s: created %s, want %s (%s)", n.Path, doc.Source.Created, want, n.DateSource)
			}
		}
	})
	t.Run("bad notes reported at their line", func(t *testing.T) {
		for _, n := range corpus.Bad() {
			found := false
			for _, d := range r.Diagnostics {
				if d.Path == n.Path && d.Line == n.Line && d.Severity.String() == "error" {
					found = true
				}
			}
			if !found {
				t.Errorf("%s (%s): no error diagnostic at line %d; got %v", n.Path, n.Bad, n.Line, diagnosticsFor(r, n.Path))
			}
		}
	})
	t.Run("two builds are byte-identical", func(t *testing.T) {
		again := filepath.Join(t.TempDir(), "public")
		if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: again}); err != nil {
			t.Fatal(err)
		}
		a, b := tree(t, out), tree(t, again)
		if len(a) != len(b) {
			t.Fatalf("%d files vs %d", len(a), len(b))
		}
		for p, data := range a {
			if string(data) != string(b[p]) {
				t.Errorf("%s differs", p)
			}
		}
	})
}

func diagnosticsFor(r *indexer.Report, path string) []string {
	var out []string
	for _, d := range r.Diagnostics {
		if d.Path == path {
			out = append(out, d.String())
		}
	}
	return out
}
