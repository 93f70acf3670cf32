package chart

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

// gnode and gedge make a graph by hand.
func gnode(id, typ string) export.GraphNode {
	return export.GraphNode{ID: id, Type: typ, Label: id, URL: "/n/" + strings.ToLower(id) + "/"}
}

func gedge(s, t, typ string, w float64) export.GraphEdge {
	return export.GraphEdge{Edge: note.Edge{Source: s, Target: t, Type: note.EdgeType(typ), Weight: w, EvidenceCount: 1}}
}

// hubGraph is a pattern with n evidence episodes, each also evidence for a
// pattern of its own, and a hostile antipattern that causes and prevents
// it, with a javascript: URL.
func hubGraph(n int) export.Graph {
	g := export.Graph{Nodes: []export.GraphNode{gnode("PATTERN-hub", "pattern")}}
	for i := range n {
		ep, p := fmt.Sprintf("EP-%03d", i), fmt.Sprintf("PATTERN-%03d", i)
		g.Nodes = append(g.Nodes, gnode(ep, "episode"), gnode(p, "pattern"))
		g.Edges = append(g.Edges, gedge(ep, "PATTERN-hub", "evidence_for", 0.5), gedge(ep, p, "evidence_for", float64(i%3)/4))
	}
	bad := gnode(hostile, "antipattern")
	bad.URL = "javascript:alert(1)"
	g.Nodes = append(g.Nodes, bad)
	g.Edges = append(g.Edges, gedge(hostile, "PATTERN-hub", "causes", 0.9), gedge("PATTERN-hub", hostile, "prevents", 0.4), gedge(hostile, "PATTERN-hub", "correlates", 0.3))
	return g
}

func TestLocalGraph(t *testing.T) {
	small := export.Graph{
		Nodes: []export.GraphNode{gnode("PATTERN-a", "pattern"), gnode("EP-1", "episode"), gnode("EP-1#d001", "decision"), gnode("PATTERN-alone", "pattern")},
		Edges: []export.GraphEdge{gedge("EP-1", "PATTERN-a", "evidence_for", 0.5), gedge("EP-1#d001", "EP-1#d002", "leads_to", 0.5), gedge("EP-1#d001", "PATTERN-gone", "correlates", 0.3),
			gedge("PATTERN-a", "PATTERN-gone", "enables", 0.8), gedge("EP-1", "EP-1#d001", "causes", 0.5), gedge("PATTERN-alone", "PATTERN-alone", "causes", 1)},
	}
	tests := []struct {
		name    string
		g       export.Graph
		id      string
		nodes   int
		more    int
		classes []string
	}{
		{name: "unknown node", g: small, id: "PATTERN-nothing"},
		{name: "only a self-loop", g: small, id: "PATTERN-alone"},
		{name: "small, with a node missing from the list", g: small, id: "PATTERN-a", nodes: 4,
			classes: []string{"edge-evidence_for", "edge-enables", "edge-causes", "edge-correlates", "lg-cross", "node-pattern", "node-episode", "node-decision", "node-other"}},
		{name: "hub, capped", g: hubGraph(60), id: "PATTERN-hub", nodes: lgMaxNodes, more: 61 + 60 - (lgMaxNodes - 1),
			classes: []string{"edge-causes", "edge-prevents", "edge-correlates", "edge-evidence_for"}},
		{name: "hostile centre", g: hubGraph(3), id: hostile, nodes: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := localGraph(tt.g, tt.id)
			if tt.nodes == 0 {
				if got != "" {
					t.Fatalf("want no drawing, got\n%s", got)
				}
				return
			}
			if again := localGraph(tt.g, tt.id); again != got {
				t.Fatal("two drawings of the same graph differ")
			}
			els := checkSVG(t, got)
			nodes, centre := 0, 0
			classes := map[string]bool{}
			for _, el := range els {
				for _, c := range strings.Fields(el.attrs["class"]) {
					classes[c] = true
				}
				if el.class("lg-node") {
					nodes++
				}
				if el.class("lg-centre") {
					centre++
				}
				if el.name == "a" && strings.Contains(el.attrs["href"], "javascript") {
					t.Errorf("link to %q", el.attrs["href"])
				}
			}
			if nodes != tt.nodes || centre != 1 {
				t.Errorf("%d nodes with %d centres, want %d with 1", nodes, centre, tt.nodes)
			}
			for _, c := range tt.classes {
				if !classes[c] {
					t.Errorf("no class %s", c)
				}
			}
			txt := texts(t, got)
			if more := fmt.Sprintf("and %d more within two steps", tt.more); (tt.more > 0) != strings.Contains(txt, more) {
				t.Errorf("want %q: %v, in\n%s", more, tt.more > 0, txt)
			}
			if strings.Contains(got, "javascript:") {
				t.Error("a javascript: URL is in the drawing")
			}
			if tt.id == hostile && !strings.Contains(txt, hostile) {
				t.Errorf("the hostile label is not shown as text:\n%s", txt)
			}
		})
	}
}

