package chart

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/engramhq/engram/indexer/note"
)

// lgDrawing renders one picked and placed neighbourhood.
type lgDrawing struct {
	n   *Neighbourhoods
	p   lgPick
	pts []lgPoint
	id  string
}

// lgEdge is an edge between two drawn nodes, by position.
type lgEdge struct {
	from, to int
	e        note.Edge
}

// edges are the edges among the drawn nodes, each once, in the order of
// their source's position and its arcs.
func (d lgDrawing) edges() []lgEdge {
	pos := make(map[int32]int, len(d.p.nodes))
	for i, v := range d.p.nodes {
		pos[v] = i
	}
	var out []lgEdge
	for i, v := range d.p.nodes {
		for _, a := range d.n.arcs[v] {
			if j, ok := pos[a.other]; ok && a.out {
				out = append(out, lgEdge{i, j, d.n.edges[a.edge]})
			}
		}
	}
	return out
}

// render writes the SVG: edges under nodes, each node but the centre
// with its number, a legend of the edge and node types drawn, and what
// was left out.
func (d lgDrawing) render() string {
	edges := d.edges()
	types := lgEdgeTypes(edges)
	// The drawing is cropped to its nodes, top and bottom.
	top, bottom := d.extent()
	legend, y := d.legend(types, bottom-top+34)
	if d.p.more() > 0 {
		y += 24
	}
	h := y + 10
	var b strings.Builder
	b.Grow(16 << 10) // a drawing of 25 nodes is 10–20 kB
	centre := d.n.nodes[d.p.nodes[0]]
	svgOpen(&b, d.id, "graph-chart", "group", lgW, h, "Causal neighbourhood of "+centre.Label, d.describe(edges, types))
	b.WriteString("<defs>")
	for _, t := range types {
		fmt.Fprintf(&b, `<marker id="%s-arrow-%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto"><path class="lg-arrow edge-%s" d="M0 0L10 5L0 10z"/></marker>`, d.id, t.class, t.class)
	}
	fmt.Fprintf(&b, `</defs><g transform="translate(0 %s)">`, svgNum(10-top))
	d.drawEdges(&b, edges)
	d.drawNodes(&b)
	b.WriteString("</g>")
	b.WriteString(legend)
	if m := d.p.more(); m > 0 {
		fmt.Fprintf(&b, `<text class="lg-more" x="12" y="%s">and %d more within two steps, not drawn</text>`, svgNum(y), m)
	}
	b.WriteString("</svg>")
	return b.String()
}

// lgEdgeOrder is the order of the known edge types in the legend.
var lgEdgeOrder = []string{string(note.EdgeCauses), string(note.EdgeEnables), string(note.EdgePrevents), string(note.EdgeCorrelates), string(note.EdgeLeadsTo), string(note.EdgeEvidenceFor)}

// lgType is an edge type drawn: its class name, and its name as the
// first edge of the class spells it.
type lgType struct{ class, name string }

// lgEdgeTypes are the edge types drawn: the known ones in lgEdgeOrder,
// then the others by class name.
func lgEdgeTypes(edges []lgEdge) []lgType {
	var types []lgType
	for _, e := range edges {
		t := lgType{classToken(string(e.e.Type)), strings.ReplaceAll(string(e.e.Type), "_", " ")}
		if !slices.ContainsFunc(types, func(u lgType) bool { return u.class == t.class }) {
			types = append(types, t)
		}
	}
	slices.SortFunc(types, func(a, b lgType) int { return cmpInOrder(lgEdgeOrder, a.class, b.class) })
	return types
}

// classToken makes a type a class name: lower-case letters, digits, '_'
// and '-' only, "other" when nothing is left.
func classToken(s string) string {
	t := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return -1
	}, s)
	if t == "" {
		return "other"
	}
	return t
}

