package search

import (
	"testing"

	"github.com/engramhq/engram/indexer/export"
)

// TestSummary: the start of a note's prose as one plain line: the
// context first, else the first section with text; no bullet, link
// destination or table.
func TestSummary(t *testing.T) {
	for _, tt := range []struct {
		context  string
		sections []string
		want     string
	}{
		{"The ledger lagged [by hours](https://x.example/).", []string{"ignored"}, "The ledger lagged by hours."},
		{"", []string{"", "- [fact] Wall clocks make tests flaky\n- relates_to [[PATTERN-x]]"}, "[fact] Wall clocks make tests flaky relates_to PATTERN-x"},
		// A table is no summary: the prose after it, or the next section.
		{"", []string{"| Field | Value |\n|-------|-------|\n| Date | 2026-01-04 |\n\nAdded the reviewer stats.", "no"}, "Added the reviewer stats."},
		{"| a | b |\n|---|---|", []string{"| only | table |", "The next section."}, "The next section."},
		{"", nil, ""},
	} {
		var ss []export.Section
		for _, m := range tt.sections {
			ss = append(ss, export.Section{Markdown: m})
		}
		if got := summary(tt.context, ss); got != tt.want {
			t.Errorf("summary(%q, %q) = %q, want %q", tt.context, tt.sections, got, tt.want)
		}
	}
}
