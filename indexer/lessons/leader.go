package lessons

// lead makes the duplicates tier by leader clustering: taking the groups
// in order, each joins the first cluster whose leader is related to it in
// the tier, or else starts a cluster and leads it; a group joins only a
// leader of the same polarity (both rules negated or neither). It returns
// each group's cluster, numbered in order of creation, and each cluster's
// leader. Only the leaders are indexed, by their keys (tier.keys).
func lead(vs []vector, negated []bool, order []int, features int, t tier) (cluster, leader []int) {
	cluster = make([]int, len(vs))
	var seen []int                      // by cluster: last step that compared with it, plus one
	postings := make([][]int, features) // clusters by key, ascending
	p := newProbe(t, features)
	for step, g := range order {
		v := vs[g]
		p.load(v)
		best := len(leader) // none found yet
		for _, r := range t.keys(v) {
			for _, k := range postings[r] {
				if k >= best {
					break // only an earlier cluster can do better
				}
				if seen[k] == step+1 {
					continue
				}
				seen[k] = step + 1
				if _, ok := p.holds(&vs[leader[k]]); ok && negated[g] == negated[leader[k]] {
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
		for _, r := range t.keys(v) {
			postings[r] = append(postings[r], best)
		}
	}
	return cluster, leader
}