// describe says in words what the drawing shows.
func (d lgDrawing) describe(edges []lgEdge, types []lgType) string {
	centre := d.n.nodes[d.p.nodes[0]].Label
	s := fmt.Sprintf("%s is linked directly to %s", centre, svgPlural(d.p.near, "note", "notes"))
	if d.p.far > 0 {
		s += fmt.Sprintf(", and to %s two steps away", svgPlural(d.p.far, "note", "notes"))
	}
	counts := make([]string, len(types))
	for i, t := range types {
		k := 0
		for _, e := range edges {
			if classToken(string(e.e.Type)) == t.class {
				k++
			}
		}
		counts[i] = fmt.Sprintf("%d %s", k, t.name)
	}
	s += fmt.Sprintf(". Drawn: %s and %s (%s).", svgPlural(len(d.p.nodes), "note", "notes"), svgPlural(len(edges), "link", "links"), strings.Join(counts, ", "))
	if m := d.p.more(); m > 0 {
		s += fmt.Sprintf(" %s within two steps %s not drawn.", svgPlural(m, "note", "notes"), svgIsAre(m))
	}
	return s
}

// drawEdges draws each edge from the rim of its source to the rim of its
// target; edges between the same two nodes bow apart.
func (d lgDrawing) drawEdges(b *strings.Builder, edges []lgEdge) {
	pairs := map[[2]int]int{}
	for _, e := range edges {
		pairs[[2]int{min(e.from, e.to), max(e.from, e.to)}]++
	}
	seen := map[[2]int]int{}
	for _, e := range edges {
		key := [2]int{min(e.from, e.to), max(e.from, e.to)}
		k, i := pairs[key], seen[key]
		seen[key]++
		p, q := d.pts[key[0]], d.pts[key[1]]
		// Bow perpendicular to the pair's line, the same way whichever end
		// the edge leaves from, so a→b and b→a part.
		off := (float64(i) - float64(k-1)/2) * 18
		dx, dy := q.x-p.x, q.y-p.y
		l := math.Hypot(dx, dy)
		cx, cy := (p.x+q.x)/2-dy/l*off, (p.y+q.y)/2+dx/l*off
		s, t := d.pts[e.from], d.pts[e.to]
		x1, y1 := lgToward(s, cx, cy, d.radius(e.from)+1)
		x2, y2 := lgToward(t, cx, cy, d.radius(e.to)+2)
		path := fmt.Sprintf("M%s %sL%s %s", svgNum(x1), svgNum(y1), svgNum(x2), svgNum(y2))
		if off != 0 {
			path = fmt.Sprintf("M%s %sQ%s %s %s %s", svgNum(x1), svgNum(y1), svgNum(cx), svgNum(cy), svgNum(x2), svgNum(y2))
		}
		t2 := classToken(string(e.e.Type))
		fmt.Fprintf(b, `<path class="lg-edge edge-%s%s" d="%s" stroke-width="%s" marker-end="url(#%s-arrow-%s)"><title>%s %s %s (weight %s)</title></path>`,
			t2, d.crossClass(e), path, svgNum(1+1.5*math.Max(0, math.Min(1, e.e.Weight))), d.id, t2,
			svgText(d.n.nodes[d.p.nodes[e.from]].Label), svgText(strings.ReplaceAll(string(e.e.Type), "_", " ")), svgText(d.n.nodes[d.p.nodes[e.to]].Label),
			strconv.FormatFloat(e.e.Weight, 'f', 2, 64))
	}
}

// crossClass marks an edge that joins neither the centre nor a ring-2
// node to its ring-1 node: drawn fainter, so the rings read first.
func (d lgDrawing) crossClass(e lgEdge) string {
	if e.from == 0 || e.to == 0 || d.p.parent[e.from] == e.to || d.p.parent[e.to] == e.from {
		return ""
	}
	return " lg-cross"
}

// lgToward is the point at distance r from a towards (x, y).
func lgToward(a lgPoint, x, y, r float64) (float64, float64) {
	dx, dy := x-a.x, y-a.y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return a.x, a.y
	}
	return a.x + dx/l*r, a.y + dy/l*r
}

func (d lgDrawing) radius(i int) float64 {
	if i == 0 {
		return lgMid
	}
	return lgNodeR
}

