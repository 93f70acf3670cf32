package query

import (
	"sort"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
)

// rateTolerance keeps a threshold written in decimal inclusive: 0.3 is a
// rate of 0.3 (as the graph stage does).
const rateTolerance = 1e-9

// BestPatterns returns the patterns that are not antipatterns, with
// success_rate at least minSuccess over at least minOccurrences, best
// first: by confidence, then success_rate, then occurrences (all
// descending), then id.
func (s *Snapshot) BestPatterns(minSuccess float64, minOccurrences int) []export.PatternSummary {
	out := []export.PatternSummary{}
	for _, p := range s.Patterns {
		if p.Antipattern || p.SuccessRate == nil || *p.SuccessRate+rateTolerance < minSuccess || p.Occurrences < minOccurrences {
			continue
		}
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case *a.Confidence != *b.Confidence:
			return *a.Confidence > *b.Confidence
		case *a.SuccessRate != *b.SuccessRate:
			return *a.SuccessRate > *b.SuccessRate
		case a.Occurrences != b.Occurrences:
			return a.Occurrences > b.Occurrences
		}
		return a.ID < b.ID
	})
	return out
}

// FindAntipatterns classifies the patterns again with the given thresholds
// (SPEC §3: declared antipatterns, and any pattern with success_rate at
// most maxSuccess over at least minOccurrences) and returns them in SPEC
// §3's order.
func (s *Snapshot) FindAntipatterns(maxSuccess float64, minOccurrences int) []export.PatternSummary {
	out := []export.PatternSummary{}
	for _, p := range s.Patterns {
		byRate := p.SuccessRate != nil && *p.SuccessRate <= maxSuccess+rateTolerance && p.Occurrences >= minOccurrences
		if p.Type == "antipattern" || byRate {
			p.Antipattern = true
			out = append(out, p)
		}
	}
	export.SortAntipatterns(out)
	return out
}

// Pattern finds a pattern (antipatterns too) by id, ignoring case, or by
// the slug of its page.
func (s *Snapshot) Pattern(id string) (*export.PatternSummary, error) {
	k := causal.Key(id)
	for i := range s.Patterns {
		p := &s.Patterns[i]
		if causal.Key(p.ID) == k || slugOf(p.URL) == k {
			return p, nil
		}
	}
	names := make([]string, len(s.Patterns))
	for i, p := range s.Patterns {
		names[i] = p.ID
	}
	return nil, &NotFoundError{What: "pattern", Name: id, Suggestions: suggest(id, names)}
}

// WithTrigger keeps the patterns whose trigger has every word of trigger
// (words.go), in their order; an empty trigger keeps them all.
func WithTrigger(ps []export.PatternSummary, trigger string) []export.PatternSummary {
	f := newWordFilter(trigger)
	if f.empty() {
		return ps
	}
	kept := []export.PatternSummary{}
	for _, p := range ps {
		if f.match(p.Trigger) {
			kept = append(kept, p)
		}
	}
	return kept
}
