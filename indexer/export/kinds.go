package export

import (
	"sort"
	"time"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/note"
)

func (x *exporter) episode(i int) Episode {
	n := &x.in.Notes[i]
	m := x.in.Meta[i]
	e := n.Episode
	ep := Episode{
		EpisodeHead: EpisodeHead{
			ID: n.Title, Title: n.Title, Date: formatTime(m.Created), Outcome: e.Outcome, Task: e.Task,
			Tags: tagsOf(n), URL: x.url(i), JSONURL: x.jsonURL(i),
		},
		Created: formatTime(m.Created), Updated: formatTime(m.Updated), DateSource: m.DateSource,
		DurationMinutes: e.DurationMinutes, Session: e.Session, Metrics: e.Metrics,
		Context:      n.SectionText("Context"),
		Observations: x.observations(i),
		Decisions:    []Decision{},
		Events:       []Event{},
		Lessons:      []string{},
		Relations:    x.relations(i),
		Links:        x.links(i),
		Backlinks:    x.backlinks(i),
		Similar:      []Similar{},
		Flags:        x.flags(i),
		Poisoning:    x.poisoning(i),
		RelatedWork:  x.relatedWork(i),
		Sections:     sections(n, "Context"),
		Extra:        n.Extra,
		Source:       x.source(i),
	}
	if ep.Metrics == nil {
		ep.Metrics = map[string]float64{}
	}
	ep.Feedback = x.feedback(i)
	pv := x.in.Graph.Provenance
	ep.Concepts = []Ref{}
	if len(pv.Thread) > i && pv.Thread[i] >= 0 {
		r := x.ref(pv.Thread[i])
		ep.SourceThread = &r
	}
	if len(pv.Concepts) > i {
		for _, c := range pv.Concepts[i] {
			ep.Concepts = append(ep.Concepts, x.ref(c))
		}
	}
	ep.Scoring, ep.Decayed = x.decay(1, m.Created, ep.Feedback)
	ep.Due = formatTime(n.Due)
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
		ep.Events = append(ep.Events, Event{ID: ev.ID, Timestamp: ev.Timestamp, Type: ev.Type, Content: ev.Text, CausedBy: ev.CausedBy, LeadsTo: ev.LeadsTo})
	}
	for _, l := range e.Lessons {
		ep.Lessons = append(ep.Lessons, l.Text)
	}
	return ep
}

func (x *exporter) pattern(i int) Pattern {
	n := &x.in.Notes[i]
	st := x.in.Graph.Stats[i]
	trigger, action := n.TriggerAction()
	p := Pattern{
		ID: n.Title, Title: n.Title, Type: typeOf(n),
		Trigger: trigger, Action: action,
		Occurrences: st.Occurrences, StatsSource: st.Source,
		Declared: Declared{SuccessRate: n.Pattern.DeclaredRate, Occurrences: n.Pattern.DeclaredOccurrences},
		Flags:    x.flags(i), Poisoning: x.poisoning(i), Observations: x.observations(i),
		Tags: tagsOf(n), Evidence: []EvidenceRef{}, EdgesOut: []note.Edge{}, EdgesIn: []note.Edge{},
		URL: x.url(i), JSONURL: x.jsonURL(i),
		LastValidated: formatTime(n.Pattern.LastValidated),
		Relations:     x.relations(i),
		Links:         x.links(i),
		Backlinks:     x.backlinks(i),
		Sections:      sections(n, usedSections(n.Pattern)...),
		Extra:         n.Extra,
	}
	if st.Source != "" {
		rate, conf := round(st.SuccessRate), round(st.Confidence)
		p.SuccessRate, p.Confidence = &rate, &conf
	}
	p.Antipattern = st.Antipattern
	p.Feedback = x.feedback(i)
	p.Scoring, p.Decayed = x.decay(st.Confidence, x.patternSince(i), p.Feedback)
	for _, ev := range st.Evidence {
		ref := EvidenceRef{ID: ev.ID, Outcome: ev.Outcome, URL: x.nodeURL(ev.ID)}
		if ev.Own != ev.Outcome {
			ref.EpisodeOutcome = ev.Own
		}
		p.Evidence = append(p.Evidence, ref)
	}
	for _, e := range x.edgesOut[n.Title] {
		p.EdgesOut = append(p.EdgesOut, rounded(e))
	}
	for _, e := range x.edgesIn[n.Title] {
		p.EdgesIn = append(p.EdgesIn, rounded(e))
	}
	src := x.source(i)
	p.Source = &src
	return p
}

