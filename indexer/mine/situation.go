package mine

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/causal"
)

// index lists, for every term, the units of unflagged episodes whose
// situation has it, and counts the unflagged episodes with a unit, in all
// and by choice: what a situation and the association test read.
func (m *miner) index() {
	m.termUnits = make([][]int, len(m.termText))
	m.choiceEps = make([]int, len(m.choices))
	seen := map[[2]int]bool{}
	last := -1
	for u := range m.units {
		un := &m.units[u]
		if m.eps[un.ep].flagged {
			continue
		}
		for _, t := range un.terms {
			m.termUnits[t] = append(m.termUnits[t], u)
		}
		if un.ep != last {
			m.withUnits++
			last = un.ep
		}
		if k := [2]int{un.ep, int(un.choice)}; !seen[k] {
			seen[k] = true
			m.choiceEps[un.choice]++
		}
	}
}

// situation is the units of unflagged episodes whose situation has every
// term of s (ascending): those of its rarest term's list that have the
// others too.
func (m *miner) situation(s termSet) []int {
	terms := s[:s.len()]
	rarest := slices.MinFunc(terms, func(a, b int32) int { return cmp.Compare(len(m.termUnits[a]), len(m.termUnits[b])) })
	var out []int
	for _, u := range m.termUnits[rarest] {
		if hasAll(m.units[u].terms, terms) {
			out = append(out, u)
		}
	}
	return out
}

// hasAll reports whether have (sorted) holds every term of want.
func hasAll(have, want []int32) bool {
	for _, t := range want {
		if _, ok := slices.BinarySearch(have, t); !ok {
			return false
		}
	}
	return true
}

// associated is the test that keeps generic and chance pairings out:
// k of the situation's n episodes made the choice, which base of all
// episodes make; the chance of k or more under no association (the
// binomial tail) must be under alpha / tests, Bonferroni's correction for
// every pair the miner tests. "Run the tests", made everywhere, is no
// more likely in one situation than in all; three episodes that share
// three noise words and a common choice are what thousands of tests find
// by chance.
// The chance is least when every episode of the situation made the choice (n = k), so
// a pair that fails then fails without the situation being looked up:
// most pairs, in noise.
func (m *miner) associated(c int32, k int, s termSet) bool {
	base := float64(m.choiceEps[c]) / float64(m.withUnits)
	limit := alpha / float64(max(m.tests, 1))
	if binomialTail(k, k, base) >= limit {
		return false
	}
	n, ok := m.sizes[s]
	if !ok {
		n = m.episodesOf(m.situation(s))
		m.sizes[s] = n
	}
	return binomialTail(k, n, base) < limit
}

// alpha is the significance of the association test over all pairs.
const alpha = 0.05

// binomialTail is the chance of k or more successes in n trials of
// chance p.
func binomialTail(k, n int, p float64) float64 {
	if k <= 0 {
		return 1
	}
	if p <= 0 {
		return 0
	}
	if p >= 1 {
		return 1
	}
	lp, lq := math.Log(p), math.Log1p(-p)
	sum := 0.0
	for i := k; i <= n; i++ {
		term := math.Exp(lchoose(n, i) + float64(i)*lp + float64(n-i)*lq)
		sum += term
		if term < sum*1e-12 {
			break // the terms only fall from the mode on
		}
	}
	return min(sum, 1)
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// episodesOf counts the different episodes of units (ascending).
func (m *miner) episodesOf(units []int) int {
	n, last := 0, -1
	for _, u := range units {
		if m.units[u].ep != last {
			n++
			last = m.units[u].ep
		}
	}
	return n
}

// contrasts are the other choices made in the situation, best first
// (confidence, occurrences, action), at most MaxContrasts.
func (m *miner) contrasts(c int32, situation []int) []Choice {
	by := map[int32][]int{}
	for _, u := range situation {
		if d := m.units[u].choice; d != c {
			by[d] = append(by[d], u)
		}
	}
	out := []Choice{}
	for _, units := range by {
		r, _ := m.choice(units)
		r.Action = m.mostCommon(units, func(u *unit) string { return u.wording })
		out = append(out, r.Choice)
	}
	slices.SortFunc(out, compareChoices)
	return out[:min(len(out), m.opt.MaxContrasts)]
}

func compareChoices(a, b Choice) int {
	return cmp.Or(cmp.Compare(b.Confidence, a.Confidence), cmp.Compare(b.Occurrences, a.Occurrences), strings.Compare(a.Action, b.Action))
}

// words are the terms of s as the situations write them: for each term,
// the most common word that analyses to it (ties to the first in
// alphabetical order), the words sorted.
func (m *miner) words(s termSet, units []int) []string {
	count := map[string]int{}
	for _, u := range units {
		for _, w := range causal.Words(m.units[u].situation) {
			w = strings.ToLower(w)
			if ts := m.analyse(w); len(ts) == 1 && slices.Contains(s[:s.len()], m.termID[ts[0]]) {
				count[w]++
			}
		}
	}
	best := map[int32]string{}
	for w, n := range count {
		t := m.termID[m.analyse(w)[0]]
		if b, ok := best[t]; !ok || n > count[b] || n == count[b] && w < b {
			best[t] = w
		}
	}
	out := []string{}
	for k := range s.len() {
		if w, ok := best[s[k]]; ok {
			out = append(out, w)
		} else {
			out = append(out, m.termText[s[k]])
		}
	}
	slices.Sort(out)
	return out
}
