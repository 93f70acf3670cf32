package causal

import "github.com/engramhq/engram/indexer/note"

// Stats are a pattern's statistics (SPEC §3).
type Stats struct {
	// Source is "evidence" when computed from evidence episodes,
	// "declared" when taken from front matter, "" when neither exists.
	Source      string
	Occurrences int
	SuccessRate float64
	// Confidence is the 95% Wilson score lower bound of SuccessRate over
	// Occurrences.
	Confidence float64
	// Evidence are the counted evidence lines, in file order.
	Evidence []EvidenceRef
	// Antipattern: the note says it is one (type or title), or its
	// statistics fall under the thresholds of Options.
	Antipattern bool
}

// EvidenceRef is one counted evidence episode.
type EvidenceRef struct {
	ID      string
	Outcome string
}

var outcomeValue = map[string]float64{"success": 1, "partial": 0.5, "failure": 0}

// Wilson returns the lower bound of the Wilson score interval for a rate p
// over n trials at z = 1.96.
func Wilson(p float64, n int) float64 {
	lo, _ := WilsonInterval(p, n)
	return lo
}

// patternStats computes a pattern's statistics from its resolved evidence
// (notes[i] for each counted line), falling back to declared values.
func patternStats(p *note.Pattern, evidence []EvidenceRef) Stats {
	s := Stats{Evidence: evidence}
	if len(evidence) > 0 {
		sum := 0.0
		for _, e := range evidence {
			sum += outcomeValue[e.Outcome]
		}
		s.Source = "evidence"
		s.Occurrences = len(evidence)
		s.SuccessRate = sum / float64(len(evidence))
	} else if p.DeclaredRate != nil {
		s.Source = "declared"
		s.SuccessRate = *p.DeclaredRate
		if p.DeclaredOccurrences != nil {
			s.Occurrences = *p.DeclaredOccurrences
		}
	}
	s.Confidence = Wilson(s.SuccessRate, s.Occurrences)
	return s
}

// reliability is the Wilson lower bound of how reliably a pattern's
// relationships hold: its success rate, or its failure rate for an
// antipattern. ok is false when the pattern has no statistics.
func reliability(s Stats) (float64, bool) {
	if s.Source == "" || s.Occurrences == 0 {
		return 0, false
	}
	rate := s.SuccessRate
	if s.Antipattern {
		rate = 1 - rate
	}
	return Wilson(rate, s.Occurrences), true
}