// patternSince is when a pattern's age starts: its latest evidence
// episode or last_validated, whichever is later, else its created date.
func (x *exporter) patternSince(i int) time.Time {
	var since time.Time
	for _, ev := range x.in.Graph.Stats[i].Evidence {
		if j, ok := x.noteIndex(ev.ID); ok && x.in.Meta[j].Created.After(since) {
			since = x.in.Meta[j].Created
		}
	}
	if lv := x.in.Notes[i].Pattern.LastValidated; lv.After(since) {
		since = lv
	}
	if since.IsZero() {
		since = x.in.Meta[i].Created
	}
	return since
}

// noteIndex finds the note of a graph node.
func (x *exporter) noteIndex(id string) (int, bool) {
	ns := x.in.Graph.Nodes
	k := sort.Search(len(ns), func(k int) bool { return ns[k].ID >= id })
	if k < len(ns) && ns[k].ID == id {
		return ns[k].Note, true
	}
	return 0, false
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

// Contains is the type of the edges that join an episode to its own
// decisions and events: structure, not a causal link (causal.Contains).

// rounded is an edge as the API shows it, its weight rounded.
func rounded(e note.Edge) note.Edge {
	e.Weight = round(e.Weight)
	return e
}

func (x *exporter) note(i int) Note {
	n := &x.in.Notes[i]
	out := Note{
		ID: n.Title, Title: n.Title, Type: typeOf(n), Tags: tagsOf(n), URL: x.url(i), JSONURL: x.jsonURL(i),
		Observations: x.observations(i), Relations: x.relations(i), Links: x.links(i), Backlinks: x.backlinks(i),
		Episodes: []Ref{}, Sections: sections(n), Extra: n.Extra, Source: x.source(i),
		Flags: x.flags(i), Poisoning: x.poisoning(i),
	}
	pv := x.in.Graph.Provenance
	if len(pv.Episodes) > i {
		for _, e := range pv.Episodes[i] {
			out.Episodes = append(out.Episodes, x.ref(e))
		}
	}
	for _, p := range pv.Pending {
		out.Pending = out.Pending || p == i
	}
	return out
}

func (x *exporter) graph(patterns []Pattern) Graph {
	g := Graph{Version: "1.0", Updated: formatTime(x.in.ReferenceTime), Nodes: []GraphNode{}, Edges: []GraphEdge{}, Patterns: []GraphPattern{}, Links: []GraphLink{}}
	for _, l := range x.in.Links {
		if causal.Excludes(x.flags(l.From)) || causal.Excludes(x.flags(l.To)) {
			continue // a fixture, an empty or a poisoned episode links nothing
		}
		g.Links = append(g.Links, GraphLink{Source: x.in.Notes[l.From].Title, Target: x.in.Notes[l.To].Title, Type: l.Type, Via: l.Via})
	}
	evidence := map[string][]string{}
	for _, p := range patterns {
		for _, ev := range p.Evidence {
			evidence[p.ID] = append(evidence[p.ID], ev.ID)
		}
	}
	episodeOf := map[string]string{} // node id -> the episode it belongs to
	for _, n := range x.in.Graph.Nodes {
		gn := GraphNode{ID: n.ID, Type: n.Type, Label: n.Label, URL: x.url(n.Note), Episodes: []string{}, Flags: x.flags(n.Note)}
		switch n.Type {
		case causal.TypeEpisode, causal.TypeDecision, causal.TypeEvent:
			ep := x.in.Notes[n.Note].Title
			episodeOf[n.ID] = ep
			gn.Episodes = append(gn.Episodes, ep)
			switch n.Type {
			case causal.TypeDecision:
				gn.URL += "#" + DecisionAnchor(n.Part)
			case causal.TypeEvent:
				gn.URL += "#" + n.Part
			}
		default:
			gn.Episodes = append(gn.Episodes, evidence[n.ID]...)
		}
		g.Nodes = append(g.Nodes, gn)
	}
	for _, e := range x.in.Graph.Edges {
		ge := GraphEdge{Edge: rounded(e), Episodes: []string{}}
		if ep, ok := episodeOf[e.Source]; ok {
			ge.Episodes = append(ge.Episodes, ep)
		}
		g.Edges = append(g.Edges, ge)
	}
	for _, p := range patterns {
		gp := GraphPattern{ID: p.ID, Name: p.Title, Trigger: p.Trigger, Action: p.Action, SuccessRate: p.SuccessRate, Occurrences: p.Occurrences, Episodes: []string{}, Flags: append([]string{}, p.Flags...)}
		gp.Episodes = append(gp.Episodes, evidence[p.ID]...)
		g.Patterns = append(g.Patterns, gp)
	}
	return g
}

// DecisionAnchor is the HTML id of a decision on its episode's page;
// an event's is its id (e001).
func DecisionAnchor(id string) string { return "decision-" + Slug(id) }

// antipatterns lists the antipatterns in SPEC §3's order: success_rate
// ascending (a pattern without statistics last), then occurrences
// descending, then id.
func antipatterns(patterns []Pattern) []PatternSummary {
	out := []PatternSummary{}
	for _, p := range patterns {
		if p.Antipattern {
			out = append(out, summary(p))
		}
	}
	SortAntipatterns(out)
	return out
}

// SortAntipatterns sorts patterns in SPEC §3's antipattern order.
func SortAntipatterns(ps []PatternSummary) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		switch {
		case (a.SuccessRate == nil) != (b.SuccessRate == nil):
			return b.SuccessRate == nil
		case a.SuccessRate != nil && *a.SuccessRate != *b.SuccessRate:
			return *a.SuccessRate < *b.SuccessRate
		case a.Occurrences != b.Occurrences:
			return a.Occurrences > b.Occurrences
		}
		return a.ID < b.ID
	})
}

