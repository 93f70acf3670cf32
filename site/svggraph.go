package site

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/engramhq/engram/indexer/export"
)

// The causal neighbourhood of a node, drawn for its page: the node in the
// centre, its neighbours on a ring around it (those it points to on the
// right, those pointing to it on the left), and their neighbours on an
// outer ring next to them. Edges of every type count, in both directions.

// Caps that keep a neighbourhood readable.
const (
	lgMaxNodes   = 25 // the centre and everything drawn around it
	lgMaxRing1   = 14 // neighbours drawn; the outer ring gets the rest
	lgLabelRunes = 28
	lgLineRunes  = 16 // a label longer than this is set on two lines
)

// Geometry of the neighbourhood drawing.
const (
	lgW, lgPlotH   = 800.0, 470.0
	lgCX, lgCY     = lgW / 2, lgPlotH / 2
	lgR1, lgR2     = 110.0, 230.0
	lgSquash       = 0.82 // rings are ellipses: labels run sideways
	lgNodeR, lgMid = 8.0, 12.0
	lgLineH        = 14.0
)

// neighbourhoods indexes a graph once, so that drawing the neighbourhood
// of each of its nodes costs only what that neighbourhood holds. It is not
// changed after newNeighbourhoods: svg may run on several goroutines.
type neighbourhoods struct {
	at    map[string]int32
	nodes []export.GraphNode
	edges []export.Edge
	arcs  [][]lgArc // by node, strongest first
}

// lgArc is an edge seen from one of its ends.
type lgArc struct {
	other, edge int32
	out         bool // the edge leaves this end
}

// newNeighbourhoods indexes g. An edge's end that is not among g's nodes
// becomes a bare node named by its id; an edge from a node to itself is
// left out.
func newNeighbourhoods(g export.Graph) *neighbourhoods {
	n := &neighbourhoods{at: make(map[string]int32, len(g.Nodes))}
	node := func(v export.GraphNode) int32 {
		i, ok := n.at[v.ID]
		if !ok {
			i = int32(len(n.nodes))
			n.at[v.ID] = i
			n.nodes = append(n.nodes, v)
		}
		return i
	}
	for _, v := range g.Nodes {
		node(v)
	}
	type ends struct{ s, t int32 }
	es := make([]ends, 0, len(g.Edges))
	for _, e := range g.Edges {
		s, t := node(export.GraphNode{ID: e.Source, Label: e.Source}), node(export.GraphNode{ID: e.Target, Label: e.Target})
		if s != t {
			es = append(es, ends{s, t})
			n.edges = append(n.edges, e.Edge)
		}
	}
	n.arcs = make([][]lgArc, len(n.nodes))
	for k, e := range es {
		n.arcs[e.s] = append(n.arcs[e.s], lgArc{e.t, int32(k), true})
		n.arcs[e.t] = append(n.arcs[e.t], lgArc{e.s, int32(k), false})
	}
	for _, as := range n.arcs {
		slices.SortFunc(as, n.cmpArcs)
	}
	return n
}

// cmpArcs orders arcs strongest first: by weight, then evidence, then the
// other end's id, then the edge's type and direction and input order.
func (n *neighbourhoods) cmpArcs(a, b lgArc) int {
	ea, eb := n.edges[a.edge], n.edges[b.edge]
	if c := n.cmpStrength(a, b); c != 0 {
		return c
	}
	return cmp.Or(strings.Compare(n.nodes[a.other].ID, n.nodes[b.other].ID), strings.Compare(ea.Type, eb.Type), cmp.Compare(a.edge, b.edge))
}

// cmpStrength is negative when a is the stronger arc.
func (n *neighbourhoods) cmpStrength(a, b lgArc) int {
	ea, eb := n.edges[a.edge], n.edges[b.edge]
	return cmp.Or(cmp.Compare(eb.Weight, ea.Weight), cmp.Compare(eb.EvidenceCount, ea.EvidenceCount))
}

// svg draws the neighbourhood of the node id, or is "" when id is not in
// the graph or has no edges.
func (n *neighbourhoods) svg(id string) string {
	c, ok := n.at[id]
	if !ok || len(n.arcs[c]) == 0 {
		return ""
	}
	p := n.pick(c)
	d := lgDrawing{n: n, p: p, pts: lgLayout(p), id: svgID("hood", id)}
	return d.render()
}

