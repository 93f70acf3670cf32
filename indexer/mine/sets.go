package mine

import (
	"cmp"
	"slices"
)

// maxTerms bounds Options.MaxTerms: a trigger is a termSet.
const maxTerms = 4

// termSet is a trigger's terms, sorted, padded with -1.
type termSet [maxTerms]int32

func (s termSet) len() int {
	n := 0
	for n < maxTerms && s[n] >= 0 {
		n++
	}
	return n
}

// without is s less its k-th term.
func (s termSet) without(k int) termSet {
	out := termSet{-1, -1, -1, -1}
	j := 0
	for i := 0; i < s.len(); i++ {
		if i != k {
			out[j] = s[i]
			j++
		}
	}
	return out
}

func compareSets(a, b termSet) int {
	for i := range a {
		if c := cmp.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// itemset is a trigger found among the units of one choice, and those
// units (indexes into miner.units, ascending).
type itemset struct {
	terms termSet
	units []int
}

// frequentSets finds, among the units of one choice, the term sets of up
// to MaxTerms terms that at least MinEpisodes of them share, level by
// level (a set is counted only when each of its subsets one term smaller
// is frequent), and keeps the closed ones: a set with a superset shared
// by the same units describes the same pair in fewer words, and is
// counted as a duplicate.
func (m *miner) frequentSets(units []int) []itemset {
	levels := []map[termSet][]int{m.singles(units)}
	for len(levels) < min(m.opt.MaxTerms, maxTerms) && len(levels[len(levels)-1]) > 0 {
		levels = append(levels, m.grow(units, levels[0], levels[len(levels)-1], len(levels)))
	}
	var out []itemset
	for k, level := range levels {
		for s, us := range level {
			if k+1 < len(levels) && m.nested(s, us, levels[k+1]) {
				continue
			}
			out = append(out, itemset{terms: s, units: us})
		}
	}
	slices.SortFunc(out, func(a, b itemset) int { return compareSets(a.terms, b.terms) })
	return out
}

// singles are the terms at least MinEpisodes units share.
func (m *miner) singles(units []int) map[termSet][]int {
	all := map[termSet][]int{}
	for _, u := range units {
		for _, t := range m.units[u].terms {
			s := termSet{t, -1, -1, -1}
			all[s] = append(all[s], u)
		}
	}
	return m.frequent(all)
}

// grow makes the sets one term larger than those of level, from the
// frequent terms (singles) each unit has.
func (m *miner) grow(units []int, singles, level map[termSet][]int, size int) map[termSet][]int {
	all := map[termSet][]int{}
	var ts []int32
	for _, u := range units {
		ts = ts[:0]
		for _, t := range m.units[u].terms {
			if _, ok := singles[termSet{t, -1, -1, -1}]; ok {
				ts = append(ts, t)
			}
		}
		combos(ts, size+1, func(next termSet) {
			if m.subsetsFrequent(next, level) {
				all[next] = append(all[next], u)
			}
		})
	}
	return m.frequent(all)
}

// combos calls f with every set of size terms of terms (sorted).
func combos(terms []int32, size int, f func(termSet)) {
	var walk func(s termSet, n, from int)
	walk = func(s termSet, n, from int) {
		if n == size {
			f(s)
			return
		}
		for i := from; i <= len(terms)-(size-n); i++ {
			s[n] = terms[i]
			walk(s, n+1, i+1)
		}
	}
	walk(termSet{-1, -1, -1, -1}, 0, 0)
}

// subsetsFrequent reports whether every subset of s one term smaller is
// in level.
func (m *miner) subsetsFrequent(s termSet, level map[termSet][]int) bool {
	for k := 0; k < s.len(); k++ {
		if _, ok := level[s.without(k)]; !ok {
			return false
		}
	}
	return true
}

// frequent keeps the sets shared by at least MinEpisodes units.
func (m *miner) frequent(all map[termSet][]int) map[termSet][]int {
	for s, us := range all {
		if len(us) < m.opt.MinEpisodes {
			delete(all, s)
		}
	}
	return all
}

// nested reports whether a set one term larger than s is shared by the
// same units (us): then s is not closed.
func (m *miner) nested(s termSet, us []int, next map[termSet][]int) bool {
	for _, t := range m.units[us[0]].terms {
		if slices.Contains(s[:s.len()], t) {
			continue
		}
		bigger := s
		bigger[s.len()] = t
		slices.Sort(bigger[:s.len()+1])
		if vs, ok := next[bigger]; ok && len(vs) == len(us) {
			return true
		}
	}
	return false
}
