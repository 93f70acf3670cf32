package lessons

import (
	"cmp"
	"math"
	"slices"
)

// vector is a group's TF-IDF weights by feature id. The weights are fixed
// point (units of 2⁻³²), so that sums are exact whatever the order of
// their terms, and the similarity of two lessons does not depend on the
// order of the input, which numbers the features.
type vector struct {
	id    []int32 // features, ascending
	w     []int64
	term  []bool  // by position: the feature is a term, not a bigram
	terms []int32 // its terms' ids (corpus.terms), rarest first (tier.keys)
	sum   int64   // the total weight
}

// unit is the fixed-point 1: a weight of 20 (idf of a term once in a
// million lessons) a million times in one lesson is still far from
// overflowing a sum.
const unit = 1 << 32

// weigh computes each group's TF-IDF vector over n lessons: a feature's
// weight is tf × (ln(n/df) + 1), with df the number of lessons that have
// it.
func weigh(c *corpus, n int) []vector {
	df := make([]int, len(c.feats))
	for g, fc := range c.groups {
		for _, f := range fc {
			df[f.id] += c.size[g]
		}
	}
	idf := make([]int64, len(c.feats))
	for f, d := range df {
		idf[f] = int64(math.Round((math.Log(float64(n)/float64(d)) + 1) * unit))
	}
	rarer := func(a, b int32) int {
		if d := cmp.Compare(df[a], df[b]); d != 0 {
			return d
		}
		return cmp.Compare(a, b)
	}
	vs := make([]vector, len(c.groups))
	for g, fc := range c.groups {
		vs[g] = tfidf(c, fc, idf, rarer)
	}
	return vs
}

func tfidf(c *corpus, fc featuresOf, idf []int64, rarer func(a, b int32) int) vector {
	v := vector{id: make([]int32, len(fc)), w: make([]int64, len(fc)), term: make([]bool, len(fc))}
	for i, f := range fc {
		v.id[i], v.w[i], v.term[i] = f.id, int64(f.tf)*idf[f.id], c.feats[f.id].b < 0
		v.sum += v.w[i]
		if v.term[i] {
			v.terms = append(v.terms, f.id)
		}
	}
	slices.SortFunc(v.terms, rarer)
	for i, f := range v.terms {
		v.terms[i] = c.feats[f].a
	}
	return v
}

// similarity is the weighted overlap coefficient of two vectors: the
// weight they share (for each common feature, the smaller of its two
// weights) over the total weight of the lighter one; 1 when one's
// features are all the other's, 0 when they share none. shared counts
// their common terms.
//
// Overlap rather than Dice or cosine: a real lesson restated in other
// words often comes with a longer or a shorter explanation, and what the
// two share should not be diluted by the longer one. Short lessons are
// kept from matching on a word or two by the tiers' minimum of shared
// terms.
func similarity(a, b vector) (score float64, shared int) {
	var mass int64
	i, j := 0, 0
	for i < len(a.id) && j < len(b.id) {
		switch {
		case a.id[i] < b.id[j]:
			i++
		case a.id[i] > b.id[j]:
			j++
		default:
			mass += min(a.w[i], b.w[j])
			if a.term[i] {
				shared++
			}
			i++
			j++
		}
	}
	if mass == 0 {
		return 0, 0
	}
	return float64(mass) / float64(min(a.sum, b.sum)), shared
}

// tier is the relation of a tier: similarity strictly above threshold,
// and at least minShared terms in common, whatever the threshold.
type tier struct {
	threshold float64
	minShared int
}

func (t tier) need() int { return max(t.minShared, 1) }

// holds reports whether a and b are related in the tier, and their
// similarity.
func (t tier) holds(a, b vector) (float64, bool) {
	s, n := similarity(a, b)
	return s, n >= t.need() && s > t.threshold
}
