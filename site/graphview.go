package site

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/spf13/afero"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/routes"
	"github.com/engramhq/engram/site/internal/graphlayout"
)

// The /graph/ page is the causal graph explorer. Its data, the graph with
// a layout computed here, is a static file next to the page
// (/graph/index.json, the page's JSON twin), which the page's script
// draws on a canvas. The connected structure comes first: the script
// fits the core (graphlayout's Core part) and leaves the small chains
// (components of at most graphlayout.SmallMax nodes, marked small) out
// until the reader asks for them. The page itself lists what the canvas
// shows (counts by type, the small chains by shape, the most connected
// nodes) in plain HTML, for readers without JavaScript.

// graphDataPath is where the explorer's data is published.
const graphDataPath = "graph/index.json"

// graphUnit is the natural edge length in the coordinates of the JSON.
const graphUnit = 20

// maxHubs is how many of the most connected notes the page lists.
const maxHubs = 20

// maxLabel is the most characters of a node's label in the JSON, as in
// the site's lists: enough for a tooltip, and the canvas shortens it
// further; graph.json (the source) has the whole text.
const maxLabel = export.HeadlineRunes

// Colours are named by the site stylesheet's custom properties (--accent,
// --ok...), so the canvas follows the light and dark themes. Types not
// listed get "fg" (nodes) or "muted" (edges); the order is the display
// order, other types follow in name order.
var (
	nodeColours = []typeColour{{"episode", "accent"}, {"decision", "part"}, {"event", "muted"}, {"pattern", "ok"}, {"antipattern", "fail"}}
	edgeColours = []typeColour{{string(note.EdgeCauses), "accent"}, {string(note.EdgeEnables), "ok"}, {string(note.EdgePrevents), "fail"}, {string(note.EdgeCorrelates), "part"}, {string(note.EdgeLeadsTo), "fg"}, {string(note.EdgeEvidenceFor), "muted"}, {string(note.EdgeContains), "muted"}}
)

type typeColour struct{ typ, colour string }

// graphDoc is /graph/index.json. Edges name their nodes by index into
// Nodes; X and Y are the layout, in units of graphUnit per natural edge
// length, with the top-left corner at (0, 0). Core is the box the
// explorer fits first; SmallChains counts the components of at most
// graphlayout.SmallMax nodes, whose SmallNodes nodes are marked small.
type graphDoc struct {
	Version       int         `json:"version"`
	About         string      `json:"about"`
	ReferenceTime string      `json:"reference_time"`
	Source        string      `json:"source"`
	Unit          float64     `json:"unit"`
	Width         float64     `json:"width"`
	Height        float64     `json:"height"`
	Core          graphBox    `json:"core"`
	Isolated      int         `json:"isolated"`
	Components    int         `json:"components"`
	SmallChains   int         `json:"small_chains"`
	SmallNodes    int         `json:"small_nodes"`
	NodeTypes     []typeEntry `json:"node_types"`
	EdgeTypes     []typeEntry `json:"edge_types"`
	Nodes         []graphNode `json:"nodes"`
	Edges         []graphEdge `json:"edges"`
}

// graphBox is a box of the layout, in the units of its nodes' x and y.
type graphBox struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

type typeEntry struct {
	Type   string `json:"type"`
	Count  int    `json:"count"`
	Colour string `json:"colour"`
}

