package causal

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// repo is a memory repository: markdown text by path.
type repo map[string]string

// parseRepo parses every note in path order, as the indexer hands them to
// Build. Parse diagnostics are not the graph stage's business and are
// dropped.
func parseRepo(t *testing.T, r repo) []note.Note {
	t.Helper()
	p := parse.New(parse.Roots{})
	var notes []note.Note
	for _, path := range slices.Sorted(maps.Keys(r)) {
		n, _, err := p.Parse(path, []byte(r[path]))
		if err != nil {
			t.Fatalf("parse %s: %v", path, err)
		}
		notes = append(notes, n)
	}
	return notes
}

func build(t *testing.T, r repo) ([]note.Note, Result) {
	t.Helper()
	notes := parseRepo(t, r)
	return notes, Build(notes, DefaultOptions())
}

// episode is an episode note with the given outcome and body lines.
func episode(title, outcome string, body ...string) string {
	return "---\ntitle: " + title + "\ntype: episode\noutcome: " + outcome +
		"\ntask: Task of " + title + "\n---\n\n" + strings.Join(body, "\n") + "\n"
}

// pattern is a pattern note: front is extra front matter lines, body the
// markdown after it.
func pattern(title, front string, body ...string) string {
	return "---\ntitle: " + title + "\n" + front + "---\n\n" + strings.Join(body, "\n") + "\n"
}

func concept(title string, body ...string) string {
	return "---\ntitle: " + title + "\ntype: concept\n---\n\n" + strings.Join(body, "\n") + "\n"
}

func evidenceSection(items ...string) string {
	return "## Evidence Episodes\n\n- " + strings.Join(items, "\n- ") + "\n"
}

func causalSection(items ...string) string {
	return "## Causal Relationships\n\n- " + strings.Join(items, "\n- ") + "\n"
}

// rules lists the rules of diagnostics, sorted, for comparing sets.
func rules(ds []note.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Rule)
	}
	slices.Sort(out)
	return out
}

func withRule(ds []note.Diagnostic, rule string) []note.Diagnostic {
	var out []note.Diagnostic
	for _, d := range ds {
		if d.Rule == rule {
			out = append(out, d)
		}
	}
	return out
}

// noteIndex finds a note by title.
func noteIndex(t *testing.T, notes []note.Note, title string) int {
	t.Helper()
	for i, n := range notes {
		if n.Title == title {
			return i
		}
	}
	t.Fatalf("no note titled %q", title)
	return -1
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func edgeString(e note.Edge) string {
	return fmt.Sprintf("%s -%s-> %s w=%.4f n=%d", e.Source, e.Type, e.Target, e.Weight, e.EvidenceCount)
}

func edgeStrings(es []note.Edge) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, edgeString(e))
	}
	return out
}
