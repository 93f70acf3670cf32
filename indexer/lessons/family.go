package lessons

import (
	"cmp"
	"slices"
)

// families sets each cluster's Family: clusters joined through the
// related tier, strongest link first, into families of at most max
// clusters (capped single linkage). A link is taken only when it joins
// two families whose clusters number max or fewer together, so a chain of
// links (A near B, B near C, …) cannot merge everything: a family grows
// through its strongest links and stops at the cap. The links are the
// related lists, which are symmetric and mutual nearest neighbours, so a
// cluster near everything does not pull everything in either.
//
// Family is the place of the family's first cluster in out (out is
// sorted, so the family's most recurring one), its own place when the
// cluster is alone. Equal scores are taken in order of place, so the
// result depends on the clusters only.
func families(out []Cluster, max int) {
	f := newUnion(len(out))
	for _, l := range links(out) {
		a, b := f.find(l.a), f.find(l.b)
		if a != b && f.size[a]+f.size[b] <= max {
			f.join(a, b)
		}
	}
	first := make([]int, len(out))
	for i := range first {
		first[i] = -1
	}
	for i := range out {
		r := f.find(i)
		if first[r] < 0 {
			first[r] = i
		}
		out[i].Family = first[r]
	}
}

type familyLink struct {
	a, b  int
	score float64
}

// links returns the related tier's pairs, each once (a < b), strongest
// first, then in order of place.
func links(out []Cluster) []familyLink {
	var ls []familyLink
	for i, c := range out {
		for _, r := range c.Related {
			if r.Cluster > i {
				ls = append(ls, familyLink{i, r.Cluster, r.Score})
			}
		}
	}
	slices.SortFunc(ls, func(x, y familyLink) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		if c := cmp.Compare(x.a, y.a); c != 0 {
			return c
		}
		return cmp.Compare(x.b, y.b)
	})
	return ls
}

// union is a disjoint-set forest with each root's number of members.
type union struct{ parent, size []int }

func newUnion(n int) *union {
	u := &union{parent: make([]int, n), size: make([]int, n)}
	for i := range n {
		u.parent[i], u.size[i] = i, 1
	}
	return u
}

func (u *union) find(x int) int {
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

// join makes the larger root (the first on a tie) the root of both.
func (u *union) join(a, b int) {
	if u.size[a] < u.size[b] || u.size[a] == u.size[b] && b < a {
		a, b = b, a
	}
	u.parent[b] = a
	u.size[a] += u.size[b]
}