// graphNode is a node. Its label is what the site's pages call it (see
// headlineGraph): an episode's task, a pattern's name in words and its
// rule ("Big bang change — When …"; the explorer draws the name and
// shows the rest in its tooltip), a decision's title, in plain text and
// at most maxLabel characters. Degree counts its edges but those to its
// own episode ("contains"). Part marks a decision or event of an episode
// (the end of a "contains" edge): the explorer names the notes first.
type graphNode struct {
	ID     string  `json:"id"`
	Type   string  `json:"type"`
	Label  string  `json:"label"`
	URL    string  `json:"url"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Degree int     `json:"degree"`
	Small  bool    `json:"small,omitempty"`
	Part   bool    `json:"part,omitempty"`
}

type graphEdge struct {
	Source int     `json:"source"`
	Target int     `json:"target"`
	Type   string  `json:"type"`
	Weight float64 `json:"weight"`
}

// graphView is what the page shows without JavaScript.
type graphView struct {
	Nodes       int          `json:"nodes"`
	Edges       int          `json:"edges"`
	Isolated    int          `json:"isolated"`
	Components  int          `json:"components"`
	Largest     int          `json:"largest"`
	SmallChains int          `json:"small_chains"`
	SmallNodes  int          `json:"small_nodes"`
	Shapes      []chainShape `json:"shapes"`
	NodeTypes   []typeEntry  `json:"node_types"`
	EdgeTypes   []typeEntry  `json:"edge_types"`
	Hubs        []graphHub   `json:"hubs"`
	DataURL     string       `json:"data_url"`
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
	g := headlineGraph(s, headlines(s))
	d := graphDoc{Version: 1, ReferenceTime: s.Manifest.ReferenceTime, Source: s.BaseURL + routes.Graph, Unit: graphUnit,
		About: "The causal graph as the /graph/ explorer draws it: nodes with a precomputed layout (x, y), edges naming nodes by index; " +
			"the explorer first fits the core box and leaves out the small chains (nodes marked small) until asked. " +
			"graph.json (source) has the full data.",
		Nodes: make([]graphNode, 0, len(g.Nodes)), Edges: make([]graphEdge, 0, len(g.Edges))}
	index := make(map[string]int, len(g.Nodes))
	for _, n := range g.Nodes {
		if _, dup := index[n.ID]; dup {
			continue
		}
		index[n.ID] = len(d.Nodes)
		d.Nodes = append(d.Nodes, graphNode{ID: n.ID, Type: n.Type, Label: nodeLabel(n), URL: n.URL})
	}
	pairs := make([][2]int, 0, len(g.Edges))
	for _, e := range g.Edges {
		a, okA := index[e.Source]
		b, okB := index[e.Target]
		if !okA || !okB {
			continue
		}
		d.Edges = append(d.Edges, graphEdge{Source: a, Target: b, Type: string(e.Type), Weight: finite(e.Weight)})
		pairs = append(pairs, [2]int{a, b})
		if e.Type == note.EdgeContains {
			// An episode's own parts: drawn, but no link (as graph health
			// counts them).
			d.Nodes[b].Part = b != a
			continue
		}
		d.Nodes[a].Degree++
		if b != a {
			d.Nodes[b].Degree++
		}
	}
	d.count()
	comps := graphlayout.Components(len(d.Nodes), pairs)
	d.markSmall(comps, graphlayout.Parts(comps))
	if layout {
		d.place(pairs)
	}
	return d
}

// count counts the nodes without links and the nodes and edges by type.
func (d *graphDoc) count() {
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
}

// markSmall marks the nodes of the small components and counts them.
func (d *graphDoc) markSmall(comps [][]int, parts []graphlayout.Part) {
	d.Components = len(comps)
	for i, c := range comps {
		if parts[i] != graphlayout.Small {
			continue
		}
		d.SmallChains++
		d.SmallNodes += len(c)
		for _, v := range c {
			d.Nodes[v].Small = true
		}
	}
}

// place lays the nodes out, isolated ones grouped by type in display
// order, and sets the picture's size and its core's box.
func (d *graphDoc) place(pairs [][2]int) {
	rank := map[string]int{}
	for i, t := range d.NodeTypes {
		rank[t.Type] = i
	}
	group := make([]int, len(d.Nodes))
	for i, n := range d.Nodes {
		group[i] = rank[n.Type]
	}
	pic := graphlayout.Layout(len(d.Nodes), pairs, group)
	for i, p := range pic.Points {
		n := &d.Nodes[i]
		n.X, n.Y = round1(p.X*graphUnit), round1(p.Y*graphUnit)
		d.Width, d.Height = max(d.Width, n.X), max(d.Height, n.Y)
	}
	c := pic.Core
	d.Core = graphBox{X: round1(c.X * graphUnit), Y: round1(c.Y * graphUnit), Width: round1(c.W * graphUnit), Height: round1(c.H * graphUnit)}
}

// nodeLabel is n's label in one line of plain text, cut at a word to
// at most maxLabel characters, or its id if it has none.
func nodeLabel(n export.GraphNode) string {
	if label := export.PlainText(n.Label); label != "" {
		return export.Clip(label, maxLabel)
	}
	return n.ID
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

// marshal is json.Marshal without HTML escaping and without the
// newline, in ASCII (see asciiJSON).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode graph: %w", err)
	}
	return asciiJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// asciiJSON escapes every character of JSON text beyond ASCII as \uXXXX
// (a pair of them beyond the Basic Multilingual Plane), which only
// strings hold. A browser parses a document that is all ASCII a third
// faster: one "—" in a label makes the whole text two-byte (measured on
// the 10,000-note repository's 7 MB, 130 ms against 180 ms).
func asciiJSON(b []byte) []byte {
	if !slices.ContainsFunc(b, func(c byte) bool { return c >= utf8.RuneSelf }) {
		return b
	}
	out := make([]byte, 0, len(b)+len(b)/8)
	for _, r := range string(b) {
		switch {
		case r < utf8.RuneSelf:
			out = append(out, byte(r))
		case r > 0xFFFF:
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
	}
	return out
}

func round1(v float64) float64 { return finite(math.Round(v*10) / 10) }

// finite turns NaN and infinities, which JSON cannot hold, into 0.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
