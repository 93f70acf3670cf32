package pagetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/export"
)

// TestDemoPatternHeadings: a pattern page's heading is a few words (its
// name), and its rule, the sentence that was six lines of a heading on a
// phone, is the line under it, once.
func TestDemoPatternHeadings(t *testing.T) {
	out := build(t, filepath.Join("..", "..", "content"))
	for name, doc := range pages(t, out, "patterns") {
		t.Run(name, func(t *testing.T) {
			var p export.Pattern
			b, err := os.ReadFile(filepath.Join(out, "api", "v1", "patterns", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			h1, rule := find(doc, "h1", ""), find(doc, "p", "rule-line")
			if len(h1) != 1 || len(rule) != 1 {
				t.Fatalf("%d headings and %d rule lines, want 1 and 1", len(h1), len(rule))
			}
			heading, want := text(h1[0]), export.PatternHeadline(p.Trigger, p.Action, p.ID)
			if n := utf8.RuneCountInString(heading); n > 60 || heading == want {
				t.Errorf("the heading is %q (%d characters), want a name, not the rule", heading, n)
			}
			if text(rule[0]) != want {
				t.Errorf("the line under the heading is %q, want the rule %q", text(rule[0]), want)
			}
			// The neighbourhood names its nodes by number, and its key
			// lists each number's note.
			for _, fig := range find(doc, "figure", "local-graph") {
				nums, keys := find(fig, "text", "lg-num"), find(fig, "li", "")
				if len(nums) == 0 || len(nums) != len(keys) || len(find(fig, "text", "lg-label")) > 0 {
					t.Errorf("the neighbourhood has %d numbered nodes and %d entries in its key, and %d names beside nodes", len(nums), len(keys), len(find(fig, "text", "lg-label")))
				}
			}
		})
	}
}
