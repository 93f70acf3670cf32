package aiagents

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
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

// importGraph converts the pattern rows of one causal-graph.json into
// pattern notes. outcomes gives the imported episodes' outcomes by
// lower-cased id, for evidence the row gives no contribution for.
func importGraph(p *parse.Parser, fsys fs.FS, f string, outcomes map[string]string, names map[string]bool) ([]File, int, []note.Diagnostic) {
	data, err := fs.ReadFile(fsys, f)
	if err != nil {
		return nil, 1, []note.Diagnostic{fileDiag(f, note.Error, "read", err.Error())}
	}
	g, diags, err := DecodeGraph(f, data)
	if err != nil {
		return nil, 1, diags
	}
	var files []File
	skipped := 0
	for _, row := range g.Patterns {
		pc := &patternConversion{row: row, title: uniqueName(names, patternTitle(row))}
		diags = append(diags, pc.readEvidence(f, outcomes)...)
		md, err := pc.markdown(p, f)
		if err != nil {
			diags = append(diags, diagOf(err))
			skipped++
			continue
		}
		files = append(files, File{Path: "patterns/" + pc.title + ".md", Data: md})
	}
	return files, skipped, diags
}

// patternTitle is PATTERN-<name>, the name in lower case with dashes; a
// name that is already an engram title (PATTERN-x, ANTIPATTERN-x, as
// engram export writes them) is kept.
func patternTitle(row GraphPattern) string {
	name := row.Name
	if name == "" {
		name = row.ID
	}
	upper := strings.ToUpper(name)
	if (strings.HasPrefix(upper, "PATTERN-") || strings.HasPrefix(upper, "ANTIPATTERN-")) && safeName(name, 120) == name {
		return name
	}
	return "PATTERN-" + strings.ToLower(safeName(name, 60))
}

// patternConversion is one pattern row on its way to markdown.
type patternConversion struct {
	row      GraphPattern
	title    string
	evidence []evidenceLine
	side     patternSidecar
}

type evidenceLine struct{ episode, outcome string }

// readEvidence lists the row's episodes as evidence lines, each with the
// outcome its contribution is nearest (1 success, 0.5 partial, 0
// failure), else the episode's own outcome, else the one the row's
// success rate is nearest. A contribution between those goes to the
// sidecar.
func (pc *patternConversion) readEvidence(f string, outcomes map[string]string) []note.Diagnostic {
	var diags []note.Diagnostic
	seen := map[string]bool{}
	for _, ep := range pc.row.Episodes {
		switch {
		case ep == "" || strings.ContainsAny(ep, "[]|#\r\n"):
			diags = append(diags, fileDiag(f, note.Warning, "aiagents-import", fmt.Sprintf("pattern %q: episode id %q cannot be a wikilink; left out of its evidence", pc.row.Name, ep)))
			continue
		case seen[strings.ToLower(ep)]:
			continue
		}
		seen[strings.ToLower(ep)] = true
		outcome := "success"
		if c, ok := pc.row.Contributions[ep]; ok {
			outcome = nearestOutcome(c)
			if c != outcomeValue[outcome] {
				if pc.side.Contributions == nil {
					pc.side.Contributions = map[string]float64{}
				}
				pc.side.Contributions[ep] = c
			}
		} else if o, ok := outcomes[strings.ToLower(ep)]; ok {
			outcome = o
		} else if r := pc.row.SuccessRate; r != nil {
			outcome = nearestOutcome(*r)
		}
		pc.evidence = append(pc.evidence, evidenceLine{ep, outcome})
	}
	return diags
}

// markdown renders the pattern note and checks that it parses; the
// description goes to the sidecar when "## Context" does not read back
// as it.
func (pc *patternConversion) markdown(p *parse.Parser, from string) ([]byte, error) {
	pc.side.ID, pc.side.Name, pc.side.Created = pc.row.ID, pc.row.Name, pc.row.Created
	if pc.row.LastUsed != "" {
		if _, err := parse.ParseTime(pc.row.LastUsed); err != nil {
			pc.side.LastUsed = pc.row.LastUsed
		}
	}
	notePath := "patterns/" + pc.title + ".md"
	n, err := parseBack(p, from, notePath, pc.render())
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(n.SectionText("Context")) != pc.row.Description {
		desc := pc.row.Description
		pc.side.Description = &desc
		if _, err := parseBack(p, from, notePath, pc.render()); err != nil {
			return nil, err
		}
	}
	return pc.render(), nil
}

