package lessons

import (
	"cmp"
	"math"
	"slices"
)

// vector is a group's TF-IDF vector scaled to unit length, its terms by
// rank: rarest first (fewest lessons, then the term itself), an order that
// depends on the lessons and not on how they are ordered.
type vector struct {
	rank []int32
	w    []float64
}

// weigh computes each group's unit TF-IDF vector over n lessons.
func weigh(c *corpus, n int) []vector {
	df := make([]int, len(c.terms))
	for g, tc := range c.groups {
		for _, t := range tc {
			df[t.id] += c.size[g]
		}
	}
	order := make([]int32, len(c.terms))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if d := cmp.Compare(df[a], df[b]); d != 0 {
			return d
		}
		return cmp.Compare(c.terms[a], c.terms[b])
	})
	rank := make([]int32, len(c.terms))
	for r, id := range order {
		rank[id] = int32(r)
	}
	vs := make([]vector, len(c.groups))
	for g, tc := range c.groups {
		vs[g] = unit(tc, rank, df, n)
	}
	return vs
}

func unit(tc termsOf, rank []int32, df []int, n int) vector {
	type entry struct {
		rank int32
		w    float64
	}
	es := make([]entry, len(tc))
	for i, t := range tc {
		idf := math.Log(float64(n)/float64(df[t.id])) + 1
		es[i] = entry{rank[t.id], float64(t.tf) * idf}
	}
	slices.SortFunc(es, func(a, b entry) int { return cmp.Compare(a.rank, b.rank) })
	var sum float64
	for _, e := range es {
		sum += e.w * e.w
	}
	norm := math.Sqrt(sum)
	v := vector{rank: make([]int32, len(es)), w: make([]float64, len(es))}
	for i, e := range es {
		v.rank[i], v.w[i] = e.rank, e.w/norm
	}
	return v
}

// cosine of two unit vectors, summed in rank order so that it does not
// depend on which is a and which is b.
func cosine(a, b vector) float64 {
	var dot float64
	i, j := 0, 0
	for i < len(a.rank) && j < len(b.rank) {
		switch {
		case a.rank[i] < b.rank[j]:
			i++
		case a.rank[i] > b.rank[j]:
			j++
		default:
			dot += a.w[i] * b.w[j]
			i++
			j++
		}
	}
	return dot
}

// similar is the clustering relation: cosine strictly above threshold,
// and a shared term (a positive cosine) whatever the threshold.
func similar(a, b vector, threshold float64) bool {
	c := cosine(a, b)
	return c > threshold && c > 0
}
