package graphlayout

import "math"

// quadtree is a Barnes-Hut quadtree over a component's positions: each
// cell holds its points' count and centre of mass, so the repulsion of a
// far cell is computed once for all its points.
type quadtree struct {
	cells []qcell
	stack []int32
}

type qcell struct {
	sx, sy, mass float64 // sums of the points' coordinates, and their count
	x0, y0, size float64 // the cell's square
	child        [4]int32
	point        int32 // a leaf's first point; -1 in an inner cell or an empty one
}

// maxDepth stops subdividing: points closer than the root's size / 2^40
// share a leaf, and exactly coincident points never loop.
const maxDepth = 40

func (t *quadtree) build(p []vec) {
	t.cells = t.cells[:0]
	minX, minY, maxX, maxY := bounds(p)
	size := max(maxX-minX, maxY-minY, 1e-6) * 1.0001
	t.cells = append(t.cells, emptyCell(minX, minY, size))
	for i := range p {
		t.insert(p, int32(i))
	}
}

func emptyCell(x0, y0, size float64) qcell {
	return qcell{x0: x0, y0: y0, size: size, child: [4]int32{-1, -1, -1, -1}, point: -1}
}

func (t *quadtree) insert(p []vec, i int32) {
	k := int32(0)
	for depth := 0; ; depth++ {
		c := &t.cells[k]
		leaf := c.child == [4]int32{-1, -1, -1, -1}
		if leaf && (c.mass == 0 || depth >= maxDepth) {
			if c.mass == 0 {
				c.point = i
			}
			c.add(p[i])
			return
		}
		if leaf { // holds one point: push it down a level
			old := c.point
			c.point = -1
			t.descend(p, k, old)
		}
		c = &t.cells[k]
		c.add(p[i])
		k = t.descend(p, k, -1-i)
	}
}

// descend returns the child of cell k that holds point i, creating it.
// A negative i (-1-point) only finds the child; otherwise the point is
// stored in it, which must be empty.
func (t *quadtree) descend(p []vec, k, i int32) int32 {
	pt := i
	if pt < 0 {
		pt = -1 - pt
	}
	c := t.cells[k]
	half := c.size / 2
	q, x0, y0 := 0, c.x0, c.y0
	if p[pt].x >= c.x0+half {
		q, x0 = q+1, x0+half
	}
	if p[pt].y >= c.y0+half {
		q, y0 = q+2, y0+half
	}
	ch := c.child[q]
	if ch < 0 {
		ch = int32(len(t.cells))
		t.cells = append(t.cells, emptyCell(x0, y0, half))
		t.cells[k].child[q] = ch
	}
	if i >= 0 {
		t.cells[ch].point = i
		t.cells[ch].add(p[i])
	}
	return ch
}

func (c *qcell) add(v vec) {
	c.sx += v.x
	c.sy += v.y
	c.mass++
}

// repulsion is the electrical force C·K²/d on point i from all others,
// far cells taken as one body at their centre of mass.
func (t *quadtree) repulsion(p []vec, i int32) vec {
	var f vec
	x, y := p[i].x, p[i].y
	t.stack = append(t.stack[:0], 0)
	for len(t.stack) > 0 {
		c := &t.cells[t.stack[len(t.stack)-1]]
		t.stack = t.stack[:len(t.stack)-1]
		if c.mass == 0 {
			continue
		}
		dx, dy := x-c.sx/c.mass, y-c.sy/c.mass
		d2 := float64(dx*dx) + float64(dy*dy)
		leaf := c.point >= 0
		if leaf || float64(c.size*c.size) < float64(layoutTheta*layoutTheta)*d2 {
			if d2 == 0 || math.IsNaN(d2) {
				continue // i itself, or points on top of it
			}
			s := layoutC * c.mass / d2
			f.x += float64(dx * s)
			f.y += float64(dy * s)
			continue
		}
		for _, ch := range c.child {
			if ch >= 0 {
				t.stack = append(t.stack, ch)
			}
		}
	}
	return f
}
