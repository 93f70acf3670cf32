// Package graphlayout places the nodes of a graph in the plane, for the
// site's graph explorer. It is computed at build time, so that the
// browser only draws: the same graph always gets the same picture, and a
// page of 10,000 notes does not make every visitor's laptop run a
// simulation. Its contract: Layout takes nodes as indexes and edges as
// pairs of them, knows nothing of notes or pages, and returns the same
// positions for the same input on every machine.
//
// Each connected component is laid out on its own with Yifan Hu's
// spring-electrical model (attraction d²/K, repulsion C·K²/d, adaptive
// step length), repulsion approximated by a Barnes-Hut quadtree so a
// component of n nodes costs O(n log n) an iteration; components of two
// or three nodes, most of them in a memory (an episode's decisions), are
// placed directly. Each is scaled to edges of length 1 on average (more if
// it is crowded), turned to lie wide, and the components are packed,
// tallest first, bottom-left on a skyline. Isolated nodes, often a large
// share of a memory's graph, go in a grid below, grouped by type, so they
// neither scatter nor blow the picture up.
//
// Determinism: positions start from a PCG seeded by the component, all
// loops run in index order on one goroutine, and every product that feeds
// a sum is converted with float64() so that no compiler fuses it into an
// FMA on one architecture and not on another (the Go spec lets it unless
// an explicit conversion rounds).
package graphlayout

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// Layout constants, in units of the natural edge length K = 1.
const (
	layoutC        = 0.2  // repulsion strength (Hu: 0.2)
	layoutTheta    = 1.2  // Barnes-Hut opening criterion (Hu: 1.2)
	layoutCool     = 0.9  // step length factor (Hu: 0.9)
	layoutTol      = 0.01 // converged when the mean move is below this
	layoutGap      = 1.0  // space between packed components
	layoutCell     = 1.0  // pitch of the isolated nodes' grid
	layoutAspect   = 1.6  // width / height the packing aims at
	layoutRoom     = 2.0  // least area per node in a component's box
	layoutMaxIters = 300  // iterations for a small component
	// layoutWork caps node-iterations per component: a large component
	// gets fewer iterations, so the whole layout stays near-linear.
	layoutWork = 600_000
)

type vec struct{ x, y float64 }

// Point is a node's place, in units of an edge's length, with the
// top-left corner of the layout at (0, 0).
type Point struct{ X, Y float64 }

// Layout places n nodes joined by edges (pairs of node indexes, in either
// direction; repeats and self-loops are ignored). group orders the
// isolated nodes: they are gridded by group, then index.
func Layout(n int, edges [][2]int, group []int) []Point {
	pos := layoutGraph(n, edges, group)
	out := make([]Point, len(pos))
	for i, p := range pos {
		out[i] = Point{p.x, p.y}
	}
	return out
}

// layoutGraph is Layout, in the vectors the algorithms work in.
func layoutGraph(n int, edges [][2]int, group []int) []vec {
	pos := make([]vec, n)
	adj := adjacency(n, edges)
	var comps, singles [][]int
	for _, c := range components(adj) {
		if len(c) == 1 {
			singles = append(singles, c)
			continue
		}
		comps = append(comps, c)
	}
	boxes := make([]box, len(comps))
	for i, c := range comps {
		boxes[i] = placeComponent(c, adj, pos)
	}
	// The isolated nodes' grid, as wide as the packing, counts in its area.
	width, height := packBoxes(boxes, pos, comps, float64(len(singles))*layoutCell*layoutCell)
	lone := make([]int, len(singles))
	for i, c := range singles {
		lone[i] = c[0]
	}
	gridIsolated(lone, group, pos, width, height)
	return pos
}

// adjacency lists each node's neighbours, sorted, without repeats.
func adjacency(n int, edges [][2]int) [][]int {
	adj := make([][]int, n)
	for _, e := range edges {
		a, b := e[0], e[1]
		if a == b || a < 0 || b < 0 || a >= n || b >= n {
			continue
		}
		adj[a] = append(adj[a], b)
		adj[b] = append(adj[b], a)
	}
	for i := range adj {
		slices.Sort(adj[i])
		adj[i] = slices.Compact(adj[i])
	}
	return adj
}

