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
// or three nodes are placed directly. Each is scaled to edges of length 1
// on average (more if it is crowded) and turned to lie wide.
//
// The picture puts the connected structure first. The components are
// split in three parts (Parts): the core, the components at least a
// tenth the size of the largest; the minor ones; and the small ones, of
// at most SmallMax nodes, hundreds of them in a memory (an episode with
// its one decision, a lone node), which the explorer collapses into a
// count. Each part is a band, packed on a skyline tallest component
// first, the core at the top; the small part's lone nodes go in a grid
// by group. The explorer shows the core's box (Picture.Core) first.
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

// Rect is a box of the picture: its top-left corner and its size.
type Rect struct{ X, Y, W, H float64 }

// Part is what a component is to the picture.
type Part uint8

const (
	// Core components are at least a tenth the size of the largest: the
	// connected structure, shown first.
	Core Part = iota
	// Minor components are the others larger than SmallMax nodes.
	Minor
	// Small components have at most SmallMax nodes. When every component
	// is small, they are all Core instead: then they are the structure.
	Small
)

// SmallMax is the most nodes a small component has: an episode and one
// or two of its decisions, a lone node.
const SmallMax = 3

// Picture is a graph laid out.
type Picture struct {
	Points []Point
	// Parts is each node's part (its component's).
	Parts []Part
	// Core is the box around the core's nodes.
	Core Rect
}

// Layout places n nodes joined by edges (pairs of node indexes, in either
// direction; repeats and self-loops are ignored). group orders the
// isolated nodes: they are gridded by group, then index.
func Layout(n int, edges [][2]int, group []int) Picture {
	pos, parts := layoutGraph(n, edges, group)
	pic := Picture{Points: make([]Point, len(pos)), Parts: parts}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for i, p := range pos {
		pic.Points[i] = Point{p.x, p.y}
		if parts[i] == Core {
			minX, maxX = min(minX, p.x), max(maxX, p.x)
			minY, maxY = min(minY, p.y), max(maxY, p.y)
		}
	}
	if n > 0 {
		pic.Core = Rect{minX, minY, maxX - minX, maxY - minY}
	}
	return pic
}

// Components lists the connected components of n nodes joined by edges,
// each sorted, largest first, then by smallest node index.
func Components(n int, edges [][2]int) [][]int {
	return components(adjacency(n, edges))
}

// Parts tells the part of each component of comps, as Components lists
// them.
func Parts(comps [][]int) []Part {
	out := make([]Part, len(comps))
	if len(comps) == 0 || len(comps[0]) <= SmallMax {
		return out // all Core
	}
	for i, c := range comps {
		switch {
		case len(c) <= SmallMax:
			out[i] = Small
		case len(c)*10 < len(comps[0]):
			out[i] = Minor
		}
	}
	return out
}

// layoutGraph is Layout, in the vectors the algorithms work in: the
// parts are bands one below the other, each as wide as the widest above
// it at least.
func layoutGraph(n int, edges [][2]int, group []int) ([]vec, []Part) {
	pos := make([]vec, n)
	parts := make([]Part, n)
	adj := adjacency(n, edges)
	comps := components(adj)
	kinds := Parts(comps)
	var bands [Small + 1][][]int
	for i, c := range comps {
		bands[kinds[i]] = append(bands[kinds[i]], c)
		for _, v := range c {
			parts[v] = kinds[i]
		}
	}
	top, width := 0.0, 0.0
	for _, b := range bands {
		if len(b) == 0 {
			continue
		}
		if top > 0 {
			top += 2 * layoutGap
		}
		w, h := placeBand(b, adj, group, pos, top, width)
		top += h
		width = max(width, w)
	}
	return pos, parts
}

// placeBand lays out comps and packs them below top, at least width
// wide, the lone nodes in a grid below the others; it returns the
// band's width and height.
func placeBand(comps [][]int, adj [][]int, group []int, pos []vec, top, width float64) (w, h float64) {
	var multi [][]int
	var lone []int
	for _, c := range comps {
		if len(c) == 1 {
			lone = append(lone, c[0])
			continue
		}
		multi = append(multi, c)
	}
	boxes := make([]box, len(multi))
	for i, c := range multi {
		boxes[i] = placeComponent(c, adj, pos)
	}
	// The lone nodes' grid, as wide as the packing, counts in its area.
	w, h = packBoxes(boxes, pos, multi, float64(len(lone))*layoutCell*layoutCell, width)
	for _, c := range multi {
		for _, v := range c {
			pos[v].y += top
		}
	}
	if len(lone) > 0 {
		w, h = gridIsolated(lone, group, pos, w, h, top)
	}
	return w, h
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