// TestLocalGraphOrderFree: the drawing depends on the graph, not on the
// order of its lists.
func TestLocalGraphOrderFree(t *testing.T) {
	g := hubGraph(40)
	want := localGraph(g, "PATTERN-hub")
	r := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		r.Shuffle(len(g.Nodes), func(i, j int) { g.Nodes[i], g.Nodes[j] = g.Nodes[j], g.Nodes[i] })
		r.Shuffle(len(g.Edges), func(i, j int) { g.Edges[i], g.Edges[j] = g.Edges[j], g.Edges[i] })
		if got := localGraph(g, "PATTERN-hub"); got != want {
			t.Fatal("shuffling the graph's lists changed the drawing")
		}
	}
}

// TestPickPrefersStrongEdges: the neighbours drawn are the strongest, by
// weight then evidence then id.
func TestPickPrefersStrongEdges(t *testing.T) {
	g := export.Graph{Nodes: []export.GraphNode{gnode("C", "pattern")}}
	for i := range 30 {
		id := fmt.Sprintf("N%02d", i)
		g.Nodes = append(g.Nodes, gnode(id, "pattern"))
		e := gedge("C", id, "causes", float64(i%10)/10)
		e.EvidenceCount = i
		g.Edges = append(g.Edges, e)
	}
	n := NewNeighbourhoods(g)
	p := n.pick(n.at["C"])
	var got []string
	for _, v := range p.nodes[1 : 1+p.ring1] {
		got = append(got, n.nodes[v].ID)
	}
	want := []string{"N29", "N19", "N09", "N28", "N18", "N08", "N27", "N17", "N07", "N26", "N16", "N06", "N25", "N15"}
	if !slices.Equal(got, want) {
		t.Errorf("ring 1 %v, want %v", got, want)
	}
}

// TestNeighbourhoodNumbers: the drawing names no node beside it (names
// there were cut and crossed by edges): each node but the centre carries
// its number in its circle, drawn after every edge, and the key gives
// each number's label in full, however long, with its page.
func TestNeighbourhoodNumbers(t *testing.T) {
	g := hubGraph(30)
	long := strings.Repeat("a very long headline of an episode ", 8)
	g.Nodes[1].Label = long
	d := NewNeighbourhoods(g).Draw("PATTERN-hub")
	els := checkSVG(t, d.SVG)
	if len(d.Key) != lgMaxNodes-1 {
		t.Fatalf("%d entries in the key, want %d", len(d.Key), lgMaxNodes-1)
	}
	circles := map[[2]string]bool{}
	lastEdge, firstNum, nums := -1, -1, 0
	for k, el := range els {
		switch {
		case el.name == "circle":
			circles[[2]string{el.attrs["cx"], el.attrs["cy"]}] = true
		case el.class("lg-edge") && el.attrs["marker-end"] != "" && el.name == "path" && firstNum < 0:
			lastEdge = k
		case el.class("lg-label"):
			t.Errorf("a label beside a node: %v", el.attrs)
		case el.class("lg-num"):
			nums++
			if firstNum < 0 {
				firstNum = k
			}
		}
	}
	if nums != len(d.Key) || firstNum < lastEdge {
		t.Errorf("%d numbers for %d nodes (the first at element %d, the last edge at %d)", nums, len(d.Key), firstNum, lastEdge)
	}
	found := false
	for k, e := range d.Key {
		if e.N != k+1 || e.Label == "" || e.ID == "" {
			t.Errorf("key entry %d: %+v", k, e)
		}
		if e.Label == long {
			found = true
		}
		if strings.HasPrefix(e.URL, "javascript") {
			t.Errorf("key entry %d links to %q", k, e.URL)
		}
	}
	if !found {
		t.Error("the long label is not in the key in full")
	}
	if strings.Contains(texts(t, d.SVG), "…") {
		t.Error("the drawing cuts a label")
	}
}

// BenchmarkNeighbourhoods draws the neighbourhood of every node of a graph
// of 10,000 patterns with three edges out each: a site's worth.
func BenchmarkNeighbourhoods(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var g export.Graph
	for i := range 10000 {
		g.Nodes = append(g.Nodes, gnode(fmt.Sprintf("PATTERN-%05d", i), "pattern"))
	}
	types := []string{"causes", "enables", "prevents", "correlates"}
	for i := range 10000 {
		for k := range 3 {
			g.Edges = append(g.Edges, gedge(g.Nodes[i].ID, g.Nodes[r.IntN(10000)].ID, types[k], r.Float64()))
		}
	}
	for b.Loop() {
		n := NewNeighbourhoods(g)
		for _, v := range g.Nodes {
			n.SVG(v.ID)
		}
	}
}

// SVG is Draw(id)'s SVG.
func (n *Neighbourhoods) SVG(id string) string { return n.Draw(id).SVG }

// localGraph draws id's neighbourhood in g. It indexes g first: to draw
// many nodes of one graph, make the index once with NewNeighbourhoods.
func localGraph(g export.Graph, id string) string {
	return NewNeighbourhoods(g).SVG(id)
}