// components lists the connected components, each sorted, largest first,
// then by smallest node index.
func components(adj [][]int) [][]int {
	seen := make([]bool, len(adj))
	var out [][]int
	for s := range adj {
		if seen[s] {
			continue
		}
		seen[s] = true
		c := []int{s}
		for k := 0; k < len(c); k++ {
			for _, v := range adj[c[k]] {
				if !seen[v] {
					seen[v] = true
					c = append(c, v)
				}
			}
		}
		slices.Sort(c)
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b []int) int { return cmp.Compare(len(b), len(a)) })
	return out
}

// box is a laid-out component's extent, its nodes already translated so
// that the box's top-left corner is at the origin.
type box struct{ w, h float64 }

// placeComponent lays out one component, turns it so its long axis is
// horizontal and moves it to the origin.
func placeComponent(c []int, adj [][]int, pos []vec) box {
	local := make(map[int]int32, len(c))
	for i, v := range c {
		local[v] = int32(i)
	}
	nbr := make([][]int32, len(c))
	for i, v := range c {
		nbr[i] = make([]int32, len(adj[v]))
		for k, u := range adj[v] {
			nbr[i][k] = local[u]
		}
	}
	p := forceLayout(nbr, uint64(c[0]))
	unitEdges(p, nbr)
	alignAxis(p)
	spread(p)
	minX, minY, maxX, maxY := bounds(p)
	for i, v := range c {
		pos[v] = vec{p[i].x - minX, p[i].y - minY}
	}
	return box{maxX - minX, maxY - minY}
}

// forceLayout runs Hu's spring-electrical model on one connected
// component given as neighbour lists.
func forceLayout(nbr [][]int32, seed uint64) []vec {
	if small := smallLayout(nbr); small != nil {
		return small
	}
	n := len(nbr)
	p := make([]vec, n)
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	side := math.Sqrt(float64(n))
	for i := range p {
		p[i] = vec{rng.Float64() * side, rng.Float64() * side}
	}
	iters := min(layoutMaxIters, max(40, layoutWork/n))
	step := max(side/5, 1)
	energy := math.Inf(1)
	progress := 0
	var t quadtree
	for range iters {
		t.build(p)
		prev := energy
		energy = 0
		moved := 0.0
		for i := range p {
			f := t.repulsion(p, int32(i))
			for _, j := range nbr[i] {
				dx, dy := p[j].x-p[i].x, p[j].y-p[i].y
				d := math.Sqrt(float64(dx*dx) + float64(dy*dy))
				f.x += float64(dx * d)
				f.y += float64(dy * d)
			}
			norm := math.Sqrt(float64(f.x*f.x) + float64(f.y*f.y))
			if norm > 0 {
				s := step / norm
				p[i].x += float64(f.x * s)
				p[i].y += float64(f.y * s)
				moved += step
			}
			energy += float64(norm * norm)
		}
		step, progress = cool(step, energy, prev, progress)
		if moved/float64(n) < layoutTol {
			break
		}
	}
	return p
}

// smallLayout places the components of two and three nodes, most of a
// memory's (an episode's decisions), without simulation: a straight line,
// or a triangle. It returns nil for larger ones.
func smallLayout(nbr [][]int32) []vec {
	switch {
	case len(nbr) == 2:
		return []vec{{0, 0}, {1, 0}}
	case len(nbr) != 3:
		return nil
	case len(nbr[0]) == 2 && len(nbr[1]) == 2 && len(nbr[2]) == 2:
		return []vec{{0, 0}, {1, 0}, {0.5, math.Sqrt(3) / 2}}
	}
	// A path: its middle node is the one with two neighbours.
	p := make([]vec, 3)
	for i, end := range nbr {
		if len(end) == 2 {
			p[i] = vec{1, 0}
			p[end[0]] = vec{0, 0}
			p[end[1]] = vec{2, 0}
		}
	}
	return p
}

