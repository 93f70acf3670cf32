package lessons

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// byRecency returns the groups in the order leader clustering takes them:
// the one with the most recent winner first. Among groups of the same
// date, the one related in the duplicates tier to the most others of that
// date comes first (then the smaller wording): an episode often states one
// lesson twice, as a rule and as an "Avoid:", and a third way in its
// explanation, and the wording nearest the others should lead them rather
// than the alphabetically first. The order depends only on the lessons.
func byRecency(ls []Lesson, win []int, negated []bool, j *joiner) []int {
	type when struct {
		sec     int64
		nsec    int
		wording string
	}
	at := make([]when, len(win))
	order := make([]int, len(win))
	for g, i := range win {
		at[g] = when{ls[i].Date.Unix(), ls[i].Date.Nanosecond(), wording(ls[i].Text)}
		order[g] = g
	}
	// newer, between groups: two groups never share a wording.
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(at[b].sec, at[a].sec); c != 0 {
			return c
		}
		if c := cmp.Compare(at[b].nsec, at[a].nsec); c != 0 {
			return c
		}
		return strings.Compare(at[a].wording, at[b].wording)
	})
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && at[order[end]].sec == at[order[start]].sec && at[order[end]].nsec == at[order[start]].nsec {
			end++
		}
		centralFirst(order[start:end], negated, j)
		start = end
	}
	return order
}

// centralFirst sorts groups of one date by how many of the others they
// are related to, most first, keeping the order of equals.
func centralFirst(groups []int, negated []bool, j *joiner) {
	if len(groups) < 2 {
		return
	}
	degree := make([]int, len(groups))
	j.join(groups, func(a, b int, _ float64) {
		if negated[groups[a]] == negated[groups[b]] {
			degree[a]++
			degree[b]++
		}
	})
	if !slices.ContainsFunc(degree, func(d int) bool { return d > 0 }) {
		return
	}
	type ranked struct{ group, degree int }
	rs := make([]ranked, len(groups))
	for i, g := range groups {
		rs[i] = ranked{g, degree[i]}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int { return b.degree - a.degree })
	for i, r := range rs {
		groups[i] = r.group
	}
}

// newer reports whether a's wording should win over b's: the later date,
// then the smaller wording, then (same instant and wording, different zone)
// the smaller formatted date, so that the output never depends on order.
func newer(a, b Lesson) bool {
	if !a.Date.Equal(b.Date) {
		return a.Date.After(b.Date)
	}
	if wa, wb := wording(a.Text), wording(b.Text); wa != wb {
		return wa < wb
	}
	return a.Date.Format(time.RFC3339Nano) < b.Date.Format(time.RFC3339Nano)
}

func wording(s string) string { return strings.TrimSpace(s) }
