package lessons

import (
	"cmp"
	"math"
	"slices"
)

// link is two clusters of the related tier, by number of creation.
type link struct {
	a, b  int
	score float64
}

// relate returns every pair of clusters whose leaders are related in the
// tier, whatever their polarity.
func relate(j *joiner, leader []int) []link {
	var out []link
	j.join(leader, func(a, b int, s float64) {
		out = append(out, link{a, b, s})
	})
	return out
}

// attach lists each related pair on both clusters when each is among the
// other's max best (mutual nearest neighbours): the lists are symmetric
// and short, and a cluster near many others does not crowd all their
// lists. index maps a number of creation to a place in out, which is
// sorted; equal scores go to the earlier place.
func attach(out []Cluster, index []int, links []link, negated []bool, leader []int, max int) {
	near := make([][]Related, len(out))
	for _, l := range links {
		a, b := index[l.a], index[l.b]
		score := math.Round(l.score*1e4) / 1e4
		opposite := negated[leader[l.a]] != negated[leader[l.b]]
		near[a] = append(near[a], Related{Cluster: b, Score: score, Opposite: opposite})
		near[b] = append(near[b], Related{Cluster: a, Score: score, Opposite: opposite})
	}
	for i := range near {
		slices.SortFunc(near[i], func(x, y Related) int {
			if d := cmp.Compare(y.Score, x.Score); d != 0 {
				return d
			}
			return cmp.Compare(x.Cluster, y.Cluster)
		})
		near[i] = near[i][:min(max, len(near[i]))]
	}
	for i, rs := range near {
		for _, r := range rs {
			if slices.ContainsFunc(near[r.Cluster], func(x Related) bool { return x.Cluster == i }) {
				out[i].Related = append(out[i].Related, r)
			}
		}
	}
}
