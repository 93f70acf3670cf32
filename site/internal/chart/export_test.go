package chart

// CheckSVG checks that an SVG is well-formed and safe, for the test that
// draws the charts of the demo, in package chart_test because it builds
// the demo with the indexer.
var CheckSVG = checkSVG

// Attr is an attribute of an element that CheckSVG returns.
func Attr(el svgElement, name string) (string, bool) {
	v, ok := el.attrs[name]
	return v, ok
}
