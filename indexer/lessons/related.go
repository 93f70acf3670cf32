package lessons

import (
	"math"
	"slices"
)

// relate lists the related tier on the clusters: two clusters whose
// leaders are related in the joiner's tier, whatever their polarity, each
// on the other's list when each is among the other's max best (mutual
// nearest neighbours). The lists are symmetric and short, and a cluster
// near many others does not crowd all their lists. index maps a number of
// creation to a place in out, which is sorted; equal scores go to the
// earlier place.
func relate(out []Cluster, index []int, j *joiner, leader []int, negated []bool, max int) {
	near := make([][]Related, len(out))
	j.join(leader, func(x, y int, s float64) {
		a, b := index[x], index[y]
		score := math.Round(s*1e4) / 1e4
		opposite := negated[leader[x]] != negated[leader[y]]
		near[a] = best(near[a], Related{Cluster: b, Score: score, Opposite: opposite}, max)
		near[b] = best(near[b], Related{Cluster: a, Score: score, Opposite: opposite}, max)
	})
	for i, rs := range near {
		for _, r := range rs {
			if slices.ContainsFunc(near[r.Cluster], func(x Related) bool { return x.Cluster == i }) {
				out[i].Related = append(out[i].Related, r)
			}
		}
	}
}

// best inserts r into rs, kept sorted best first (higher score, then the
// earlier place) and at most max long: the same as sorting every related
// cluster and keeping the first max, without holding them all, which in a
// repository of templated lessons are most pairs of clusters.
func best(rs []Related, r Related, max int) []Related {
	at := len(rs)
	for at > 0 && better(r, rs[at-1]) {
		at--
	}
	if at == max {
		return rs
	}
	if len(rs) < max {
		rs = append(rs, Related{})
	}
	copy(rs[at+1:], rs[at:len(rs)-1])
	rs[at] = r
	return rs
}

func better(x, y Related) bool {
	if x.Score != y.Score {
		return x.Score > y.Score
	}
	return x.Cluster < y.Cluster
}
