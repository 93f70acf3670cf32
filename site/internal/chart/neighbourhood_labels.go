package chart

import (
	"math"
	"slices"
	"strings"
)

// extent is the top and bottom of the drawn nodes and labels.
func (d lgDrawing) extent(labels []lgLabel) (top, bottom float64) {
	top, bottom = lgCY, lgCY
	for i, pt := range d.pts {
		r := d.radius(i)
		top, bottom = math.Min(top, pt.y-r), math.Max(bottom, pt.y+r)
		if l := labels[i]; len(l.lines) > 0 {
			top, bottom = math.Min(top, l.top), math.Max(bottom, l.top+lgLineH*float64(len(l.lines)))
		}
	}
	return top, bottom
}

// lgBox is a rectangle: x0, y0 top left, x1, y1 bottom right.
type lgBox struct{ x0, y0, x1, y1 float64 }

func (a lgBox) hits(b lgBox) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }

// lgLabel is a placed label; no lines when there was no room for it.
type lgLabel struct {
	lines  []string
	x, top float64
	anchor string
}

// lgSpot is a place a label may go.
type lgSpot struct {
	box    lgBox
	x      float64
	anchor string
}

// placeLabels gives each node, centre first then by rank, the first spot
// that stays inside the drawing and overlaps no node and no label placed
// before it. Greedy, so deterministic; a label with no spot is left out.
func (d lgDrawing) placeLabels() []lgLabel {
	taken := make([]lgBox, 0, 2*len(d.pts))
	for i, pt := range d.pts {
		r := d.radius(i) + 1
		taken = append(taken, lgBox{pt.x - r, pt.y - r, pt.x + r, pt.y + r})
	}
	out := make([]lgLabel, len(d.pts))
	for i, pt := range d.pts {
		lines := lgLines(d.n.nodes[d.p.nodes[i]].Label)
		w := 0.0
		for _, l := range lines {
			w = math.Max(w, svgTextWidth(l))
		}
		for _, s := range lgSpots(pt, d.radius(i), w, lgLineH*float64(len(lines)), i == 0) {
			inside := s.box.x0 >= 4 && s.box.y0 >= 4 && s.box.x1 <= lgW-4 && s.box.y1 <= lgPlotH-2
			free := !slices.ContainsFunc(taken, func(t lgBox) bool { return t != taken[i] && t.hits(s.box) })
			if inside && free {
				out[i] = lgLabel{lines, s.x, s.box.y0, s.anchor}
				taken = append(taken, s.box)
				break
			}
		}
	}
	return out
}

// lgSpots are the spots for a label of w by h next to a node at pt,
// outward from the centre first.
func lgSpots(pt lgPoint, r, w, h float64, centre bool) []lgSpot {
	const gap = 4
	right := lgSpot{lgBox{pt.x + r + gap, pt.y - h/2, pt.x + r + gap + w, pt.y + h/2}, pt.x + r + gap, "start"}
	left := lgSpot{lgBox{pt.x - r - gap - w, pt.y - h/2, pt.x - r - gap, pt.y + h/2}, pt.x - r - gap, "end"}
	below := lgSpot{lgBox{pt.x - w/2, pt.y + r + 2, pt.x + w/2, pt.y + r + 2 + h}, pt.x, "middle"}
	above := lgSpot{lgBox{pt.x - w/2, pt.y - r - 2 - h, pt.x + w/2, pt.y - r - 2}, pt.x, "middle"}
	if centre {
		return []lgSpot{below, above, right, left}
	}
	side, inward := right, left
	if math.Cos(pt.angle) < 0 {
		side, inward = left, right
	}
	vert, otherVert := below, above
	if math.Sin(pt.angle) < 0 {
		vert, otherVert = above, below
	}
	if math.Abs(math.Sin(pt.angle)) > 0.85 {
		return []lgSpot{vert, side, inward, otherVert}
	}
	return []lgSpot{side, vert, otherVert, inward}
}

// lgLines is a label cut to lgLabelRunes runes with an ellipsis, on two
// lines when longer than lgLineRunes, broken after the space, hyphen,
// underscore or slash nearest its middle.
func lgLines(label string) []string {
	r := []rune(strings.Join(strings.Fields(label), " "))
	if len(r) > lgLabelRunes {
		r = append(r[:lgLabelRunes-1:lgLabelRunes-1], '…')
	}
	if len(r) <= lgLineRunes {
		return []string{string(r)}
	}
	cut := -1
	for i := 1; i < len(r); i++ {
		if strings.ContainsRune(" -_/", r[i-1]) && (cut < 0 || lgAbs(2*i-len(r)) < lgAbs(2*cut-len(r))) {
			cut = i
		}
	}
	if cut < 0 || cut < len(r)/4 || cut > len(r)*3/4 {
		cut = (len(r) + 1) / 2
	}
	return []string{strings.TrimRight(string(r[:cut]), " "), string(r[cut:])}
}

func lgAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
