package causal

import (
	"github.com/engramhq/engram/indexer/note"

	"cmp"
	"maps"
	"math"
	"slices"
	"sync"
)

// pathTieTolerance is the relative difference under which two path strengths
// count as equal (SPEC §3), so that 0.4×0.9 and 0.6×0.6 tie although their
// float64 products differ in the last bit.
const pathTieTolerance = 1e-12

// Paths answers strongest-path queries over a fixed set of edges. Build it
// once, query many times. Its graph never changes after NewPaths, and each
// query takes its own scratch memory, so Strongest may be called from
// several goroutines at once.
type Paths struct {
	ids []string // node ids, sorted: comparing indices compares ids
	// The out-edges of node u, in compressed sparse rows: positions
	// off[u] to off[u+1] of target, weight and edge, sorted by target.
	off    []int32
	target []int32
	weight []pathStrength
	edge   []note.Edge
	pool   sync.Pool // *pathScratch, so that a query allocates only its result
}

// Path is a strongest causal path: Nodes are ids from→to, Edges the edges
// taken, Strength the product of their weights.
type Path struct {
	Nodes    []string
	Edges    []note.Edge
	Strength float64
}

// NewPaths indexes edges for Strongest. It skips what can never be part of
// a strongest path: self-loops, and weights outside (0, 1], NaN included.
// Such weights must not reach it (the graph stage makes weights in (0, 1]);
// a weight above 1 is skipped rather than clamped because it is not a
// probability, and clamping would hide the bug that produced it. Of
// parallel edges between the same two nodes only the best is kept: the
// heaviest, then the smallest type.
func NewPaths(edges []note.Edge) *Paths {
	index := make(map[string]int32)
	for _, e := range edges {
		index[e.Source], index[e.Target] = 0, 0
	}
	ids := slices.Sorted(maps.Keys(index))
	for i, id := range ids {
		index[id] = int32(i)
	}
	src, dst := make([]int32, len(edges)), make([]int32, len(edges))
	for i, e := range edges {
		src[i], dst[i] = index[e.Source], index[e.Target]
	}
	return NewPathsIndexed(ids, src, dst, edges)
}

// NewPathsIndexed is NewPaths for a caller that keeps its nodes by index,
// as the query cache does: ids sorted and unique, and edges[i] going from
// ids[src[i]] to ids[dst[i]]. It skips hashing every id. Nodes without
// edges may be among ids.
func NewPathsIndexed(ids []string, src, dst []int32, edges []note.Edge) *Paths {
	p := &Paths{ids: ids}
	kept := make([]note.Edge, 0, len(edges))
	ks, kd := make([]int32, 0, len(edges)), make([]int32, 0, len(edges))
	for i, e := range edges {
		if src[i] != dst[i] && e.Weight > 0 && e.Weight <= 1 { // false for NaN
			kept, ks, kd = append(kept, e), append(ks, src[i]), append(kd, dst[i])
		}
	}
	p.rows(kept, ks, kd)
	n := len(p.ids)
	p.pool.New = func() any { return newPathScratch(n) }
	return p
}

// lookup is the index of a node id.
func (p *Paths) lookup(id string) (int32, bool) {
	i, ok := slices.BinarySearch(p.ids, id)
	return int32(i), ok
}

// rows lays kept out in rows by source with a counting sort (sorting the
// edges by their string ids took most of NewPaths' time), sorts each row by
// target and keeps the best of each run of parallel edges.
func (p *Paths) rows(kept []note.Edge, source, target []int32) {
	n := len(p.ids)
	start := make([]int32, n+1)
	for i := range kept {
		start[source[i]+1]++
	}
	for u := range n {
		start[u+1] += start[u]
	}
	next := slices.Clone(start[:n])
	bySource := make([]int32, len(kept)) // indices into kept
	for i, u := range source {
		bySource[next[u]] = int32(i)
		next[u]++
	}
	better := func(a, b int32) int { return comparePathEdges(target[a], target[b], &kept[a], &kept[b]) }
	p.off = make([]int32, n+1)
	p.target = make([]int32, 0, len(kept))
	p.weight = make([]pathStrength, 0, len(kept))
	p.edge = make([]note.Edge, 0, len(kept))
	for u := range n {
		row := bySource[start[u]:start[u+1]]
		slices.SortFunc(row, better)
		row = slices.CompactFunc(row, func(a, b int32) bool { return target[a] == target[b] })
		for _, i := range row {
			p.target = append(p.target, target[i])
			p.weight = append(p.weight, weightPathStrength(kept[i].Weight))
			p.edge = append(p.edge, kept[i])
		}
		p.off[u+1] = int32(len(p.target))
	}
}

