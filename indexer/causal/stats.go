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
	// FixtureEvidence counts the evidence lines left out because they
	// name a fixture or nearly empty episode.
	FixtureEvidence int
	// Antipattern: the note says it is one (type or title), or its
	// measured statistics fall under the thresholds of Options.
	Antipattern bool
	// Contradicted: every evidence line gives one outcome that none of the
	// evidence episodes records itself (ai-agents' 0.0 over episodes that
	// each say success). Such a rate is a default, not a measurement.
	Contradicted bool
	// EpisodeRate is the rate of the evidence episodes' own outcomes, over
	// those that have one; EpisodeOutcomes how many do.
	EpisodeRate     float64
	EpisodeOutcomes int
	// DeclaredContradicted: the front matter declares a success_rate
	// outside the 95% Wilson interval of the evidence that replaces it.
	// The evidence is the measurement; the note claims otherwise.
	DeclaredContradicted bool
}

// Measured reports whether the statistics are a measurement that
// classifies the pattern (SPEC §3): computed from evidence that its
// episodes do not contradict, or declared together with the occurrences
// they were counted over (the seed's pattern format: a tool that
// counted wrote both). A rate declared alone is a bare default.
func (s Stats) Measured() bool {
	switch s.Source {
	case "evidence":
		return !s.Contradicted
	case "declared":
		return s.Occurrences > 0
	}
	return false
}

// DeclaredContradicts reports whether evidence of the given rate over n
// episodes contradicts a declared rate: the declared rate lies outside
// the evidence's 95% Wilson interval, so the evidence is unlikely to
// come from it.
func DeclaredContradicts(declared, rate float64, n int) bool {
	if n <= 0 {
		return false
	}
	lo, hi := WilsonInterval(rate, n)
	return declared < lo-rateTolerance || declared > hi+rateTolerance
}

// DefaultRate reports whether the rate is not to be trusted as advice:
// a bare default (declared with no occurrences), a rate its evidence
// episodes contradict, or a declared rate its evidence contradicts.
func (s Stats) DefaultRate() bool {
	return s.Source == "declared" && s.Occurrences <= 0 || s.Contradicted || s.DeclaredContradicted
}

// EvidenceRef is one counted evidence episode: the outcome the evidence
// line gives, and the one the episode itself records ("" when none).
type EvidenceRef struct {
	ID      string
	Outcome note.Outcome
	Own     note.Outcome
}

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
			v, _ := note.Outcome(e.Outcome).Value()
			sum += v
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
// antipattern. ok is false when the pattern has no statistics, or a rate
// that its own evidence episodes contradict. A declared rate still
// weighs the pattern's edges (SPEC §3's weight is the pattern's
// success_rate, declared or measured); it only does not classify it.
func reliability(s Stats) (float64, bool) {
	if s.Source == "" || s.Occurrences == 0 || s.Contradicted {
		return 0, false
	}
	rate := s.SuccessRate
	if s.Antipattern {
		rate = 1 - rate
	}
	return Wilson(rate, s.Occurrences), true
}