// unitEdges scales p so that its edges are 1 long on average: the
// model's natural length is C^(1/3), not 1, and the isolated nodes' grid
// and the packing's gaps are in edge lengths.
func unitEdges(p []vec, nbr [][]int32) {
	sum, n := 0.0, 0
	for i := range nbr {
		for _, j := range nbr[i] {
			sum += math.Hypot(p[j].x-p[i].x, p[j].y-p[i].y)
			n++
		}
	}
	if n == 0 || sum == 0 {
		return
	}
	s := float64(n) / sum
	for i := range p {
		p[i].x *= s
		p[i].y *= s
	}
}

// spread enlarges a crowded component, one whose box gives its nodes less
// room each than layoutRoom: hubs with many neighbours pack them closer
// than one edge length. Paths of two or three nodes are never crowded.
func spread(p []vec) {
	if len(p) <= 3 {
		return
	}
	minX, minY, maxX, maxY := bounds(p)
	area := (maxX - minX + 1) * (maxY - minY + 1)
	s := math.Sqrt(layoutRoom * float64(len(p)) / area)
	if s <= 1 {
		return
	}
	for i := range p {
		p[i].x *= s
		p[i].y *= s
	}
}

// cool is Hu's adaptive step length: it grows back after a step that
// raised the energy and shrinks after five that lowered it.
func cool(step, energy, prev float64, progress int) (float64, int) {
	if energy >= prev {
		return step * layoutCool, 0
	}
	progress++
	if progress >= 5 {
		return step / layoutCool, 0
	}
	return step, progress
}

// alignAxis turns p about its centroid so that its principal axis is
// horizontal: components then pack into a wide picture. The eigenvector
// of the 2×2 covariance needs a square root only, no trigonometry.
func alignAxis(p []vec) {
	var cx, cy float64
	for _, v := range p {
		cx += v.x
		cy += v.y
	}
	n := float64(len(p))
	cx, cy = cx/n, cy/n
	var a, b, c float64
	for _, v := range p {
		dx, dy := v.x-cx, v.y-cy
		a += float64(dx * dx)
		b += float64(dx * dy)
		c += float64(dy * dy)
	}
	// Largest eigenvalue of [[a b] [b c]] and its eigenvector (b, l-a).
	l := (a+c)/2 + math.Sqrt(float64((a-c)*(a-c))/4+float64(b*b))
	ex, ey := b, l-a
	norm := math.Sqrt(float64(ex*ex) + float64(ey*ey))
	if norm == 0 || math.IsNaN(norm) {
		return // already axis-aligned (b = 0 and a >= c) or degenerate
	}
	ex, ey = ex/norm, ey/norm
	for i, v := range p {
		dx, dy := v.x-cx, v.y-cy
		p[i] = vec{float64(dx*ex) + float64(dy*ey), float64(dy*ex) - float64(dx*ey)}
	}
}

func bounds(p []vec) (minX, minY, maxX, maxY float64) {
	minX, minY = math.Inf(1), math.Inf(1)
	maxX, maxY = math.Inf(-1), math.Inf(-1)
	for _, v := range p {
		minX, maxX = min(minX, v.x), max(maxX, v.x)
		minY, maxY = min(minY, v.y), max(maxY, v.y)
	}
	return minX, minY, maxX, maxY
}

