package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

// TestPrintDiagnostics: a build prints errors first, at most maxShown
// diagnostics, and counts the rest by rule (errors first, then the
// commonest); -v prints every one; info lines are counted unless verbose.
func TestPrintDiagnostics(t *testing.T) {
	var ds []note.Diagnostic
	for i := range 300 {
		ds = append(ds, note.Diagnostic{Path: fmt.Sprintf("episodes/e%03d.md", i), Line: 1, Col: 1, Severity: note.Warning, Rule: "pattern-tautology", Message: "w"})
		if i%10 == 0 {
			ds = append(ds, note.Diagnostic{Path: fmt.Sprintf("episodes/e%03d.md", i), Line: 2, Col: 1, Severity: note.Error, Rule: "episode-outcome", Message: "e"})
		}
		if i%3 == 0 {
			ds = append(ds, note.Diagnostic{Path: fmt.Sprintf("notes/n%03d.md", i), Line: 1, Col: 1, Severity: note.Info, Rule: "link-one-sided", Message: "i"})
		}
	}
	var b bytes.Buffer
	printDiagnostics(&b, ds, false)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != maxShown+3 {
		t.Fatalf("%d lines, want %d shown, a header, one rule and the info count:\n%s", len(lines), maxShown, b.String())
	}
	for i, l := range lines[:30] {
		if !strings.Contains(l, ": error: ") {
			t.Fatalf("line %d is not an error, though 30 errors come first: %s", i, l)
		}
	}
	for _, want := range []string{"… and 290 more (engram check lists every one", "     290 warning pattern-tautology", "(100 info diagnostics not shown"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in:\n%s", want, b.String())
		}
	}
	b.Reset()
	printDiagnostics(&b, ds, true)
	if n := strings.Count(b.String(), "\n"); n != len(ds) {
		t.Errorf("-v printed %d lines, want all %d diagnostics", n, len(ds))
	}
}
