package chart

import "math"

// extent is the top and bottom of the drawn nodes.
func (d lgDrawing) extent() (top, bottom float64) {
	top, bottom = lgCY, lgCY
	for i, pt := range d.pts {
		r := d.radius(i)
		top, bottom = math.Min(top, pt.y-r), math.Max(bottom, pt.y+r)
	}
	return top, bottom
}
