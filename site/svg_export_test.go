package site

import "github.com/engramhq/engram/indexer/export"

// The charts and their checker, for the test that draws them for the demo.
var (
	OutcomesChart = outcomesChart
	IntervalChart = intervalChart
	CheckSVG      = checkSVG
)

// Attr is an attribute of an element that CheckSVG returns.
func Attr(el svgElement, name string) (string, bool) {
	v, ok := el.attrs[name]
	return v, ok
}

// NeighbourhoodSVG indexes g once and draws the neighbourhood of any of
// its nodes.
func NeighbourhoodSVG(g export.Graph) func(id string) string { return newNeighbourhoods(g).svg }
