package site

import "testing"

// TestInlinePlainMatchesMarkdown checks the fast path for plain lines gives
// what the markdown renderer gives.
func TestInlinePlainMatchesMarkdown(t *testing.T) {
	md := newMarkdown()
	for _, s := range []string{
		"Ran go test ./... - 3 failures in ledger",
		"Use \"quotes\" and 'apostrophes' (and parentheses); 50% of runs",
		"Never read the wall clock in tests.",
		"tabs\tinside",
		"ends with two spaces  ",
		"a # not a heading",
	} {
		if !plain(s) {
			t.Errorf("%q should take the fast path", s)
			continue
		}
		got := md.Inline(s, nil)
		full := md.Block(s, nil)
		want := full[len("<p>") : len(full)-len("</p>\n")]
		if got != want {
			t.Errorf("Inline(%q) = %q, markdown gives %q", s, got, want)
		}
	}
	for _, s := range []string{"# heading", "- item", "1. item", "**bold**", "see [[Note]]", "<b>", "a & b", "http://x.y", "    code", "x\ny", "a_b", "user@example.com"} {
		if plain(s) {
			t.Errorf("%q must go through the markdown renderer", s)
		}
	}
}