// drawNodes draws each node as a circle, a link to its page when it has
// one (not the centre: that is the page), numbered as the key numbers
// it (not the centre); the full label is the node's tooltip.
func (d lgDrawing) drawNodes(b *strings.Builder) {
	for i, v := range d.p.nodes {
		nd := d.n.nodes[v]
		class, href := "lg-node", svgURL(nd.URL)
		if i == 0 {
			class, href = "lg-node lg-centre", ""
		}
		if href != "" {
			fmt.Fprintf(b, `<a class="%s" href="%s">`, class, href)
		} else {
			fmt.Fprintf(b, `<g class="%s">`, class)
		}
		title := nd.Label
		if nd.Type != "" {
			title += " (" + nd.Type + ")"
		}
		pt := d.pts[i]
		fmt.Fprintf(b, `<title>%s</title><circle class="node-%s" cx="%s" cy="%s" r="%s"/>`,
			svgText(title), classToken(nd.Type), svgNum(pt.x), svgNum(pt.y), svgNum(d.radius(i)))
		if i > 0 {
			fmt.Fprintf(b, `<text class="lg-num" x="%s" y="%s" text-anchor="middle">%d</text>`, svgNum(pt.x), svgNum(pt.y+4.5), i)
		}
		if href != "" {
			b.WriteString("</a>")
		} else {
			b.WriteString("</g>")
		}
	}
}

// lgNodeOrder is the order of the known node types in the legend.
var lgNodeOrder = []string{"pattern", "antipattern", "episode", "decision", "event"}

// legend lays out the legend under the drawing from the baseline y0:
// the edge types drawn, then on a new row the node types; y is the last
// baseline.
func (d lgDrawing) legend(edgeTypes []lgType, y0 float64) (svg string, y float64) {
	var edgeItems, nodeItems []lgItem
	for _, t := range edgeTypes {
		edgeItems = append(edgeItems, lgItem{36 + svgTextWidth(t.name), func(x, y float64) string {
			return fmt.Sprintf(`<path class="lg-edge edge-%s" d="M%s %sL%s %s" stroke-width="2" marker-end="url(#%s-arrow-%s)"/><text class="lg-legend" x="%s" y="%s">%s</text>`,
				t.class, svgNum(x), svgNum(y-4), svgNum(x+28), svgNum(y-4), d.id, t.class, svgNum(x+34), svgNum(y), svgText(t.name))
		}})
	}
	var nodeTypes []string
	for _, v := range d.p.nodes {
		if t := classToken(d.n.nodes[v].Type); !slices.Contains(nodeTypes, t) {
			nodeTypes = append(nodeTypes, t)
		}
	}
	slices.SortFunc(nodeTypes, func(a, b string) int { return cmpInOrder(lgNodeOrder, a, b) })
	for _, t := range nodeTypes {
		nodeItems = append(nodeItems, lgItem{18 + svgTextWidth(t), func(x, y float64) string {
			return fmt.Sprintf(`<circle class="node-%s" cx="%s" cy="%s" r="6"/><text class="lg-legend" x="%s" y="%s">%s</text>`,
				t, svgNum(x+6), svgNum(y-4), svgNum(x+16), svgNum(y), t)
		}})
	}
	var b strings.Builder
	y = lgFlow(&b, edgeItems, y0)
	y = lgFlow(&b, nodeItems, y+24)
	return b.String(), y
}

// lgItem is an entry of the legend, w wide, drawn at x, y.
type lgItem struct {
	w    float64
	draw func(x, y float64) string
}

// lgFlow lays items out left to right from x = 12 on the baseline y,
// wrapping at the drawing's width, and returns the last baseline.
func lgFlow(b *strings.Builder, items []lgItem, y float64) float64 {
	x := 12.0
	for _, it := range items {
		if x > 12 && x+it.w > lgW-12 {
			x, y = 12, y+24
		}
		b.WriteString(it.draw(x, y))
		x += it.w + 22
	}
	return y
}

// cmpInOrder orders the strings of order as they come there, before all
// others, which are sorted.
func cmpInOrder(order []string, a, b string) int {
	ia, ib := slices.Index(order, a), slices.Index(order, b)
	if ia < 0 {
		ia = len(order)
	}
	if ib < 0 {
		ib = len(order)
	}
	return cmp.Or(cmp.Compare(ia, ib), strings.Compare(a, b))
}
