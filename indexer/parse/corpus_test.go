package parse

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir is the real-data corpus beside the project (../shared); it is
// absent on a user's machine.
func corpusDir(t *testing.T, sub string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "real", sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("real-data corpus not found at %s (it sits beside the project in CI): %v", dir, err)
	}
	return dir
}

// TestRealBasicMemoryNotes parses basic-memory's own fixture notes, written
// by people who never saw engram: every list item in their Observations and
// Relations sections must be read as an observation or a relation.
func TestRealBasicMemoryNotes(t *testing.T) {
	root := corpusDir(t, "basic-memory")
	p := New(Roots{})
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			note, diags, err := p.Parse(filepath.ToSlash(rel), src)
			if err != nil {
				t.Fatalf("refused: %v %v", err, diags)
			}
			if note.Title == "" {
				t.Error("no title")
			}
			for _, d := range diags {
				// NOTE-FORMAT.md documents the format: its lists of
				// relation type names are prose, not relations.
				if strings.HasSuffix(rel, "NOTE-FORMAT.md") {
					break
				}
				if d.Rule == "observation-syntax" || d.Rule == "relation-syntax" {
					t.Errorf("%s", d)
				}
			}
			want := strings.Count(string(src), "\n- [") - strings.Count(string(src), "\n- [[") - strings.Count(string(src), "\n- [ ]") - strings.Count(string(src), "\n- [x]")
			if strings.Contains(rel, "fixtures") && len(note.Observations) < want {
				t.Errorf("%d observations, the file has %d observation-like items", len(note.Observations), want)
			}
		})
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Errorf("read only %d notes from the corpus", n)
	}
}

// TestRealPaulGraham checks one real note field by field.
func TestRealPaulGraham(t *testing.T) {
	root := corpusDir(t, "basic-memory")
	src, err := os.ReadFile(filepath.Join(root, "test-int", "fixtures", "schema", "valid", "paul-graham.md"))
	if err != nil {
		t.Fatal(err)
	}
	n, diags, err := New(Roots{}).Parse("people/paul-graham.md", src)
	if err != nil || len(diags) != 0 {
		t.Fatalf("err %v, diagnostics %v", err, diags)
	}
	if n.Title != "Paul Graham" || n.Type != "person" || len(n.Tags) != 4 {
		t.Errorf("front matter: %q %q %v", n.Title, n.Type, n.Tags)
	}
	if len(n.Observations) != 10 || n.Observations[0].Category != "name" || n.Observations[0].Content != "Paul Graham" {
		t.Errorf("observations: %+v", n.Observations)
	}
	if len(n.Relations) != 5 || n.Relations[0].Type != "works_at" || n.Relations[0].Target != "Y Combinator" {
		t.Errorf("relations: %+v", n.Relations)
	}
}

// TestBareLinkRelation follows basic-memory's NOTE-FORMAT: a list item that
// is only a wikilink relates_to its target.
func TestBareLinkRelation(t *testing.T) {
	n, diags, err := New(Roots{}).Parse("n.md", []byte("## Relations\n- [[Some Entity]]\n- [[Other]] (why)\n"))
	if err != nil || len(diags) != 0 {
		t.Fatalf("err %v, diagnostics %v", err, diags)
	}
	want := []string{"relates_to Some Entity ", "relates_to Other why"}
	for i, r := range n.Relations {
		if got := r.Type + " " + r.Target + " " + r.Context; i >= len(want) || got != want[i] {
			t.Errorf("relation %d = %q", i, got)
		}
	}
	if len(n.Relations) != 2 {
		t.Errorf("%d relations, want 2", len(n.Relations))
	}
}
