package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/spf13/afero"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

// graphSite is a site whose graph has n pattern hubs with episodes as
// evidence, a decision chain, an isolated node, a repeated node, an edge
// to nothing and a weight JSON cannot hold.
func graphSite(n int) *export.Site {
	s := &export.Site{BaseURL: "/", Manifest: export.Manifest{ReferenceTime: "2026-11-21T00:00:00Z"}}
	node := func(id, typ, url string) {
		s.Graph.Nodes = append(s.Graph.Nodes, export.GraphNode{ID: id, Type: typ, Label: "label of " + id, URL: url})
	}
	edge := func(a, b, typ string, w float64) {
		s.Graph.Edges = append(s.Graph.Edges, export.GraphEdge{Edge: note.Edge{Source: a, Target: b, Type: typ, Weight: w}})
	}
	for p := range n {
		node(fmt.Sprintf("PATTERN-%03d", p), "pattern", fmt.Sprintf("/patterns/p%03d/", p))
		if p > 0 {
			edge(fmt.Sprintf("PATTERN-%03d", p), fmt.Sprintf("PATTERN-%03d", p-1), "enables", 0.5)
		}
		for e := range p + 1 {
			id := fmt.Sprintf("EPISODE-%03d-%03d", p, e)
			node(id, "episode", "/episodes/"+id+"/")
			edge(id, fmt.Sprintf("PATTERN-%03d", p), "evidence_for", 0.5)
		}
	}
	node("E#d001", "decision", "/episodes/e/#decision-d001")
	node("E#d002", "decision", "")
	edge("E#d001", "E#d002", "causes", math.NaN())
	node("lonely", "event", "/episodes/e/#e001")
	node("lonely", "event", "/episodes/e/#e001")
	edge("lonely", "missing", "causes", 1)
	return s
}

func TestGraphData(t *testing.T) {
	s := graphSite(60)
	d := graphData(s, true)
	want := 60 + 60*61/2 + 3
	if len(d.Nodes) != want {
		t.Fatalf("%d nodes, want %d (the repeated one once)", len(d.Nodes), want)
	}
	if len(d.Edges) != len(s.Graph.Edges)-1 {
		t.Errorf("%d edges, want %d (the one to a missing node left out)", len(d.Edges), len(s.Graph.Edges)-1)
	}
	degree := make([]int, len(d.Nodes))
	for _, e := range d.Edges {
		if e.Source < 0 || e.Source >= len(d.Nodes) || e.Target < 0 || e.Target >= len(d.Nodes) {
			t.Fatalf("edge %+v names no node", e)
		}
		degree[e.Source]++
		degree[e.Target]++
	}
	for i, n := range d.Nodes {
		if n.Degree != degree[i] || math.IsNaN(n.X) || math.IsNaN(n.Y) || n.X < 0 || n.Y < 0 || n.X > d.Width || n.Y > d.Height {
			t.Errorf("node %+v (degree %d, picture %vx%v)", n, degree[i], d.Width, d.Height)
		}
	}
	if d.Isolated != 1 {
		t.Errorf("%d isolated nodes, want 1", d.Isolated)
	}
	types := fmt.Sprint(d.NodeTypes, d.EdgeTypes)
	if want := "[{episode 1830 accent} {decision 2 part} {event 1 muted} {pattern 60 ok}] [{causes 1 accent} {enables 59 ok} {evidence_for 1830 muted}]"; types != want {
		t.Errorf("types\n got %s\nwant %s", types, want)
	}
}

func TestGraphDataBytes(t *testing.T) {
	for _, n := range []int{0, 1, 40} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := graphSite(n)
			if n == 0 {
				s.Graph = export.Graph{}
			}
			a, err := encodeGraph(graphData(s, true))
			if err != nil {
				t.Fatal(err)
			}
			b, err := encodeGraph(graphData(s, true))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Error("two encodings of the same graph differ")
			}
			var doc map[string]any
			if err := json.Unmarshal(a, &doc); err != nil {
				t.Fatalf("%v\n%s", err, a)
			}
			for _, k := range []string{"nodes", "edges", "node_types", "edge_types"} {
				if _, ok := doc[k].([]any); !ok {
					t.Errorf("%s is %v, want a list", k, doc[k])
				}
			}
			if lines := bytes.Count(a, []byte("\n")); n > 0 && lines < len(doc["nodes"].([]any)) {
				t.Errorf("%d lines for %d nodes: want one node a line", lines, len(doc["nodes"].([]any)))
			}
		})
	}
}

func TestWriteGraphData(t *testing.T) {
	fsys := afero.NewMemMapFs()
	if err := writeGraphData(fsys, "/p", graphSite(3)); err != nil {
		t.Fatal(err)
	}
	data, err := afero.ReadFile(fsys, "/p/static/graph/index.json")
	if err != nil {
		t.Fatal(err)
	}
	var d graphDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if d.Version != 1 || d.Unit != graphUnit || d.Source != "/api/v1/graph.json" || len(d.Nodes) != 3+6+3 {
		t.Errorf("header %+v, %d nodes", d, len(d.Nodes))
	}
}

func TestGraphPage(t *testing.T) {
	v := newGraphPage(graphSite(60)).Graph
	if v.DataURL != "/graph/index.json" {
		t.Errorf("data_url %v", v.DataURL)
	}
	if len(v.Hubs) != maxHubs {
		t.Fatalf("%d hubs, want %d", len(v.Hubs), maxHubs)
	}
	for i, h := range v.Hubs {
		if i > 0 && (h.Degree > v.Hubs[i-1].Degree || h.Degree == v.Hubs[i-1].Degree && h.ID < v.Hubs[i-1].ID) {
			t.Errorf("hub %d %s (%d) after %s (%d)", i, h.ID, h.Degree, v.Hubs[i-1].ID, v.Hubs[i-1].Degree)
		}
	}
	// PATTERN-058 and 059 both have 61 edges: by id.
	if v.Hubs[0].ID != "PATTERN-058" || v.Hubs[0].Degree != 61 {
		t.Errorf("first hub %+v", v.Hubs[0])
	}
	// Hubs are only nodes with edges.
	small := newGraphPage(graphSite(1)).Graph
	if len(small.Hubs) != 4 || small.Nodes != 5 || small.Edges != 2 || small.Isolated != 1 {
		t.Errorf("small graph: %+v", small)
	}
}
