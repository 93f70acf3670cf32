package site

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"

	"github.com/spf13/afero"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/site/internal/graphlayout"
)

// The /graph/ page is the causal graph explorer. Its data, the graph with
// a layout computed here, is a static file next to the page
// (/graph/index.json, the page's JSON twin), which the page's script
// draws on a canvas. The page itself lists what the canvas shows (counts
// by type, the most connected nodes) in plain HTML, for readers without
// JavaScript.

// graphDataPath is where the explorer's data is published.
const graphDataPath = "graph/index.json"

// graphUnit is the natural edge length in the coordinates of the JSON.
const graphUnit = 20

// maxHubs is how many of the most connected nodes the page lists.
const maxHubs = 50

// Colours are named by the site stylesheet's custom properties (--accent,
// --ok...), so the canvas follows the light and dark themes. Types not
// listed get "fg" (nodes) or "muted" (edges); the order is the display
// order, other types follow in name order.
var (
	nodeColours = []typeColour{{"episode", "accent"}, {"decision", "part"}, {"event", "muted"}, {"pattern", "ok"}, {"antipattern", "fail"}}
	edgeColours = []typeColour{{"causes", "accent"}, {"enables", "ok"}, {"prevents", "fail"}, {"correlates", "part"}, {"leads_to", "fg"}, {"evidence_for", "muted"}, {export.Contains, "muted"}}
)

type typeColour struct{ typ, colour string }

// graphDoc is /graph/index.json. Edges name their nodes by index into
// Nodes; X and Y are the layout, in units of graphUnit per natural edge
// length, with the top-left corner at (0, 0).
type graphDoc struct {
	Version       int         `json:"version"`
	About         string      `json:"about"`
	ReferenceTime string      `json:"reference_time"`
	Source        string      `json:"source"`
	Unit          float64     `json:"unit"`
	Width         float64     `json:"width"`
	Height        float64     `json:"height"`
	Isolated      int         `json:"isolated"`
	NodeTypes     []typeEntry `json:"node_types"`
	EdgeTypes     []typeEntry `json:"edge_types"`
	Nodes         []graphNode `json:"nodes"`
	Edges         []graphEdge `json:"edges"`
}

type typeEntry struct {
	Type   string `json:"type"`
	Count  int    `json:"count"`
	Colour string `json:"colour"`
}

