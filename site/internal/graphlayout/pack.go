package graphlayout

import (
	"cmp"
	"math"
	"slices"
)

// The packing of a band: components' boxes on a skyline, lone nodes in a
// grid below them.

// packBoxes places the components' boxes, tallest first, each at the
// lowest then leftmost free spot on a skyline, and moves their nodes
// there. Its width is chosen for the boxes and extra area below them to
// have about the aspect layoutAspect, and at least minWidth. It returns
// the packing's width and height.
func packBoxes(boxes []box, pos []vec, comps [][]int, extra, minWidth float64) (width, height float64) {
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
	width = max(widest, minWidth, math.Sqrt((area+extra)*layoutAspect))
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

// gridIsolated puts the lone nodes in rows below the packed components
// (height high, the band starting at top), by group then index, each
// group starting a new row, and returns the band's width and height.
func gridIsolated(lone, group []int, pos []vec, width, height, top float64) (float64, float64) {
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
	y := height
	if height > 0 {
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
		pos[v] = vec{float64(col) * layoutCell, top + y}
		col++
	}
	return width, y
}