// relatedWork is note i's related work, never nil.
func (x *exporter) relatedWork(i int) []RelatedWork {
	out := []RelatedWork{}
	if i < len(x.in.Related) {
		for _, w := range x.in.Related[i] {
			out = append(out, RelatedWork{ID: x.in.Notes[w.Note].Title, Via: w.Via, URL: x.url(w.Note)})
		}
	}
	return out
}

// flags are what graph health found wrong with note i, never nil.
func (x *exporter) flags(i int) []string {
	out := []string{}
	if i < len(x.in.Graph.Flags) {
		out = append(out, x.in.Graph.Flags[i]...)
	}
	return out
}

func (x *exporter) health() Health {
	h := x.in.Graph.Health
	out := Health{
		Version: SchemaVersion, ReferenceTime: formatTime(x.in.ReferenceTime),
		Diagnostics: DiagnosticCounts{ByRule: map[string]int{}},
		Nodes:       h.Nodes, GraphNodes: h.GraphNodes, Isolated: h.Isolated, IsolatedShare: round(h.IsolatedShare),
		EdgeTypes:          h.EdgeTypes,
		EdgesWithinEpisode: h.WithinEpisode, EdgesBetweenEpisodes: h.BetweenEpisodes, EdgesWithPatterns: h.WithPatterns,
		LeadsToConsecutive: h.LeadsToConsecutive, LeadsToConsecutiveShare: round(h.LeadsToConsecutiveShare),
		EpisodePairs: h.EpisodePairs, EpisodePairsUnflagged: h.EpisodePairsUnflagged,
		Tautologies: h.Tautologies, Placeholders: h.Placeholders, Fixtures: h.Fixtures, DefaultRates: h.DefaultRates,
		FixtureEpisodes: h.FixtureEpisodes, EmptyEpisodes: h.EmptyEpisodes, MemoryPoisoning: h.Poisoned, OutcomeContradicted: h.OutcomeContradicted,
		LeadsToFanOut: h.LeadsToFanOut, LeadsToMaxFanOut: h.LeadsToMaxFanOut, LeadsToFanIn: h.LeadsToFanIn, LeadsToMaxFanIn: h.LeadsToMaxFanIn,
		Dangling: []DanglingLink{}, Cycles: h.Cycles, Duplicates: h.Duplicates,
	}
	for _, d := range h.Dangling {
		out.Dangling = append(out.Dangling, DanglingLink{From: d.From, Target: d.Target})
	}
	for _, v := range []*[]string{&out.Tautologies, &out.Placeholders, &out.Fixtures, &out.DefaultRates, &out.FixtureEpisodes, &out.EmptyEpisodes, &out.MemoryPoisoning, &out.OutcomeContradicted} {
		if *v == nil {
			*v = []string{}
		}
	}
	for _, v := range []*[][]string{&out.Cycles, &out.Duplicates} {
		if *v == nil {
			*v = [][]string{}
		}
	}
	if out.EdgeTypes == nil {
		out.EdgeTypes = map[note.EdgeType]int{}
	}
	for _, d := range x.in.Diagnostics {
		switch d.Severity {
		case note.Error:
			out.Diagnostics.Errors++
		case note.Warning:
			out.Diagnostics.Warnings++
		default:
			out.Diagnostics.Infos++
		}
		out.Diagnostics.ByRule[d.Rule]++
	}
	return out
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