// localGraph draws id's neighbourhood in g. It indexes g first: to draw
// many nodes of one graph, make the index once with newNeighbourhoods.
func localGraph(g export.Graph, id string) string {
	return newNeighbourhoods(g).svg(id)
}

// lgPick is what a neighbourhood drawing shows.
type lgPick struct {
	nodes  []int32 // the centre, then ring 1, then ring 2
	ring1  int     // nodes[1 : 1+ring1] are ring 1
	parent []int   // by position in nodes: a ring-2 node's ring-1 node
	out    []bool  // by position: a ring-1 node the centre has an edge to
	near   int     // nodes one step away
	far    int     // nodes two steps away
}

// pick chooses the nodes to draw: the strongest neighbours, then the
// strongest of their neighbours, up to lgMaxNodes in all.
func (n *neighbourhoods) pick(c int32) lgPick {
	p := lgPick{nodes: []int32{c}, parent: []int{-1}, out: []bool{false}}
	step1 := map[int32]int{} // neighbour -> rank
	var ring1 []int32
	for _, a := range n.arcs[c] {
		r, ok := step1[a.other]
		if !ok {
			r = len(ring1)
			step1[a.other] = r
			ring1 = append(ring1, a.other)
			p.out = append(p.out, false)
		}
		if a.out && r < lgMaxRing1 {
			p.out[1+r] = true
		}
	}
	p.near, p.ring1 = len(ring1), min(len(ring1), lgMaxRing1)
	p.out = p.out[:1+p.ring1]
	p.nodes = append(p.nodes, ring1[:p.ring1]...)
	for range p.ring1 {
		p.parent = append(p.parent, 0)
	}
	type cand struct {
		node   int32
		parent int
		arc    lgArc
	}
	var cands []cand
	best := map[int32]int{} // two steps away -> index in cands, -1 through a neighbour not drawn
	for r, h := range ring1 {
		for _, a := range n.arcs[h] {
			if _, near := step1[a.other]; near || a.other == c {
				continue
			}
			k, seen := best[a.other]
			switch {
			case r >= p.ring1 && !seen:
				best[a.other] = -1
			case r < p.ring1 && !seen:
				best[a.other] = len(cands)
				cands = append(cands, cand{a.other, 1 + r, a})
			case r < p.ring1 && n.cmpStrength(a, cands[k].arc) < 0:
				cands[k].parent, cands[k].arc = 1+r, a
			}
		}
	}
	p.far = len(best)
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(n.cmpStrength(a.arc, b.arc), strings.Compare(n.nodes[a.node].ID, n.nodes[b.node].ID))
	})
	for _, k := range cands[:min(len(cands), lgMaxNodes-len(p.nodes))] {
		p.nodes = append(p.nodes, k.node)
		p.parent = append(p.parent, k.parent)
		p.out = append(p.out, false)
	}
	return p
}

// more is how many nodes within two steps are not drawn.
func (p lgPick) more() int { return p.near + p.far - (len(p.nodes) - 1) }

// lgPoint is a node's place: its angle from the centre, 0 to the right,
// growing clockwise.
type lgPoint struct{ x, y, angle float64 }

// lgLayout places the centre in the middle, ring 1 on an inner ellipse,
// each node with an arc in proportion to its ring-2 nodes, which spread
// over that arc on the outer ellipse. The nodes the centre points to sit
// around the right, the others around the left.
func lgLayout(p lgPick) []lgPoint {
	pts := make([]lgPoint, len(p.nodes))
	pts[0] = lgPoint{lgCX, lgCY, math.Pi / 2}
	kids := make([][]int, 1+p.ring1)
	for i := 1 + p.ring1; i < len(p.nodes); i++ {
		kids[p.parent[i]] = append(kids[p.parent[i]], i)
	}
	var order []int
	total, outW := 0.0, 0.0
	for _, wantOut := range []bool{true, false} {
		for i := 1; i <= p.ring1; i++ {
			if p.out[i] == wantOut {
				order = append(order, i)
				total += lgWeight(len(kids[i]))
				if wantOut {
					outW += lgWeight(len(kids[i]))
				}
			}
		}
	}
	r1 := lgR1 + 6*math.Max(0, float64(p.ring1-8)) // more room for a crowded ring
	if len(p.nodes) == 1+p.ring1 {
		r1 = (lgR1 + lgR2) / 2
	}
	a := -math.Pi * outW / total
	for _, i := range order {
		s := 2 * math.Pi * lgWeight(len(kids[i])) / total
		pts[i] = lgPolar(r1, a+s/2)
		for j, k := range kids[i] {
			pts[k] = lgPolar(lgR2, a+s*(float64(j)+0.5)/float64(len(kids[i])))
		}
		a += s
	}
	return pts
}

