package aiagents

import (
	"errors"
	"math"
	"strconv"

	"github.com/engramhq/engram/indexer/note"
)

// Graph is ai-agents' causality/causal-graph.json (its
// causal-graph.schema.json): what DecodeGraph reads and Export writes.
// engram writes its own ids (note titles, "<episode>#<part>") and node
// and edge types, not the 12-hex ids and enums of ai-agents' writer.
type Graph struct {
	Version  string         `json:"version"`
	Updated  string         `json:"updated"`
	Nodes    []GraphNode    `json:"nodes"`
	Edges    []GraphEdge    `json:"edges"`
	Patterns []GraphPattern `json:"patterns"`
}

// GraphNode is a node: the episodes it appears in, and when it was first
// seen.
type GraphNode struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Label    string   `json:"label"`
	Episodes []string `json:"episodes"`
	Created  string   `json:"created,omitempty"`
}

// GraphEdge is an edge. Older writers called evidence_count "count".
type GraphEdge struct {
	Source        string   `json:"source"`
	Target        string   `json:"target"`
	Type          string   `json:"type"`
	Weight        float64  `json:"weight"`
	EvidenceCount int      `json:"evidence_count"`
	Episodes      []string `json:"episodes"`
	Created       string   `json:"created,omitempty"`
}

// GraphPattern is a pattern row. Contributions are each evidence
// episode's share of success (1 success, 0.5 partial, 0 failure).
type GraphPattern struct {
	ID            string             `json:"id"`
	Name          string             `json:"name"`
	Description   string             `json:"description"`
	Trigger       string             `json:"trigger"`
	Action        string             `json:"action"`
	SuccessRate   *float64           `json:"success_rate,omitempty"`
	Occurrences   *int               `json:"occurrences,omitempty"`
	LastUsed      string             `json:"last_used,omitempty"`
	Episodes      []string           `json:"episodes"`
	Contributions map[string]float64 `json:"contributions"`
	Created       string             `json:"created,omitempty"`
}

// DecodeGraph reads a causal-graph.json tolerantly, as Decode reads an
// episode: what can be read is kept, every deviation is a positioned
// diagnostic (rules aiagents-syntax, aiagents-type, aiagents-missing-field,
// aiagents-duplicate-key, aiagents-utf8, aiagents-pattern). The error is
// non-nil only when data is not a JSON object; its message is the
// aiagents-syntax diagnostic.
//
// The cost is linear in the size of the file: one validation pass, one
// token pass, and constant work per value, so a 3 MB graph with long
// labels reads in milliseconds.
func DecodeGraph(path string, data []byte) (Graph, []note.Diagnostic, error) {
	d := newDecoder(path, data)
	root, err := d.root("a causal graph")
	if err != nil {
		return Graph{}, d.diags, err
	}
	f := d.object(root)
	var g Graph
	g.Version, _, _ = d.text(f, "version", "version")
	g.Updated, _, _ = d.text(f, "updated", "updated")
	for _, v := range d.objects(f, "nodes", "a node") {
		g.Nodes = append(g.Nodes, d.graphNode(v))
	}
	for _, v := range d.objects(f, "edges", "an edge") {
		g.Edges = append(g.Edges, d.graphEdge(v))
	}
	for _, v := range d.objects(f, "patterns", "a pattern") {
		if p, ok := d.graphPattern(v); ok {
			g.Patterns = append(g.Patterns, p)
		}
	}
	d.flushNulls()
	note.SortDiagnostics(d.diags)
	return g, d.diags, nil
}

// root reads the file and checks that it is an object; what names the
// expected content in the message.
func (d *decoder) root(what string) (*value, error) {
	root, err := readTree(d.src)
	if err == nil && root.kind != kindObject {
		err = &syntaxError{root.off, what + " is a JSON object, not " + root.kind.withArticle()}
	}
	if err == nil {
		return root, nil
	}
	se, ok := err.(*syntaxError)
	if !ok {
		se = &syntaxError{0, err.Error()}
	}
	d.report(se.off, note.Error, "aiagents-syntax", "%s", se.msg)
	return nil, errorOf(d.diags[len(d.diags)-1])
}

type diagError struct{ d note.Diagnostic }

func (e diagError) Error() string { return e.d.String() }

func errorOf(d note.Diagnostic) error { return diagError{d} }

// diagOf is the diagnostic of an error from errorOf.
func diagOf(err error) note.Diagnostic {
	var de diagError
	if errors.As(err, &de) {
		return de.d
	}
	return note.Diagnostic{Line: 1, Col: 1, Severity: note.Error, Rule: "aiagents-import", Message: err.Error()}
}