// packBoxes places the components' boxes, tallest first, each at the
// lowest then leftmost free spot on a skyline, and moves their nodes
// there. Its width is chosen for the boxes and extra area below them to
// have about the aspect layoutAspect. It returns the packing's width and
// height.
func packBoxes(boxes []box, pos []vec, comps [][]int, extra float64) (width, height float64) {
	// Sizes are rounded up to whole units and equal boxes placed one after
	// the other: the many small components of a shape then pack as a
	// grid, without holes.
	order := make([]int, len(boxes))
	for i, b := range boxes {
		boxes[i] = box{math.Ceil(b.w + layoutGap - 0.25), math.Ceil(b.h + layoutGap - 0.25)}
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		return cmp.Or(cmp.Compare(boxes[j].h, boxes[i].h), cmp.Compare(boxes[j].w, boxes[i].w))
	})
	area, widest := 0.0, 0.0
	for _, b := range boxes {
		area += float64(b.w * b.h)
		widest = max(widest, b.w)
	}
	width = max(widest, math.Sqrt((area+extra)*layoutAspect))
	sky := skyline{{x: 0, w: width}}
	for _, i := range order {
		b := boxes[i]
		x, y := sky.place(b.w, b.h)
		for _, v := range comps[i] {
			pos[v].x += x
			pos[v].y += y
		}
		height = max(height, y+b.h)
	}
	return width, height
}

// skyline is the top edge of the packed boxes: segments left to right,
// each a run of width w at height y.
type skyline []struct{ x, w, y float64 }

// place finds the lowest, then leftmost, spot for a box of w × h, raises
// the skyline over it and returns its top-left corner.
func (s *skyline) place(w, h float64) (float64, float64) {
	sk := *s
	best, bestX, bestY := -1, 0.0, math.Inf(1)
	for i := range sk {
		x := sk[i].x
		if x+w > sk[len(sk)-1].x+sk[len(sk)-1].w+1e-9 {
			break
		}
		y := 0.0
		for j := i; j < len(sk) && sk[j].x < x+w-1e-9; j++ {
			y = max(y, sk[j].y)
		}
		if y < bestY {
			best, bestX, bestY = i, x, y
		}
	}
	if best < 0 { // wider than the skyline: only when w > width
		best, bestX = 0, 0
		bestY = 0
		for _, seg := range sk {
			bestY = max(bestY, seg.y)
		}
	}
	s.raise(bestX, w, bestY+h)
	return bestX, bestY
}

// raise sets the skyline to y over [x, x+w), merging equal neighbours.
func (s *skyline) raise(x, w, y float64) {
	const eps = 1e-9
	type seg = struct{ x, w, y float64 }
	end := x + w
	var out skyline
	added := false
	for _, g := range *s {
		gEnd := g.x + g.w
		if gEnd <= x+eps || g.x >= end-eps {
			if g.x >= end-eps && !added {
				out, added = append(out, seg{x, w, y}), true
			}
			out = append(out, g)
			continue
		}
		if g.x < x-eps {
			out = append(out, seg{g.x, x - g.x, g.y})
		}
		if !added {
			out, added = append(out, seg{x, w, y}), true
		}
		if gEnd > end+eps {
			out = append(out, seg{end, gEnd - end, g.y})
		}
	}
	if !added {
		out = append(out, seg{x, w, y})
	}
	merged := out[:0]
	for _, g := range out {
		if k := len(merged) - 1; k >= 0 && merged[k].y == g.y {
			merged[k].w = g.x + g.w - merged[k].x
			continue
		}
		merged = append(merged, g)
	}
	*s = merged
}

// gridIsolated puts the isolated nodes in rows below the packed
// components, by group then index, each group starting a new row.
func gridIsolated(lone, group []int, pos []vec, width, top float64) {
	g := func(v int) int {
		if v < len(group) {
			return group[v]
		}
		return 0
	}
	slices.SortStableFunc(lone, func(a, b int) int { return cmp.Or(cmp.Compare(g(a), g(b)), cmp.Compare(a, b)) })
	// Without components to match, the grid is about as wide as packing's aspect.
	width = max(width, math.Ceil(math.Sqrt(float64(len(lone))*layoutAspect))*layoutCell)
	perRow := max(1, int(width/layoutCell))
	y := top
	if top > 0 {
		y += layoutGap
	}
	col := 0
	for i, v := range lone {
		if i > 0 && (col == perRow || g(v) != g(lone[i-1])) {
			col = 0
			y += layoutCell
			if g(v) != g(lone[i-1]) {
				y += layoutCell
			}
		}
		pos[v] = vec{float64(col) * layoutCell, y}
		col++
	}
}
