package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

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
		s.Graph.Edges = append(s.Graph.Edges, export.GraphEdge{Edge: note.Edge{Source: a, Target: b, Type: note.EdgeType(typ), Weight: w}})
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
	// The decisions' pair and the lonely event are small chains; the
	// patterns and their episodes, one component, are the core.
	small := []string{}
	for _, n := range d.Nodes {
		if n.Small {
			small = append(small, n.ID)
		}
		if !n.Small && (n.X < d.Core.X || n.X > d.Core.X+d.Core.Width || n.Y < d.Core.Y || n.Y > d.Core.Y+d.Core.Height) {
			t.Errorf("core node %s at (%v, %v), outside the core's box %+v", n.ID, n.X, n.Y, d.Core)
		}
	}
	if fmt.Sprint(small) != "[E#d001 E#d002 lonely]" || d.SmallChains != 2 || d.SmallNodes != 3 || d.Components != 3 {
		t.Errorf("small nodes %v, %d chains of %d nodes in %d components; want the pair and the lone node", small, d.SmallChains, d.SmallNodes, d.Components)
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

// TestGraphHubsFoldParts: the most connected notes count their parts'
// links, each once, and the parts are not listed themselves: on real
// data the most linked nodes are commits inside one episode, which say
// nothing to a reader by their hash.
func TestGraphHubsFoldParts(t *testing.T) {
	s := &export.Site{BaseURL: "/"}
	node := func(id, typ string) {
		s.Graph.Nodes = append(s.Graph.Nodes, export.GraphNode{ID: id, Type: typ, URL: "/" + id + "/"})
	}
	edge := func(a, b, typ string) {
		s.Graph.Edges = append(s.Graph.Edges, export.GraphEdge{Edge: note.Edge{Source: a, Target: b, Type: note.EdgeType(typ), Weight: 1}})
	}
	node("E1", "episode")
	node("P", "pattern")
	node("E2", "episode")
	for i := range 5 {
		id := fmt.Sprintf("E1#e%d", i)
		node(id, "event")
		edge("E1", id, string(note.EdgeContains))
		if i > 0 {
			edge("E1#e0", id, "leads_to") // a commit every other event leads to
		}
	}
	node("E2#d1", "decision")
	edge("E2", "E2#d1", string(note.EdgeContains))
	edge("E2#d1", "P", "causes")
	edge("E2", "P", "evidence_for")

	d := graphData(s, false)
	for _, n := range d.Nodes {
		if n.Part != strings.Contains(n.ID, "#") {
			t.Errorf("%s: part %v", n.ID, n.Part)
		}
	}
	var got []string
	for _, h := range hubs(d) {
		got = append(got, fmt.Sprintf("%s %d", h.ID, h.Links))
	}
	// E1: four links among its events. E2: its decision's link to P and
	// its own. P: both of them, once each.
	if want := []string{"E1 4", "E2 2", "P 2"}; !slices.Equal(got, want) {
		t.Errorf("hubs %v, want %v", got, want)
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
		if i > 0 && (h.Links > v.Hubs[i-1].Links || h.Links == v.Hubs[i-1].Links && h.ID < v.Hubs[i-1].ID) {
			t.Errorf("hub %d %s (%d) after %s (%d)", i, h.ID, h.Links, v.Hubs[i-1].ID, v.Hubs[i-1].Links)
		}
	}
	// PATTERN-058 and 059 both have 61 edges: by id.
	if v.Hubs[0].ID != "PATTERN-058" || v.Hubs[0].Links != 61 {
		t.Errorf("first hub %+v", v.Hubs[0])
	}
	// Hubs are only nodes with edges.
	small := newGraphPage(graphSite(1)).Graph
	if len(small.Hubs) != 4 || small.Nodes != 5 || small.Edges != 2 || small.Isolated != 1 {
		t.Errorf("small graph: %+v", small)
	}
	if v.Components != 3 || v.Largest != 60+60*61/2 || v.SmallChains != 2 || v.SmallNodes != 3 {
		t.Errorf("%d components, the largest %d; %d small chains of %d nodes", v.Components, v.Largest, v.SmallChains, v.SmallNodes)
	}
	var shapes []string
	for _, sh := range v.Shapes {
		var ex []string
		for _, e := range sh.Examples {
			ex = append(ex, e.ID)
		}
		shapes = append(shapes, fmt.Sprintf("%d × %s %v", sh.Count, sh.Shape, ex))
	}
	if got, want := strings.Join(shapes, "; "), "1 × 1 event [lonely]; 1 × 2 decisions [E#d001]"; got != want {
		t.Errorf("shapes %q, want %q", got, want)
	}
}

// TestChainShapes: the small chains by shape, most common first, an
// episode before its parts, a few examples each by id.
func TestChainShapes(t *testing.T) {
	s := &export.Site{BaseURL: "/"}
	node := func(id, typ string) {
		s.Graph.Nodes = append(s.Graph.Nodes, export.GraphNode{ID: id, Type: typ, Label: "label of " + id})
	}
	edge := func(a, b, typ string) {
		s.Graph.Edges = append(s.Graph.Edges, export.GraphEdge{Edge: note.Edge{Source: a, Target: b, Type: note.EdgeType(typ)}})
	}
	// A core of 40 nodes, so that chains are small.
	for i := range 40 {
		node(fmt.Sprintf("P%02d", i), "pattern")
		if i > 0 {
			edge(fmt.Sprintf("P%02d", i), "P00", "enables")
		}
	}
	for i := range 5 {
		ep := fmt.Sprintf("E%d", i)
		node(ep, "episode")
		node(ep+"#d001", "decision")
		edge(ep, ep+"#d001", string(note.EdgeContains))
		if i%2 == 0 {
			node(ep+"#d002", "decision")
			edge(ep, ep+"#d002", string(note.EdgeContains))
		}
	}
	node("alone", "decision")
	v := newGraphPage(s).Graph
	var got []string
	for _, sh := range v.Shapes {
		var ex []string
		for _, e := range sh.Examples {
			ex = append(ex, e.ID)
		}
		got = append(got, fmt.Sprintf("%d × %s %v", sh.Count, sh.Shape, ex))
	}
	want := "3 × 1 episode + 2 decisions [E0 E2 E4]; 2 × 1 episode + 1 decision [E1 E3]; 1 × 1 decision [alone]"
	if strings.Join(got, "; ") != want || v.SmallChains != 6 || v.SmallNodes != 14 {
		t.Errorf("shapes\n got %s (%d chains, %d nodes)\nwant %s", strings.Join(got, "; "), v.SmallChains, v.SmallNodes, want)
	}
}

// TestNodeLabel: a node is labelled as the site's pages call it (a
// pattern by its name and rule, an episode by its task), in plain text,
// cut to maxLabel characters.
func TestNodeLabel(t *testing.T) {
	long := strings.Repeat("word ", 40)
	s := &export.Site{BaseURL: "/",
		Patterns: []export.Pattern{{ID: "ANTIPATTERN-big-bang", Trigger: "Several changes are ready", Action: "Ship them together", URL: "/patterns/antipattern-big-bang/"}},
		Episodes: []export.Episode{{EpisodeHead: export.EpisodeHead{ID: "E1", Task: "Fix the **flaky** test", URL: "/episodes/e1/"}}, {EpisodeHead: export.EpisodeHead{ID: "E2", Task: long, URL: "/episodes/e2/"}}}}
	s.Graph.Nodes = []export.GraphNode{
		{ID: "ANTIPATTERN-big-bang", Type: "antipattern", Label: "ANTIPATTERN-big-bang", URL: "/patterns/antipattern-big-bang/"},
		{ID: "E1", Type: "episode", Label: "Fix the **flaky** test", URL: "/episodes/e1/"},
		{ID: "E2", Type: "episode", Label: long, URL: "/episodes/e2/"},
		{ID: "E1#e002", Type: "event", Label: "**CRITICAL**: `guard`\n fails   open", URL: "/episodes/e1/#e002"},
		{ID: "E1#d001", Type: "decision", Label: "", URL: "/episodes/e1/#decision-d001"},
		{ID: "E3#e001", Type: "event", Label: strings.Repeat("é", 200)},
	}
	want := []string{
		"Big bang — When several changes are ready, ship them together",
		"Fix the flaky test",
		strings.TrimSpace(strings.Repeat("word ", 21)) + "…",
		"CRITICAL: guard fails open",
		"E1#d001",
		strings.Repeat("é", maxLabel-1) + "…",
	}
	d := graphData(s, false)
	for i, n := range d.Nodes {
		if n.Label != want[i] {
			t.Errorf("%s: %q, want %q", n.ID, n.Label, want[i])
		}
		if k := utf8.RuneCountInString(n.Label); k > maxLabel {
			t.Errorf("%s: %d characters, more than %d", n.ID, k, maxLabel)
		}
	}
}

// TestASCIIJSON: the explorer's JSON is all ASCII, and reads back as
// the same text.
func TestASCIIJSON(t *testing.T) {
	s := graphSite(2)
	s.Graph.Nodes[0].Label = "Big bang — “quoted” é 🚀 \u2028 <b>&</b>"
	data, err := encodeGraph(graphData(s, true))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range data {
		if c >= utf8.RuneSelf {
			t.Fatalf("byte %d is %#x, not ASCII: %s", i, c, data[max(0, i-20):min(len(data), i+20)])
		}
	}
	var d graphDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if want := export.PlainText(s.Graph.Nodes[0].Label); d.Nodes[0].Label != want {
		t.Errorf("label %q, want %q", d.Nodes[0].Label, want)
	}
}
