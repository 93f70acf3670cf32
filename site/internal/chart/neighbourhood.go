package chart

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

// The causal neighbourhood of a node, drawn for its page: the node in the
// centre, its neighbours on a ring around it (those it points to on the
// right, those pointing to it on the left), and their neighbours on an
// outer ring next to them. A node is named by a number in its circle,
// drawn over the edges, and the drawing's key (Drawing.Key) gives each
// number's note in full: names set beside the nodes were cut to fit and
// crossed by edges, and unreadable once a phone scales the drawing down. Edges of every type count, in both directions,
// but "contains": an episode's own decisions and events are its parts,
// not its causal neighbours.

// Caps that keep a neighbourhood readable.
const (
	lgMaxNodes = 25 // the centre and everything drawn around it
	lgMaxRing1 = 14 // neighbours drawn; the outer ring gets the rest
)

// Geometry of the neighbourhood drawing.
// With no names beside the nodes it is narrow: a phone shows it at
// nearly its own size.
const (
	lgW, lgPlotH   = 440.0, 380.0
	lgCX, lgCY     = lgW / 2, lgPlotH / 2
	lgR1, lgR2     = 85.0, 180.0
	lgSquash       = 0.9 // rings are a little flattened: the page is wider than tall
	lgNodeR, lgMid = 11.0, 14.0
)

// Neighbourhoods indexes a graph once, so that drawing the neighbourhood
// of each of its nodes costs only what that neighbourhood holds. It is not
// changed after NewNeighbourhoods: SVG may run on several goroutines.
type Neighbourhoods struct {
	at    map[string]int32
	nodes []export.GraphNode
	edges []note.Edge
	arcs  [][]lgArc // by node, strongest first
}

// lgArc is an edge seen from one of its ends.
type lgArc struct {
	other, edge int32
	out         bool // the edge leaves this end
}

// NewNeighbourhoods indexes g. An edge's end that is not among g's nodes
// becomes a bare node named by its id; an edge from a node to itself is
// left out.
func NewNeighbourhoods(g export.Graph) *Neighbourhoods {
	n := &Neighbourhoods{at: make(map[string]int32, len(g.Nodes))}
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
		if e.Type == note.EdgeContains {
			continue
		}
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
func (n *Neighbourhoods) cmpArcs(a, b lgArc) int {
	ea, eb := n.edges[a.edge], n.edges[b.edge]
	if c := n.cmpStrength(a, b); c != 0 {
		return c
	}
	return cmp.Or(strings.Compare(n.nodes[a.other].ID, n.nodes[b.other].ID), cmp.Compare(ea.Type, eb.Type), cmp.Compare(a.edge, b.edge))
}

// cmpStrength is negative when a is the stronger arc.
func (n *Neighbourhoods) cmpStrength(a, b lgArc) int {
	ea, eb := n.edges[a.edge], n.edges[b.edge]
	return cmp.Or(cmp.Compare(eb.Weight, ea.Weight), cmp.Compare(eb.EvidenceCount, ea.EvidenceCount))
}

// Drawing is a neighbourhood drawn: the SVG, and its key.
type Drawing struct {
	SVG string
	// Key names the numbered nodes, Key[k] the node numbered k+1.
	Key []KeyEntry
}

// KeyEntry is a numbered node of a drawing: its number, its note's label
// in full, type, id and page ("" when it has none).
type KeyEntry struct {
	N     int    `json:"n"`
	Label string `json:"label"`
	Type  string `json:"type"`
	ID    string `json:"id"`
	URL   string `json:"url"`
}

// Draw draws the neighbourhood of the node id; a zero Drawing when id is
// not in the graph or has no edges.
func (n *Neighbourhoods) Draw(id string) Drawing {
	c, ok := n.at[id]
	if !ok || len(n.arcs[c]) == 0 {
		return Drawing{}
	}
	p := n.pick(c)
	d := lgDrawing{n: n, p: p, pts: lgLayout(p), id: svgID("hood", id)}
	key := make([]KeyEntry, len(p.nodes)-1)
	for k, v := range p.nodes[1:] {
		nd := n.nodes[v]
		key[k] = KeyEntry{N: k + 1, Label: nd.Label, Type: nd.Type, ID: nd.ID, URL: svgURL(nd.URL)}
	}
	return Drawing{SVG: d.render(), Key: key}
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
func (n *Neighbourhoods) pick(c int32) lgPick {
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
