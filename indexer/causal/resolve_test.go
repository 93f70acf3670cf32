package causal

import (
	"slices"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/engramhq/engram/indexer/note"
)

func TestIndexResolve(t *testing.T) {
	cafeNFC := norm.NFC.String("Café Notes")
	cafeNFD := norm.NFD.String("Café Notes")
	resumeNFD := norm.NFD.String("Résumé")
	resumeNFC := norm.NFC.String("Résumé")
	if cafeNFC == cafeNFD || resumeNFC == resumeNFD {
		t.Fatal("test titles must differ in their normal forms")
	}
	notes := []note.Note{
		{Path: "notes/cafe.md", Title: cafeNFC},
		{Path: "notes/first.md", Title: "Shared"},
		{Path: "notes/resume.md", Title: resumeNFD},
		{Path: "notes/second.md", Title: "shared"},
		{Path: "notes/shadow.md", Title: "Other name"},
		{Path: "notes/sub/deep-file.md", Title: "Deep Title", Permalink: "/p/Deep/"},
		{Path: "notes/x.md", Title: "shadow"},
		{Path: "patterns/run-tests.md", Title: "PATTERN-run-tests-before-commit"},
	}
	ix := NewIndex(notes)
	tests := []struct {
		name   string
		target string
		want   int // -1: does not resolve
	}{
		{"title", "PATTERN-run-tests-before-commit", 7},
		{"title lower case", "pattern-run-tests-before-commit", 7},
		{"title upper case", "PATTERN-RUN-TESTS-BEFORE-COMMIT", 7},
		{"title with spaces around", "  Deep Title ", 5},
		{"file name", "run-tests", 7},
		{"file name any case", "Deep-File", 5},
		{"file name is not a path", "notes/sub/deep-file", -1},
		{"file name keeps no extension", "run-tests.md", -1},
		{"permalink", "p/deep", 5},
		{"permalink with slashes", "/p/Deep/", 5},
		{"NFD target, NFC title", cafeNFD, 0},
		{"NFC target, NFD title", resumeNFC, 2},
		{"NFD target, NFD title, upper case", norm.NFD.String("RÉSUMÉ"), 2},
		{"first note wins a shared title", "SHARED", 1},
		{"title wins over file name", "shadow", 6},
		{"unknown", "Nowhere", -1},
		{"empty", "", -1},
		{"blank", "   ", -1},
		{"a heading is not part of the target", "Deep Title#Intro", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ix.Resolve(tt.target)
			if !ok {
				got = -1
			}
			if got != tt.want {
				t.Errorf("Resolve(%q) = %d, %v; want %d", tt.target, got, ok, tt.want)
			}
		})
	}
}

func TestKey(t *testing.T) {
	tests := []struct{ a, b string }{
		{"Title", "title"},
		{" Title\t", "TITLE"},
		{norm.NFC.String("Ünïcode"), norm.NFD.String("ünïcode")},
		{"ΣΊΣΥΦΟΣ", "σίσυφοσ"}, // ToLower maps every capital sigma to σ
	}
	for _, tt := range tests {
		t.Run(tt.a, func(t *testing.T) {
			if Key(tt.a) != Key(tt.b) {
				t.Errorf("Key(%q) = %q, Key(%q) = %q; want equal", tt.a, Key(tt.a), tt.b, Key(tt.b))
			}
		})
	}
}

func TestBuildLinks(t *testing.T) {
	r := repo{
		"episodes/e1.md": episode("EPISODE-2026-08-01-session-01", "success",
			"## Context",
			"",
			"Followed [[run-tests]] and [[Nowhere]].",
			"",
			"## Decisions",
			"",
			"### d001: Inject a clock",
			"",
			"- **Effects**: [[d002]], [[D001]], [[PATTERN-run-tests]]",
			"",
			"### d002: Rerun CI",
			"",
			"- **Chosen**: rerun",
			"",
			"## Lessons Learned",
			"",
			"- Inject time.",
		),
		"notes/a-concept.md": concept("Ledger",
			"- uses [[episode-2026-08-01-session-01]]",
			"- mentions [[d002]]",
			"- mentions [[Ledger]]",
			"- also [[Missing B]] and [[Missing A]]",
		),
		"patterns/run-tests.md": pattern("PATTERN-run-tests", "type: pattern\ntrigger: Before a commit\naction: Run the tests\n", "See [[ledger]]."),
	}
	notes, res := build(t, r)
	ep := noteIndex(t, notes, "EPISODE-2026-08-01-session-01")
	ledger := noteIndex(t, notes, "Ledger")
	pat := noteIndex(t, notes, "PATTERN-run-tests")

	t.Run("resolved indices", func(t *testing.T) {
		want := map[int][]int{
			ep:     {pat, Missing, Local, Local, pat},
			ledger: {ep, Missing, ledger, Missing, Missing},
			pat:    {ledger},
		}
		for i, w := range want {
			if got := res.Links[i]; !slices.Equal(got, w) {
				t.Errorf("%s: Links = %v, want %v (targets %v)", notes[i].Title, got, w, notes[i].Links)
			}
		}
	})

	t.Run("backlinks", func(t *testing.T) {
		want := map[int][]int{ep: {ledger}, ledger: {pat}, pat: {ep}}
		for i, w := range want {
			if got := res.Backlinks[i]; !slices.Equal(got, w) {
				t.Errorf("%s: Backlinks = %v, want %v", notes[i].Title, got, w)
			}
		}
	})

	t.Run("dangling sorted", func(t *testing.T) {
		want := []Dangling{
			{From: "EPISODE-2026-08-01-session-01", Target: "Nowhere"},
			{From: "Ledger", Target: "Missing A"},
			{From: "Ledger", Target: "Missing B"},
			{From: "Ledger", Target: "d002"},
		}
		if !slices.Equal(res.Dangling, want) {
			t.Errorf("Dangling = %v, want %v", res.Dangling, want)
		}
	})

	t.Run("diagnostics at the link", func(t *testing.T) {
		got := withRule(res.Diags, "link-dangling")
		if len(got) != len(res.Dangling) {
			t.Fatalf("%d link-dangling diagnostics, want %d: %v", len(got), len(res.Dangling), got)
		}
		// The episode's [[Nowhere]] is on line 10 (6 lines of front
		// matter, a blank line, "## Context", a blank line), column 28.
		d := got[0]
		want := note.Diagnostic{Path: "episodes/e1.md", Line: 10, Col: 28, Severity: note.Warning, Rule: "link-dangling",
			Message: "[[Nowhere]] names no note; it is shown as a missing note"}
		if d != want {
			t.Errorf("diagnostic = %#v\nwant %#v", d, want)
		}
		for _, d := range got {
			var link note.Link
			for _, n := range notes {
				if n.Path == d.Path {
					for _, l := range n.Links {
						if l.Line == d.Line && l.Col == d.Col {
							link = l
						}
					}
				}
			}
			if link.Target == "" {
				t.Errorf("%v is not at the position of a link", d)
			}
		}
		// d001's Effects name d001 itself.
		if others := rules(res.Diags); len(others) != len(got)+1 || len(withRule(res.Diags, "causal-self-loop")) != 1 {
			t.Errorf("other diagnostics: %v", res.Diags)
		}
	})
}
