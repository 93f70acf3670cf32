package lessons

import "math"

// slack widens the indexed prefixes against rounding: indexing more terms
// than needed only adds candidates, never loses one.
const slack = 1e-9

// lead clusters the groups by leader clustering: taking the groups in
// order, each joins the first cluster whose leader is similar to it, or
// else starts a cluster and leads it; a group joins only a leader of the
// same polarity (both negated or neither). It returns each group's cluster,
// numbered in order of creation, and each cluster's leader.
//
// Only the leaders are indexed, and only a prefix of each (Bayardo, Ma and
// Srikant's all-pairs prefix filter): a leader indexes its terms in rank
// order until the rest of it has norm at most threshold. If a group shares
// no indexed term with a leader, then by Cauchy–Schwarz their cosine is at
// most |rest of the leader| · |group| <= threshold, so probing the index
// with all of a group's terms finds every leader it is similar to. The
// rare terms come first, so the long posting lists of common words stay
// mostly unindexed.
func lead(vs []vector, negated []bool, order []int, terms int, threshold float64) (cluster, leader []int) {
	cluster = make([]int, len(vs))
	var seen []int                   // by cluster: last step that compared with it, plus one
	postings := make([][]int, terms) // clusters by indexed term, ascending
	bound := threshold - slack
	for step, g := range order {
		v := vs[g]
		best := len(leader) // none found yet
		for _, r := range v.rank {
			for _, k := range postings[r] {
				if k >= best {
					break // only an earlier cluster can do better
				}
				if seen[k] == step+1 {
					continue
				}
				seen[k] = step + 1
				if negated[g] == negated[leader[k]] && similar(v, vs[leader[k]], threshold) {
					best = k
				}
			}
		}
		cluster[g] = best
		if best < len(leader) {
			continue
		}
		leader = append(leader, g)
		seen = append(seen, 0)
		for k, rest := range suffixNorms(v) {
			if !(rest > bound) {
				break
			}
			postings[v.rank[k]] = append(postings[v.rank[k]], best)
		}
	}
	return cluster, leader
}

// suffixNorms yields, for each k, the norm of v's terms from k on.
func suffixNorms(v vector) []float64 {
	rest := make([]float64, len(v.w))
	var sum float64
	for k := len(v.w) - 1; k >= 0; k-- {
		sum += v.w[k] * v.w[k]
		rest[k] = math.Sqrt(sum)
	}
	return rest
}
