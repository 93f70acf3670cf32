package export

import (
	"sort"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/note"
)

func (x *exporter) episode(i int) Episode {
	n := &x.in.Notes[i]
	m := x.in.Meta[i]
	e := n.Episode
	ep := Episode{
		EpisodeSummary: EpisodeSummary{
			ID: n.Title, Title: n.Title, Date: formatTime(m.Created), Outcome: e.Outcome, Task: e.Task,
			Tags: tagsOf(n), URL: x.url(i), JSONURL: x.jsonURL(i),
		},
		Created: formatTime(m.Created), Updated: formatTime(m.Updated), DateSource: m.DateSource,
		DurationMinutes: e.DurationMinutes, Session: e.Session, Metrics: e.Metrics,
		Context:      sectionText(n, "Context"),
		Observations: observations(n),
		Decisions:    []Decision{},
		Events:       []Event{},
		Lessons:      []string{},
		Relations:    x.relations(i),
		Links:        x.links(i),
		Backlinks:    x.backlinks(i),
		Sections:     sections(n, "Context"),
		Extra:        n.Extra,
		Source:       x.source(i),
	}
	if ep.Metrics == nil {
		ep.Metrics = map[string]float64{}
	}
	for _, d := range e.Decisions {
		dec := Decision{ID: d.ID, Title: d.Title, Timestamp: d.Timestamp, Type: d.Type, Context: d.Context,
			Options: d.Options, Chosen: d.Chosen, Rationale: d.Rationale, Outcome: d.Outcome, Effects: []Link{}}
		if dec.Options == nil {
			dec.Options = []string{}
		}
		for _, l := range d.Effects {
			dec.Effects = append(dec.Effects, x.resolve(i, l.Target))
		}
		ep.Decisions = append(ep.Decisions, dec)
	}
	for _, ev := range e.Events {
		ep.Events = append(ep.Events, Event{ID: ev.ID, Timestamp: ev.Timestamp, Type: ev.Type, Content: ev.Text})
	}
	for _, l := range e.Lessons {
		ep.Lessons = append(ep.Lessons, l.Text)
	}
	return ep
}

func (x *exporter) pattern(i int) Pattern {
	n := &x.in.Notes[i]
	st := x.in.Graph.Stats[i]
	p := Pattern{
		ID: n.Title, Title: n.Title, Type: typeOf(n),
		Trigger:     firstNonEmpty(n.Pattern.Trigger, sectionText(n, "Trigger")),
		Action:      firstNonEmpty(n.Pattern.Action, sectionText(n, "Action")),
		Occurrences: st.Occurrences, StatsSource: st.Source,
		Declared: Declared{SuccessRate: n.Pattern.DeclaredRate, Occurrences: n.Pattern.DeclaredOccurrences},
		Tags:     tagsOf(n), Evidence: []EvidenceRef{}, EdgesOut: []Edge{}, EdgesIn: []Edge{},
		URL: x.url(i), JSONURL: x.jsonURL(i),
		LastValidated: formatTime(n.Pattern.LastValidated),
		Relations:     x.relations(i),
		Links:         x.links(i),
		Backlinks:     x.backlinks(i),
		Sections:      sections(n, usedSections(n.Pattern)...),
	}
	if st.Source != "" {
		rate, conf := round(st.SuccessRate), round(st.Confidence)
		p.SuccessRate, p.Confidence = &rate, &conf
	}
	p.Antipattern = n.IsAntipattern() || st.Source != "" &&
		st.SuccessRate <= x.in.AntipatternMaxSuccess && st.Occurrences >= x.in.AntipatternMinOccurrences
	for _, ev := range st.Evidence {
		p.Evidence = append(p.Evidence, EvidenceRef{ID: ev.ID, Outcome: ev.Outcome, URL: x.nodeURL(ev.ID)})
	}
	for _, e := range x.edgesOut[n.Title] {
		p.EdgesOut = append(p.EdgesOut, edge(e))
	}
	for _, e := range x.edgesIn[n.Title] {
		p.EdgesIn = append(p.EdgesIn, edge(e))
	}
	src := x.source(i)
	p.Source = &src
	return p
}

// nodeURL is the page of a graph node. Evidence names its episode by
// title, not by the link text the pattern wrote ([[file-name]], another
// case), so it cannot be resolved through the pattern's links.
func (x *exporter) nodeURL(id string) string {
	ns := x.in.Graph.Nodes
	k := sort.Search(len(ns), func(k int) bool { return ns[k].ID >= id })
	if k < len(ns) && ns[k].ID == id {
		return x.url(ns[k].Note)
	}
	return ""
}

func edge(e causal.Edge) Edge {
	return Edge{Source: e.Source, Target: e.Target, Type: e.Type, Weight: round(e.Weight), EvidenceCount: e.EvidenceCount}
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func (x *exporter) note(i int) Note {
	n := &x.in.Notes[i]
	return Note{
		ID: n.Title, Title: n.Title, Type: typeOf(n), Tags: tagsOf(n), URL: x.url(i),
		Observations: observations(n), Relations: x.relations(i), Links: x.links(i), Backlinks: x.backlinks(i),
		Sections: sections(n), Source: x.source(i),
	}
}

func (x *exporter) graph(patterns []Pattern) Graph {
	g := Graph{Version: "1.0", Updated: formatTime(x.in.ReferenceTime), Nodes: []GraphNode{}, Edges: []Edge{}, Patterns: []GraphPattern{}}
	for _, n := range x.in.Graph.Nodes {
		g.Nodes = append(g.Nodes, GraphNode{ID: n.ID, Type: n.Type, Label: n.Label, URL: x.url(n.Note)})
	}
	for _, e := range x.in.Graph.Edges {
		g.Edges = append(g.Edges, edge(e))
	}
	for _, p := range patterns {
		gp := GraphPattern{ID: p.ID, Name: p.Title, Trigger: p.Trigger, Action: p.Action, SuccessRate: p.SuccessRate, Occurrences: p.Occurrences, Episodes: []string{}}
		for _, ev := range p.Evidence {
			gp.Episodes = append(gp.Episodes, ev.ID)
		}
		g.Patterns = append(g.Patterns, gp)
	}
	return g
}

// usedSections are the prose sections that stand in for an empty trigger or
// action in front matter; they are not repeated as sections.
func usedSections(p *note.Pattern) []string {
	var used []string
	if p.Trigger == "" {
		used = append(used, "Trigger")
	}
	if p.Action == "" {
		used = append(used, "Action")
	}
	return used
}
