package lessons

// lead makes the duplicates tier by leader clustering: taking the groups
// in order, each joins the first cluster whose leader is related to it in
// the tier, or else starts a cluster and leads it; a group joins only a
// leader of the same polarity (both rules negated or neither). It returns
// each group's cluster, numbered in order of creation, and each cluster's
// leader. Only the leaders are indexed, by their keys (tier.keys).
func lead(vs []vector, negated []bool, order []int, terms int, t tier) (cluster, leader []int) {
	cluster = make([]int, len(vs))
	ix := newIndex(t, terms)
	c := newCounter(ix)
	for _, g := range order {
		v := &vs[g]
		best := len(leader)
		for _, k := range c.candidates(v, int32(len(leader))) {
			if _, ok := t.holds(*v, vs[leader[k]]); ok && negated[g] == negated[leader[k]] {
				best = int(k)
				break // the first cluster wins
			}
		}
		cluster[g] = best
		if best == len(leader) {
			leader = append(leader, g)
			ix.add(v)
		}
	}
	return cluster, leader
}