type graphNode struct {
	ID     string  `json:"id"`
	Type   string  `json:"type"`
	Label  string  `json:"label"`
	URL    string  `json:"url"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Degree int     `json:"degree"`
}

type graphEdge struct {
	Source int     `json:"source"`
	Target int     `json:"target"`
	Type   string  `json:"type"`
	Weight float64 `json:"weight"`
}

// graphView is what the page shows without JavaScript.
type graphView struct {
	Nodes     int         `json:"nodes"`
	Edges     int         `json:"edges"`
	Isolated  int         `json:"isolated"`
	NodeTypes []typeEntry `json:"node_types"`
	EdgeTypes []typeEntry `json:"edge_types"`
	Hubs      []graphNode `json:"hubs"`
	DataURL   string      `json:"data_url"`
}

// writeGraphData writes the explorer's data into the Hugo project's
// static files, so that it is published at /graph/index.json.
func writeGraphData(fsys afero.Fs, dir string, s *export.Site) error {
	data, err := encodeGraph(graphData(s, true))
	if err != nil {
		return fmt.Errorf("write graph data: %w", err)
	}
	full := path.Join(dir, "static", graphDataPath)
	if err := fsys.MkdirAll(path.Dir(full), 0o755); err != nil {
		return fmt.Errorf("write graph data: %w", err)
	}
	if err := afero.WriteFile(fsys, full, data, 0o644); err != nil {
		return fmt.Errorf("write graph data: %w", err)
	}
	return nil
}

// graphData is the explorer's document for s's graph, laid out when
// layout is true. Edges whose ends are not nodes are left out.
func graphData(s *export.Site, layout bool) graphDoc {
	g := s.Graph
	d := graphDoc{Version: 1, ReferenceTime: s.Manifest.ReferenceTime, Source: s.BaseURL + "api/v1/graph.json", Unit: graphUnit,
		About: "The causal graph as the /graph/ explorer draws it: nodes with a precomputed layout (x, y), edges naming nodes by index. " +
			"graph.json (source) has the full data.",
		Nodes: make([]graphNode, 0, len(g.Nodes)), Edges: make([]graphEdge, 0, len(g.Edges))}
	index := make(map[string]int, len(g.Nodes))
	for _, n := range g.Nodes {
		if _, dup := index[n.ID]; dup {
			continue
		}
		index[n.ID] = len(d.Nodes)
		d.Nodes = append(d.Nodes, graphNode{ID: n.ID, Type: n.Type, Label: n.Label, URL: n.URL})
	}
	pairs := make([][2]int, 0, len(g.Edges))
	for _, e := range g.Edges {
		a, okA := index[e.Source]
		b, okB := index[e.Target]
		if !okA || !okB {
			continue
		}
		d.Edges = append(d.Edges, graphEdge{Source: a, Target: b, Type: e.Type, Weight: finite(e.Weight)})
		pairs = append(pairs, [2]int{a, b})
		if e.Type == export.Contains {
			// An episode's own parts: drawn, but no link (as graph health
			// counts them).
			continue
		}
		d.Nodes[a].Degree++
		if b != a {
			d.Nodes[b].Degree++
		}
	}
	nodeTypes := make([]string, len(d.Nodes))
	for i, n := range d.Nodes {
		nodeTypes[i] = n.Type
		if n.Degree == 0 {
			d.Isolated++
		}
	}
	edgeTypes := make([]string, len(d.Edges))
	for i, e := range d.Edges {
		edgeTypes[i] = e.Type
	}
	d.NodeTypes = countTypes(nodeTypes, nodeColours, "fg")
	d.EdgeTypes = countTypes(edgeTypes, edgeColours, "muted")
	if layout {
		d.Width, d.Height = place(d.Nodes, pairs, d.NodeTypes)
	}
	return d
}

// place lays the nodes out, isolated ones grouped by type in display
// order, and returns the picture's size.
func place(nodes []graphNode, pairs [][2]int, types []typeEntry) (width, height float64) {
	rank := map[string]int{}
	for i, t := range types {
		rank[t.Type] = i
	}
	group := make([]int, len(nodes))
	for i, n := range nodes {
		group[i] = rank[n.Type]
	}
	for i, p := range graphlayout.Layout(len(nodes), pairs, group) {
		nodes[i].X, nodes[i].Y = round1(p.X*graphUnit), round1(p.Y*graphUnit)
		width, height = max(width, nodes[i].X), max(height, nodes[i].Y)
	}
	return width, height
}

// countTypes counts each type, in the order of known, then the others by
// name, with its colour.
func countTypes(types []string, known []typeColour, other string) []typeEntry {
	counts := map[string]int{}
	for _, t := range types {
		counts[t]++
	}
	out := []typeEntry{}
	for _, k := range known {
		if counts[k.typ] > 0 {
			out = append(out, typeEntry{Type: k.typ, Count: counts[k.typ], Colour: k.colour})
			delete(counts, k.typ)
		}
	}
	rest := make([]typeEntry, 0, len(counts))
	for t, n := range counts {
		rest = append(rest, typeEntry{Type: t, Count: n, Colour: other})
	}
	slices.SortFunc(rest, func(a, b typeEntry) int { return cmp.Compare(a.Type, b.Type) })
	return append(out, rest...)
}

// encodeGraph writes the document with one node or edge a line: readable,
// diffable, and not much bigger than compact JSON.
func encodeGraph(d graphDoc) ([]byte, error) {
	nodes, edges := d.Nodes, d.Edges
	d.Nodes, d.Edges = nil, nil
	head, err := marshal(d)
	if err != nil {
		return nil, err
	}
	// head ends in `"nodes":null,"edges":null}`: the lists go there.
	const tail = `"nodes":null,"edges":null}`
	if !bytes.HasSuffix(head, []byte(tail)) {
		return nil, fmt.Errorf("encode graph: unexpected header %q", head[max(0, len(head)-40):])
	}
	var b bytes.Buffer
	b.Write(head[:len(head)-len(tail)])
	b.WriteString("\n\"nodes\":[")
	if err := writeLines(&b, nodes); err != nil {
		return nil, err
	}
	b.WriteString("],\n\"edges\":[")
	if err := writeLines(&b, edges); err != nil {
		return nil, err
	}
	b.WriteString("]}\n")
	return b.Bytes(), nil
}

func writeLines[T any](b *bytes.Buffer, items []T) error {
	for i, it := range items {
		line, err := marshal(it)
		if err != nil {
			return err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		b.Write(line)
	}
	if len(items) > 0 {
		b.WriteByte('\n')
	}
	return nil
}

// marshal is json.Marshal without HTML escaping and without the newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode graph: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func round1(v float64) float64 { return finite(math.Round(v*10) / 10) }

// finite turns NaN and infinities, which JSON cannot hold, into 0.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
