package mine

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// nearDuplicate is the share of the smaller evidence that another
// candidate of the same action must hold for the two to be one finding.
const nearDuplicate = 0.8

// distinct drops near-duplicates (the same action over nearly the same
// episodes, found by triggers nested in each other or overlapping),
// keeping of each the one with the most evidence (then the most terms,
// then the trigger's words), and what a pattern note already states,
// and returns the rest in their total order with their ids.
func (m *miner) distinct(found []pending) []Candidate {
	slices.SortStableFunc(found, func(a, b pending) int {
		return cmp.Or(cmp.Compare(len(b.episodes), len(a.episodes)), cmp.Compare(b.set.len(), a.set.len()),
			strings.Compare(m.setText(a.set), m.setText(b.set)), strings.Compare(a.c.Action, b.c.Action))
	})
	kept := map[int32][]pending{} // by choice
	var out []Candidate
	for _, p := range found {
		key := p.choice
		if slices.ContainsFunc(kept[key], func(q pending) bool { return overlap(p.episodes, q.episodes) >= nearDuplicate }) {
			m.res.Withheld[ReasonDuplicate]++
			continue
		}
		kept[key] = append(kept[key], p)
		if m.isWritten(p.choice, p.episodes) {
			m.res.Withheld[ReasonWritten]++
			continue
		}
		// What only a kept candidate shows is made for it alone.
		p.c.Terms = m.words(p.set, p.units)
		p.c.Contrasts = m.contrasts(p.choice, m.situation(p.set))
		out = append(out, p.c)
	}
	return order(out)
}

// setText is a trigger's terms, sorted, in one string: a tie-breaker.
func (m *miner) setText(s termSet) string {
	ts := make([]string, s.len())
	for k := range ts {
		ts[k] = m.termText[s[k]]
	}
	slices.Sort(ts)
	return strings.Join(ts, " ")
}

// overlap is the share of the smaller of a and b (ascending) the other
// holds.
func overlap(a, b []int) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	return held(a, b)
}

// held is the share of a (ascending) that b (ascending) holds.
func held(a, b []int) float64 {
	n, j := 0, 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// order sorts candidates by confidence, occurrences and id (best first),
// after giving each its id: a slug of its trigger's terms and its action,
// made unique by a number in that order.
func order(cs []Candidate) []Candidate {
	for i := range cs {
		cs[i].ID = "CANDIDATE-" + slug(strings.Join(cs[i].Terms, " "), 4) + "--" + slug(cs[i].Action, 8)
	}
	slices.SortStableFunc(cs, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(b.Choice.Confidence, a.Choice.Confidence), cmp.Compare(b.Choice.Occurrences, a.Choice.Occurrences),
			strings.Compare(a.ID, b.ID), strings.Compare(a.Trigger, b.Trigger), strings.Compare(a.Action, b.Action))
	})
	taken := map[string]bool{}
	for i := range cs {
		taken[cs[i].ID] = true
	}
	seen := map[string]bool{}
	for i := range cs {
		id := cs[i].ID
		for k := 2; seen[cs[i].ID]; k++ {
			if c := id + "-" + strconv.Itoa(k); !taken[c] {
				cs[i].ID = c
			}
		}
		seen[cs[i].ID] = true
	}
	if cs == nil {
		return []Candidate{}
	}
	return cs
}

// slug is s's first n words, lower case, letters and digits joined by
// hyphens.
func slug(s string, n int) string {
	ws := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return strings.Join(ws[:min(len(ws), n)], "-")
}

// result is the miner's Result.
func (m *miner) result() Result { return m.res }