// lgWeight is the share of the rings a ring-1 node with kids ring-2 nodes
// gets. The outer ring is about twice as long as the inner one, so a
// ring-2 node needs about half the angle.
func lgWeight(kids int) float64 { return math.Max(1, float64(kids+1)/2) }

func lgPolar(r, a float64) lgPoint {
	return lgPoint{lgCX + r*math.Cos(a), lgCY + r*lgSquash*math.Sin(a), a}
}

// lgDrawing renders one picked and placed neighbourhood.
type lgDrawing struct {
	n   *neighbourhoods
	p   lgPick
	pts []lgPoint
	id  string
}

// lgEdge is an edge between two drawn nodes, by position.
type lgEdge struct {
	from, to int
	e        export.Edge
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

// render writes the SVG: edges under nodes, nodes under their labels, a
// legend of the edge and node types drawn, and what was left out.
func (d lgDrawing) render() string {
	edges := d.edges()
	types := lgEdgeTypes(edges)
	labels := d.placeLabels()
	// The drawing is cropped to its nodes and labels, top and bottom.
	top, bottom := d.extent(labels)
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
	d.drawNodes(&b, labels)
	b.WriteString("</g>")
	b.WriteString(legend)
	if m := d.p.more(); m > 0 {
		fmt.Fprintf(&b, `<text class="lg-more" x="12" y="%s">and %d more within two steps, not drawn</text>`, svgNum(y), m)
	}
	b.WriteString("</svg>")
	return b.String()
}

// lgEdgeOrder is the order of the known edge types in the legend.
var lgEdgeOrder = []string{"causes", "enables", "prevents", "correlates", "leads_to", "evidence_for"}

// lgType is an edge type drawn: its class name, and its name as the
// first edge of the class spells it.
type lgType struct{ class, name string }

// lgEdgeTypes are the edge types drawn: the known ones in lgEdgeOrder,
// then the others by class name.
func lgEdgeTypes(edges []lgEdge) []lgType {
	var types []lgType
	for _, e := range edges {
		t := lgType{classToken(e.e.Type), strings.ReplaceAll(e.e.Type, "_", " ")}
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
			if classToken(e.e.Type) == t.class {
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
		t2 := classToken(e.e.Type)
		fmt.Fprintf(b, `<path class="lg-edge edge-%s%s" d="%s" stroke-width="%s" marker-end="url(#%s-arrow-%s)"><title>%s %s %s (weight %s)</title></path>`,
			t2, d.crossClass(e), path, svgNum(1+1.5*math.Max(0, math.Min(1, e.e.Weight))), d.id, t2,
			svgText(d.n.nodes[d.p.nodes[e.from]].Label), svgText(strings.ReplaceAll(e.e.Type, "_", " ")), svgText(d.n.nodes[d.p.nodes[e.to]].Label),
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
// one (not the centre: that is the page), with its label where placeLabels
// found room; the full label is the node's tooltip either way.
func (d lgDrawing) drawNodes(b *strings.Builder, labels []lgLabel) {
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
		if l := labels[i]; len(l.lines) > 0 {
			fmt.Fprintf(b, `<text class="lg-label" text-anchor="%s">`, l.anchor)
			for k, line := range l.lines {
				fmt.Fprintf(b, `<tspan x="%s" y="%s">%s</tspan>`, svgNum(l.x), svgNum(l.top+11+lgLineH*float64(k)), svgText(line))
			}
			b.WriteString("</text>")
		}
		if href != "" {
			b.WriteString("</a>")
		} else {
			b.WriteString("</g>")
		}
	}
}

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
