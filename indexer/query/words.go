package query

import (
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/search"
)

// Text filters (an episode's task, a pattern's trigger) match by words,
// as search does, not by substring (issue 32): a filter matches a text
// that has every word of it, in any order, ignoring case, stop words and
// endings ("PR review" matches "Review PR #5175", "reviewed the PR"; not
// "preview"). A filter of stop words or punctuation only, which has no
// words, matches a text that contains it, ignoring case.

// wordFilter is a text filter, analyzed once.
type wordFilter struct {
	text  string
	terms []string // search.Analyze's terms, without repeats
}

func newWordFilter(text string) wordFilter {
	f := wordFilter{text: strings.ToLower(strings.TrimSpace(text))}
	for _, t := range search.Analyze(text) {
		if !slices.Contains(f.terms, t) {
			f.terms = append(f.terms, t)
		}
	}
	return f
}

// empty reports whether the filter selects everything.
func (f wordFilter) empty() bool { return f.text == "" }

// match reports whether text passes the filter.
func (f wordFilter) match(text string) bool {
	if f.empty() {
		return true
	}
	if len(f.terms) == 0 {
		return strings.Contains(strings.ToLower(text), f.text)
	}
	have := search.Analyze(text)
	for _, t := range f.terms {
		if !slices.Contains(have, t) {
			return false
		}
	}
	return true
}
