package lessons

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/search"
	"golang.org/x/text/unicode/norm"
)

// corpus is the lessons after analysis, with lessons of the same terms
// gathered in one group: they have the same vector, so they are compared
// once.
type corpus struct {
	group  []int     // group of each lesson
	groups []termsOf // per group
	size   []int     // lessons per group
	terms  []string  // term id -> term
}

// termsOf is a group's terms with their counts, sorted by term id; empty
// for a group of lessons without terms.
type termsOf []termCount

type termCount struct {
	id int32
	tf int32
}

func analyse(ls []Lesson) *corpus {
	c := &corpus{group: make([]int, len(ls))}
	byWording := map[string]int{}
	byKey := map[string]int{}
	ids := map[string]int32{}
	for i, l := range ls {
		w := wording(l.Text)
		g, ok := byWording[w]
		if !ok {
			text := prepare(w)
			tc := c.count(search.AnalyzeKeepingNegations(text), ids)
			key := "n" + normal(text)
			if len(tc) > 0 {
				key = tc.key()
			}
			if g, ok = byKey[key]; !ok {
				g = len(c.groups)
				byKey[key] = g
				c.groups = append(c.groups, tc)
				c.size = append(c.size, 0)
			}
			byWording[w] = g
		}
		c.group[i] = g
		c.size[g]++
	}
	return c
}

// prepare makes canonically equivalent texts analyse alike (NFC) and lets
// the contraction and stop-word filters, which know only "'", see
// typographic apostrophes.
func prepare(s string) string {
	s = norm.NFC.String(s)
	if !strings.ContainsAny(s, "\u2019\uFF07") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\u2019' || r == '\uFF07' {
			return '\''
		}
		return r
	}, s)
}

// normal is the identity of a text without terms.
func normal(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// count interns the tokens' terms and counts them.
func (c *corpus) count(ts []string, ids map[string]int32) termsOf {
	var tc termsOf
	for _, t := range ts {
		id, ok := ids[t]
		if !ok {
			id = int32(len(c.terms))
			ids[t] = id
			c.terms = append(c.terms, t)
		}
		tc = append(tc, termCount{id: id, tf: 1})
	}
	slices.SortFunc(tc, func(a, b termCount) int { return cmp.Compare(a.id, b.id) })
	out := tc[:0]
	for _, t := range tc {
		if n := len(out); n > 0 && out[n-1].id == t.id {
			out[n-1].tf++
			continue
		}
		out = append(out, t)
	}
	return out
}

// key identifies a multiset of terms within one call of Clusters.
func (tc termsOf) key() string {
	b := make([]byte, 0, 1+4*len(tc))
	b = append(b, 't')
	for _, t := range tc {
		b = binary.AppendUvarint(b, uint64(t.id))
		b = binary.AppendUvarint(b, uint64(t.tf))
	}
	return string(b)
}
