package site

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/site/internal/graphlayout"
)

// graphPage is the causal graph explorer: what it shows without
// JavaScript. Its script draws graph/index.json (graphview.go).
type graphPage struct {
	Graph graphView `json:"graph"`
}

// maxExamples is how many small chains of a shape the page links to.
const maxExamples = 3

// chainShape is the small chains of one shape, their node types (as
// "1 episode + 2 decisions"): how many, and the first few, each by its
// first node (an episode before its parts), by id.
type chainShape struct {
	Shape    string      `json:"shape"`
	Count    int         `json:"count"`
	Examples []graphNode `json:"examples"`
}

func graphPages(in input) []page {
	return []page{{path: "graph/_index.md", title: "Causal graph", params: newGraphPage(in.s)}}
}

func newGraphPage(s *export.Site) graphPage {
	d := graphData(s, false)
	comps := graphlayout.Components(len(d.Nodes), edgePairs(d.Edges))
	largest := 0
	if len(comps) > 0 {
		largest = len(comps[0])
	}
	return graphPage{Graph: graphView{Nodes: len(d.Nodes), Edges: len(d.Edges), Isolated: d.Isolated,
		Components: d.Components, Largest: largest, SmallChains: d.SmallChains, SmallNodes: d.SmallNodes, Shapes: chainShapes(d, comps),
		NodeTypes: d.NodeTypes, EdgeTypes: d.EdgeTypes, Hubs: hubs(d), DataURL: s.BaseURL + graphDataPath}}
}

// graphHub is one of the most connected notes. Links counts the links
// of the note and of its own parts (an episode's decisions and events),
// each once, but not the "contains" edges to the parts.
type graphHub struct {
	graphNode
	Links int `json:"links"`
}

// hubs are the maxHubs notes with the most links, most first, then by
// id: the nodes a reader knows by name. A part's links are its episode's,
// so an episode whose events lead to one another ranks by them, and a
// commit inside it is not listed on its own.
func hubs(d graphDoc) []graphHub {
	owner := make([]int, len(d.Nodes))
	for i := range owner {
		owner[i] = i
	}
	for _, e := range d.Edges {
		if e.Type == string(note.EdgeContains) && e.Source != e.Target {
			owner[e.Target] = e.Source
		}
	}
	links := make([]int, len(d.Nodes))
	for _, e := range d.Edges {
		if e.Type == string(note.EdgeContains) {
			continue
		}
		a, b := owner[e.Source], owner[e.Target]
		links[a]++
		if b != a {
			links[b]++
		}
	}
	var out []graphHub
	for i, n := range d.Nodes {
		if !n.Part && links[i] > 0 {
			out = append(out, graphHub{graphNode: n, Links: links[i]})
		}
	}
	slices.SortFunc(out, func(a, b graphHub) int { return cmp.Or(cmp.Compare(b.Links, a.Links), cmp.Compare(a.ID, b.ID)) })
	return out[:min(maxHubs, len(out))]
}

func edgePairs(edges []graphEdge) [][2]int {
	out := make([][2]int, len(edges))
	for i, e := range edges {
		out[i] = [2]int{e.Source, e.Target}
	}
	return out
}

// chainShapes sums up d's small chains by shape, most common first.
func chainShapes(d graphDoc, comps [][]int) []chainShape {
	rank := map[string]int{}
	for i, t := range d.NodeTypes {
		rank[t.Type] = i
	}
	byRank := func(a, b int) int {
		return cmp.Or(cmp.Compare(rank[d.Nodes[a].Type], rank[d.Nodes[b].Type]), cmp.Compare(d.Nodes[a].ID, d.Nodes[b].ID))
	}
	type chain struct {
		head  int
		shape string
	}
	var chains []chain
	for _, c := range comps {
		if !d.Nodes[c[0]].Small {
			continue
		}
		c = slices.Clone(c)
		slices.SortFunc(c, byRank)
		chains = append(chains, chain{c[0], shapeName(d, c)})
	}
	slices.SortFunc(chains, func(a, b chain) int { return cmp.Compare(d.Nodes[a.head].ID, d.Nodes[b.head].ID) })
	shapes := map[string]*chainShape{}
	for _, c := range chains {
		s := shapes[c.shape]
		if s == nil {
			s = &chainShape{Shape: c.shape, Examples: []graphNode{}}
			shapes[c.shape] = s
		}
		s.Count++
		if len(s.Examples) < maxExamples {
			s.Examples = append(s.Examples, d.Nodes[c.head])
		}
	}
	out := make([]chainShape, 0, len(shapes))
	for _, s := range shapes {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b chainShape) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Shape, b.Shape)) })
	return out
}

// shapeName names the types of a chain's nodes, sorted by type rank: "1
// episode + 2 decisions".
func shapeName(d graphDoc, c []int) string {
	var parts []string
	for k := 0; k < len(c); {
		t, n := d.Nodes[c[k]].Type, 0
		for ; k < len(c) && d.Nodes[c[k]].Type == t; k++ {
			n++
		}
		if n > 1 {
			t += "s"
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, t))
	}
	return strings.Join(parts, " + ")
}
