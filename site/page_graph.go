package site

import (
	"cmp"
	"slices"

	"github.com/engramhq/engram/indexer/export"
)

// graphPage is the causal graph explorer: what it shows without
// JavaScript. Its script draws graph/index.json (graphview.go).
type graphPage struct {
	Graph graphView `json:"graph"`
}

func graphPages(in input) []page {
	return []page{{path: "graph/_index.md", title: "Causal graph", params: newGraphPage(in.s)}}
}

func newGraphPage(s *export.Site) graphPage {
	d := graphData(s, false)
	hubs := slices.Clone(d.Nodes)
	slices.SortStableFunc(hubs, func(a, b graphNode) int { return cmp.Or(cmp.Compare(b.Degree, a.Degree), cmp.Compare(a.ID, b.ID)) })
	hubs = slices.DeleteFunc(hubs[:min(maxHubs, len(hubs))], func(n graphNode) bool { return n.Degree == 0 })
	return graphPage{Graph: graphView{Nodes: len(d.Nodes), Edges: len(d.Edges), Isolated: d.Isolated,
		NodeTypes: d.NodeTypes, EdgeTypes: d.EdgeTypes, Hubs: hubs, DataURL: s.BaseURL + graphDataPath}}
}