func (pc *patternConversion) render() []byte {
	row := pc.row
	fm := newYAMLMap()
	fm.add("title", pc.title)
	fm.add("type", "pattern")
	fm.add("trigger", row.Trigger)
	fm.add("action", row.Action)
	if row.SuccessRate != nil {
		fm.add("success_rate", *row.SuccessRate)
	}
	if row.Occurrences != nil {
		fm.add("occurrences", *row.Occurrences)
	}
	if row.LastUsed != "" && pc.side.LastUsed == "" {
		fm.add("last_validated", row.LastUsed)
	}
	fm.add(sidecarKey, pc.side)
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(fm.bytes())
	b.WriteString("---\n")
	if row.Description != "" {
		b.WriteString("\n## Context\n\n" + proseText(row.Description) + "\n")
	}
	if len(pc.evidence) > 0 {
		b.WriteString("\n## Evidence Episodes\n\n")
		for _, ev := range pc.evidence {
			b.WriteString("- [[" + ev.episode + "]] - " + ev.outcome + "\n")
		}
	}
	return b.Bytes()
}

// proseText keeps a description inside its section: a line that would
// be a heading or a heading's underline is escaped with a backslash.
func proseText(s string) string {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"), "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") || t != "" && strings.Trim(t, "=- ") == "" {
			lines[i] = `\` + strings.TrimLeft(l, " ")
		}
	}
	return strings.ReplaceAll(strings.Join(lines, "\n"), "\x00", "\uFFFD")
}

// outcomeValue is an evidence outcome's contribution, as engram counts it
// in a success rate.
var outcomeValue = map[string]float64{"success": 1, "partial": 0.5, "failure": 0}

// PatternRow returns a pattern note as a row of causal-graph.json: the
// statistics engram computed, the evidence episodes and their
// contributions, the "## Context" section as the description. A note
// that engram import wrote keeps the row's id, name and created time in
// its ai_agents front matter (and a description or last_used that the
// markdown cannot hold), and contributions that are not 0, 0.5 or 1 while
// the evidence still says what the import wrote.
func PatternRow(n *note.Note, s Stats, created time.Time) GraphPattern {
	trigger, action := n.TriggerAction()
	p := GraphPattern{ID: n.Title, Name: n.Title, Description: strings.TrimSpace(n.SectionText("Context")),
		Trigger: trigger, Action: action, Episodes: []string{}, Contributions: map[string]float64{}, Created: formatTime(created)}
	if s.Source != "" {
		rate, occ := s.SuccessRate, s.Occurrences
		p.SuccessRate, p.Occurrences = &rate, &occ
	}
	for _, ev := range s.Evidence {
		p.Episodes = append(p.Episodes, ev.ID)
		p.Contributions[ev.ID] = outcomeValue[ev.Outcome]
	}
	if !n.Pattern.LastValidated.IsZero() {
		p.LastUsed = formatTime(n.Pattern.LastValidated)
	}
	if raw, ok := n.Extra[sidecarKey]; ok {
		if ps, err := readPatternSidecar(raw); err == nil {
			ps.apply(&p)
		}
	}
	return p
}

// nearestOutcome is the evidence outcome whose contribution is nearest c.
func nearestOutcome(c float64) string {
	switch {
	case math.IsNaN(c) || c >= 0.75:
		return "success"
	case c >= 0.25:
		return "partial"
	}
	return "failure"
}

// patternSidecar is the ai_agents front matter of an imported pattern:
// the row's id, name and created time, its description when "## Context"
// cannot hold it exactly, and contributions that are not 0, 0.5 or 1.
type patternSidecar struct {
	ID            string             `json:"id,omitempty" yaml:"id,omitempty"`
	Name          string             `json:"name,omitempty" yaml:"name,omitempty"`
	Description   *string            `json:"description,omitempty" yaml:"description,omitempty"`
	Created       string             `json:"created,omitempty" yaml:"created,omitempty"`
	LastUsed      string             `json:"last_used,omitempty" yaml:"last_used,omitempty"`
	Contributions map[string]float64 `json:"contributions,omitempty" yaml:"contributions,omitempty"`
}

func readPatternSidecar(raw any) (patternSidecar, error) {
	var s patternSidecar
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	return s, err
}

func (s patternSidecar) apply(p *GraphPattern) {
	if s.ID != "" {
		p.ID = s.ID
	}
	if s.Name != "" {
		p.Name = s.Name
	}
	if s.Description != nil {
		p.Description = *s.Description
	}
	if s.Created != "" {
		p.Created = s.Created
	}
	if s.LastUsed != "" && p.LastUsed == "" {
		p.LastUsed = s.LastUsed
	}
	for ep, c := range s.Contributions {
		// Only while the evidence line still gives the outcome the
		// contribution was rounded to.
		if v, ok := p.Contributions[ep]; ok && v == outcomeValue[nearestOutcome(c)] {
			p.Contributions[ep] = c
		}
	}
}