// comparePathEdges orders the edges of a row by target, and parallel edges
// best first: heaviest, then smallest type. The evidence count only makes
// exact duplicates independent of input order.
func comparePathEdges(ta, tb int32, a, b *note.Edge) int {
	if c := cmp.Compare(ta, tb); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Weight, a.Weight); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Type, b.Type); c != 0 {
		return c
	}
	return cmp.Compare(b.EvidenceCount, a.EvidenceCount)
}

// Strongest returns the path from→to with the greatest product of weights
// using at most maxDepth edges (maxDepth >= 1). ok is false when there is
// none. from == to returns ok false (no empty path).
//
// Strengths equal within a relative 1e-12 tie; ties go to fewer edges, then
// to the smaller sequence of node ids compared node by node (parallel edges
// were settled by NewPaths). Paths are ranked correctly even when a long
// path's product underflows float64; its Strength is then 0.
//
// The search is Bellman-Ford by layers over a sparse frontier: layer k
// holds at most one state per node, the best path of exactly k edges
// there, and a state is dropped unless it is stronger than every earlier
// layer's state at its node (more edges and not stronger never wins) and
// stronger than the best path to `to` found so far. The work is that of
// the states that survive, not depth × nodes.
func (p *Paths) Strongest(from, to string, maxDepth int) (Path, bool) {
	src, ok := p.lookup(from)
	dst, ok2 := p.lookup(to)
	if !ok || !ok2 || src == dst || maxDepth < 1 {
		return Path{}, false
	}
	sc := p.pool.Get().(*pathScratch)
	s := pathSearch{Paths: p, pathScratch: sc, to: dst, goal: -1}
	// A simple path has at most len(ids)-1 edges, and a cycle never helps.
	s.run(src, min(maxDepth, len(p.ids)-1))
	path, found := s.path()
	s.reset()
	p.pool.Put(sc)
	return path, found
}

// pathStrength is a product of weights kept as m·2^e with m in [0.5, 1), so a
// path of thousands of edges, whose float64 product underflows to 0, is
// still ranked. Multiplying by 2 is exact, so m·2^e is the float64 product
// whenever that does not underflow. The zero value means "not reached".
type pathStrength struct {
	m float64
	e int
}

func weightPathStrength(w float64) pathStrength {
	m, e := math.Frexp(w)
	return pathStrength{m: m, e: e}
}

func (s pathStrength) reached() bool { return s.m != 0 }

func (s pathStrength) times(w pathStrength) pathStrength {
	m, e := s.m*w.m, s.e+w.e
	if m < 0.5 {
		m, e = m*2, e-1
	}
	return pathStrength{m: m, e: e}
}

// compare returns +1 when s is stronger than t, -1 when it is weaker, 0
// when they are equal within pathTieTolerance. Both must be reached.
func (s pathStrength) compare(t pathStrength) int {
	sm, tm := s.m, t.m
	switch d := s.e - t.e; {
	case d > 1:
		return 1
	case d < -1:
		return -1
	case d == 1:
		sm *= 2
	case d == -1:
		tm *= 2
	}
	tol := pathTieTolerance * max(sm, tm)
	switch {
	case sm-tm > tol:
		return 1
	case tm-sm > tol:
		return -1
	}
	return 0
}

func (s pathStrength) float() float64 { return math.Ldexp(s.m, s.e) }

// pathState is a path from the query's source: its strength, its last node,
// and the state it extends by one edge.
type pathState struct {
	str    pathStrength
	node   int32
	parent int32 // index into pathScratch.states; -1 for the source
	edge   int32 // index into Paths.edge of the edge into node
}

// pathScratch is the per-query memory, reused through Paths.pool. Between
// queries best is all unreached and slot all -1.
type pathScratch struct {
	best   []pathStrength // per node: strongest state of the finished layers
	slot   []int32        // per node: its state in the layer being built, or -1
	states []pathState    // every surviving state, layer after layer
}