// objects returns the object elements of the array at key.
func (d *decoder) objects(f fields, key, what string) []*value {
	var out []*value
	for _, v := range d.list(f, key, key) {
		if v.kind != kindObject {
			d.wrongType(v, what, "an object")
			continue
		}
		out = append(out, v)
	}
	return out
}

func (d *decoder) strs(f fields, key, what string) []string {
	var out []string
	for _, r := range d.refs(f, key, what) {
		out = append(out, r.id)
	}
	return out
}

func (d *decoder) graphNode(v *value) GraphNode {
	f := d.object(v)
	var n GraphNode
	n.ID, _, _ = d.text(f, "id", "node id")
	n.Type, _, _ = d.text(f, "type", "node type")
	n.Label, _, _ = d.text(f, "label", "node label")
	n.Episodes = d.strs(f, "episodes", "node episodes")
	n.Created, _, _ = d.text(f, "created", "node created")
	return n
}

func (d *decoder) graphEdge(v *value) GraphEdge {
	f := d.object(v)
	var e GraphEdge
	e.Source, _, _ = d.text(f, "source", "edge source")
	e.Target, _, _ = d.text(f, "target", "edge target")
	e.Type, _, _ = d.text(f, "type", "edge type")
	if w, ok := d.num(f, "weight", "edge weight"); ok {
		e.Weight = w
	}
	key := "evidence_count"
	if f[key] == nil && f["count"] != nil {
		key = "count"
	}
	if c, ok := d.count(f, key, "edge "+key); ok {
		e.EvidenceCount = c
	}
	e.Episodes = d.strs(f, "episodes", "edge episodes")
	e.Created, _, _ = d.text(f, "created", "edge created")
	return e
}

// graphPattern reads a pattern row; one with neither name nor id is
// reported and dropped.
func (d *decoder) graphPattern(v *value) (GraphPattern, bool) {
	f := d.object(v)
	var p GraphPattern
	p.ID, _, _ = d.text(f, "id", "pattern id")
	p.Name, _, _ = d.text(f, "name", "pattern name")
	if p.Name == "" && p.ID == "" {
		d.report(v.off, note.Warning, "aiagents-missing-field", "pattern has neither name nor id; dropped")
		return p, false
	}
	p.Description, _, _ = d.text(f, "description", "pattern description")
	p.Trigger, _, _ = d.text(f, "trigger", "pattern trigger")
	p.Action, _, _ = d.text(f, "action", "pattern action")
	if r, ok := d.num(f, "success_rate", "pattern success_rate"); ok {
		if r < 0 || r > 1 {
			d.report(f["success_rate"].val.off, note.Warning, "aiagents-pattern", "pattern success_rate %g is outside 0..1; ignored", r)
		} else {
			p.SuccessRate = &r
		}
	}
	if c, ok := d.count(f, "occurrences", "pattern occurrences"); ok {
		p.Occurrences = &c
	}
	p.LastUsed, _, _ = d.text(f, "last_used", "pattern last_used")
	p.Episodes = d.strs(f, "episodes", "pattern episodes")
	p.Contributions = d.contributions(f)
	p.Created, _, _ = d.text(f, "created", "pattern created")
	return p, true
}

// contributions reads the per-episode map of numbers.
func (d *decoder) contributions(f fields) map[string]float64 {
	m := f["contributions"]
	if m == nil || m.val.kind == kindNull {
		return nil
	}
	if m.val.kind != kindObject {
		d.wrongType(m.val, "pattern contributions", "an object of numbers")
		return nil
	}
	cf := d.object(m.val)
	out := make(map[string]float64, len(cf))
	for key := range cf {
		if v, ok := d.num(cf, key, "contribution of "+strconv.Quote(key)); ok {
			out[key] = v
		}
	}
	return out
}

// num reads a finite number at key; absent or null is not ok, silently.
func (d *decoder) num(f fields, key, what string) (float64, bool) {
	m := f[key]
	if m == nil || m.val.kind == kindNull {
		return 0, false
	}
	if m.val.kind != kindNumber {
		d.wrongType(m.val, what, "a number")
		return 0, false
	}
	v, err := strconv.ParseFloat(m.val.text, 64)
	if err != nil || math.IsInf(v, 0) {
		d.report(m.val.off, note.Warning, "aiagents-type", "%s %s is out of range; ignored", what, m.val.text)
		return 0, false
	}
	return v, true
}

// count reads a whole number of at least 0.
func (d *decoder) count(f fields, key, what string) (int, bool) {
	v, ok := d.num(f, key, what)
	if !ok {
		return 0, false
	}
	if v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
		d.report(f[key].val.off, note.Warning, "aiagents-type", "%s %s is not a whole number of at least 0; ignored", what, f[key].val.text)
		return 0, false
	}
	return int(v), true
}
