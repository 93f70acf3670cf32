package mine

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/causal"
)

// pending is a candidate that passed the rules, before duplicates go.
type pending struct {
	c        Candidate
	choice   int32
	episodes []int
	// set and units are the trigger and the evidence's units: the terms
	// and contrasts of a candidate kept are made from them.
	set   termSet
	units []int // its evidence episodes, ascending
}

// mine considers every (trigger, choice) pair that MinEpisodes decisions
// share, choice by choice in the order choices first appear.
func (m *miner) mine() {
	byChoice := make([][]int, len(m.choices))
	for u := range m.units {
		byChoice[m.units[u].choice] = append(byChoice[m.units[u].choice], u)
	}
	m.index()
	sets := make([][]itemset, len(byChoice))
	for c, units := range byChoice {
		if len(units) >= m.opt.MinEpisodes {
			sets[c] = m.frequentSets(units)
			m.tests += len(sets[c])
		}
	}
	var found []pending
	for c := range sets {
		for _, set := range sets[c] {
			if p, reason := m.consider(int32(c), set); reason != "" {
				m.res.Withheld[reason]++
			} else {
				found = append(found, p)
			}
		}
	}
	m.res.Candidates = m.distinct(found)
}

// consider runs the rules on one pair, in order: evidence that is only
// flagged episodes, support, one session, association, tautology,
// placeholder, a rate with no outcome behind it (distinct then drops
// duplicates and what is written). It returns the candidate, or
// the first rule it fails.
func (m *miner) consider(c int32, set itemset) (pending, string) {
	var units []int
	for _, u := range set.units {
		if !m.eps[m.units[u].ep].flagged {
			units = append(units, u)
		}
	}
	if len(units) == 0 {
		return pending{}, m.eps[m.units[set.units[0]].ep].flag
	}
	ch, eps := m.choice(units)
	switch {
	case len(eps) < m.opt.MinEpisodes:
		return pending{}, ReasonSupport
	case ch.Sessions < 2:
		return pending{}, ReasonOneSession
	}
	if !m.associated(c, len(eps), set.terms) {
		return pending{}, ReasonAssociation
	}
	trigger := "When " + sentence(m.mostCommon(units, func(u *unit) string { return u.situation }))
	ch.Action = m.mostCommon(units, func(u *unit) string { return u.wording })
	switch {
	case causal.Tautology(trigger, ch.Action):
		return pending{}, causal.FlagTautology
	case causal.Placeholder(strings.TrimPrefix(trigger, "When "), ch.Action):
		return pending{}, causal.FlagPlaceholder
	case ch.outcomes == 0:
		return pending{}, causal.FlagDefaultRate
	}
	cand := Candidate{Trigger: trigger, Action: ch.Action, Choice: ch.Choice}
	return pending{c: cand, choice: c, episodes: eps, set: set.terms, units: units}, ""
}

// choiceRecord is a Choice and the number of its evidence with an outcome.
type choiceRecord struct {
	Choice
	outcomes int
}

// choice is the record of units of one choice: one evidence per episode
// (its first decision), in the order of the episodes' titles, and the
// episodes (ascending).
func (m *miner) choice(units []int) (choiceRecord, []int) {
	var r choiceRecord
	var eps []int
	sessions := map[string]bool{}
	sum := 0.0
	for _, u := range units {
		un := &m.units[u]
		if len(eps) > 0 && eps[len(eps)-1] == un.ep {
			continue
		}
		ep := &m.eps[un.ep]
		eps = append(eps, un.ep)
		sessions[ep.session] = true
		r.Evidence = append(r.Evidence, Evidence{Episode: ep.title, Decision: un.decision, Outcome: ep.outcome})
		if v, ok := ep.outcome.Value(); ok {
			sum += v
			r.outcomes++
		}
	}
	slices.SortFunc(r.Evidence, func(a, b Evidence) int {
		return cmp.Or(strings.Compare(a.Episode, b.Episode), strings.Compare(a.Decision, b.Decision))
	})
	r.Occurrences, r.Sessions = len(r.Evidence), len(sessions)
	if r.outcomes > 0 {
		r.SuccessRate = sum / float64(r.outcomes)
	}
	r.Confidence = causal.Wilson(r.SuccessRate, r.outcomes)
	return r, eps
}

// mostCommon is the most common text of units, ties to the first.
func (m *miner) mostCommon(units []int, text func(*unit) string) string {
	count := map[string]int{}
	best := ""
	for _, u := range units {
		s := text(&m.units[u])
		count[s]++
		if count[s] > count[best] || best == "" {
			best = s
		}
	}
	return best
}

// sentence is s to follow "When ": its end punctuation dropped, and its
// first letter in lower case unless the word is an acronym ("CI").
func sentence(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), ".:;!")
	r, n := utf8.DecodeRuneInString(s)
	next, _ := utf8.DecodeRuneInString(s[n:])
	if unicode.IsUpper(r) && !unicode.IsUpper(next) {
		return string(unicode.ToLower(r)) + s[n:]
	}
	return s
}