func newPathScratch(n int) *pathScratch {
	s := &pathScratch{best: make([]pathStrength, n), slot: make([]int32, n)}
	for i := range s.slot {
		s.slot[i] = -1
	}
	return s
}

type pathSearch struct {
	*Paths
	*pathScratch
	to    int32
	goal  int32        // state of the best path to `to` so far, or -1
	bound pathStrength // its strength
}

func (s *pathSearch) run(from int32, maxDepth int) {
	unit := pathStrength{m: 0.5, e: 1}
	s.states = append(s.states[:0], pathState{str: unit, node: from, parent: -1, edge: -1})
	s.best[from] = unit
	start := 0
	for depth := 1; depth <= maxDepth && start < len(s.states); depth++ {
		end := len(s.states)
		for i := start; i < end; i++ {
			s.expand(int32(i), depth == maxDepth)
		}
		// Each new state is stronger than all before it at its node.
		for _, st := range s.states[end:] {
			s.best[st.node] = st.str
			s.slot[st.node] = -1
		}
		start = end
	}
}

// expand offers the extensions of state i by one edge to the next layer.
// On the last layer only the edge into `to`, if any, can matter.
func (s *pathSearch) expand(i int32, last bool) {
	u := s.states[i] // a copy: offer may grow s.states
	if u.node == s.to {
		return // anything beyond `to` that comes back to it is not simple
	}
	lo, hi := s.off[u.node], s.off[u.node+1]
	if last {
		j, found := slices.BinarySearch(s.target[lo:hi], s.to)
		if !found {
			return
		}
		lo += int32(j)
		hi = lo + 1
	}
	for j := lo; j < hi; j++ {
		v := s.target[j]
		c := u.str.times(s.weight[j])
		if b := s.best[v]; b.reached() && c.compare(b) <= 0 {
			continue
		}
		// Weights are at most 1: nothing from here beats the path found.
		if v != s.to && s.goal >= 0 && c.compare(s.bound) <= 0 {
			continue
		}
		s.offer(v, c, i, j)
	}
}

// offer makes the path parent+edge, of strength c, v's state in the layer
// being built unless v already has a better one there.
func (s *pathSearch) offer(v int32, c pathStrength, parent, edge int32) {
	k := s.slot[v]
	if k < 0 {
		k = int32(len(s.states))
		s.slot[v] = k
		s.states = append(s.states, pathState{str: c, node: v, parent: parent, edge: edge})
	} else {
		old := &s.states[k]
		switch c.compare(old.str) {
		case -1:
			return
		case 0:
			if !s.precedes(parent, old.parent) {
				return
			}
		}
		old.str, old.parent, old.edge = c, parent, edge
	}
	if v == s.to {
		s.goal, s.bound = k, c
	}
}

// precedes reports whether the node ids of the path to state a come before
// those of the path to state b. Both are in the same layer, so the paths
// have the same length, and once they reach a common state they agree all
// the way back: the last difference met walking back is the first one.
func (s *pathSearch) precedes(a, b int32) bool {
	var na, nb int32
	for a != b {
		na, nb = s.states[a].node, s.states[b].node
		a, b = s.states[a].parent, s.states[b].parent
	}
	return na < nb
}

func (s *pathSearch) path() (Path, bool) {
	if s.goal < 0 {
		return Path{}, false
	}
	n := 0
	for i := s.goal; i >= 0; i = s.states[i].parent {
		n++
	}
	p := Path{Nodes: make([]string, n), Edges: make([]note.Edge, n-1), Strength: s.states[s.goal].str.float()}
	for i, k := s.goal, n-1; i >= 0; i, k = s.states[i].parent, k-1 {
		st := s.states[i]
		p.Nodes[k] = s.ids[st.node]
		if k > 0 {
			p.Edges[k-1] = s.edge[st.edge]
		}
	}
	return p, true
}

// reset restores the scratch invariant; slot was reset layer by layer.
func (s *pathSearch) reset() {
	for _, st := range s.states {
		s.best[st.node] = pathStrength{}
	}
	s.states = s.states[:0]
}
