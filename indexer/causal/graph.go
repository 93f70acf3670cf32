// Package causal is engram's graph stage: it resolves every link between
// notes, computes pattern statistics, classifies antipatterns, builds the
// causal graph of patterns, episodes, decisions and events, and measures
// the graph's health (SPEC §3). It is the only package that imports
// dominikbraun/graph. That library lists vertices and walks in map order,
// so every list that leaves this package is sorted here.
package causal

import (
	"math"
	"slices"
	"sort"
	"strings"

	dgraph "github.com/dominikbraun/graph"

	"github.com/engramhq/engram/indexer/note"
)

// Node types.
const (
	TypeEpisode     = "episode"
	TypePattern     = "pattern"
	TypeAntipattern = "antipattern"
	TypeDecision    = "decision"
	TypeEvent       = "event"
)

// Options are the thresholds of the graph stage.
type Options struct {
	// A pattern whose success_rate is at most AntipatternMaxSuccess over at
	// least AntipatternMinOccurrences is an antipattern (SPEC §3).
	AntipatternMaxSuccess     float64
	AntipatternMinOccurrences int
	// Poisoned says, for each note, that the memory-poisoning stage
	// (indexer/poison) found text in it that addresses an agent with
	// instructions: the note is flagged FlagPoisoning. nil: none is.
	Poisoned []bool
}

// DefaultOptions are SPEC §3's seed thresholds: success_rate <= 0.3 over
// at least 2 occurrences.
func DefaultOptions() Options {
	return Options{AntipatternMaxSuccess: 0.3, AntipatternMinOccurrences: 2}
}

// DefaultWeight is the weight of an edge with neither an explicit weight nor
// a source pattern with statistics.
const defaultWeight = 0.5

// Node is a vertex of the causal graph. A decision or event node has the
// id "<episode title>#<decision or event id>"; every other node's id is its
// note's title.
type Node struct {
	ID    string
	Type  string // episode, pattern, antipattern, decision or event
	Label string
	Note  int // index into the notes given to Build
	// Part is the decision or event id within the episode, "" for a note.
	Part string
}

// Dangling is a link whose target resolves to no note.
type Dangling struct {
	From   string // title of the note holding the link
	Target string
}

// Result is the output of the graph stage. Slices indexed by note follow
// the order of the notes given to Build.
type Result struct {
	Nodes []Node      // sorted by ID
	Edges []note.Edge // sorted by source, target, type
	// Stats holds pattern statistics; zero for notes that are not patterns.
	Stats []Stats
	// Links holds, for each note and each of its Links, the index of the
	// note it resolves to, Local for a decision of the same episode, or
	// Missing.
	Links [][]int
	// Backlinks holds, for each note, the notes that link to it, sorted.
	Backlinks  [][]int
	Dangling   []Dangling // sorted by From, Target, one entry per pair
	Cycles     [][]string // each sorted, and sorted by first id
	Health     Health
	Provenance Provenance
	// Flags holds, for each note, what graph health found wrong with it
	// (FlagFixture, FlagEmpty for episodes; FlagTautology, FlagPlaceholder,
	// FlagFixture, FlagDefaultRate for patterns; FlagPoisoning for any
	// note), in a fixed order.
	Flags [][]string
	Diags note.Diagnostics
}

// Sentinels in Result.Links.
const (
	Missing = -1
	Local   = -2
)

// Build resolves links and builds the graph. notes must be in a stable
// order (the indexer sorts them by path).
func Build(notes []note.Note, opt Options) Result {
	b := &builder{notes: notes, opt: opt, ix: NewIndex(notes), edges: map[edgeKey]*note.Edge{}}
	b.resolveLinks()
	b.provenance()
	b.episodeFlags()
	b.stats()
	b.causalEdges()
	b.evidenceEdges()
	b.decisionEdges()
	b.eventEdges()
	b.containsEdges()
	b.nodes()
	b.finish()
	b.health()
	return b.r
}

type edgeKey struct {
	source, target string
	typ            note.EdgeType
}

type builder struct {
	notes []note.Note
	opt   Options
	ix    *Index
	r     Result
	edges map[edgeKey]*note.Edge
	// events are the event nodes: those that take part in an edge.
	events map[string]bool
}

func (b *builder) resolveLinks() {
	b.r.Links = make([][]int, len(b.notes))
	back := make([]map[int]bool, len(b.notes))
	for i := range b.notes {
		n := &b.notes[i]
		b.r.Links[i] = make([]int, len(n.Links))
		for j, l := range n.Links {
			t := b.resolve(n, l.Target)
			b.r.Links[i][j] = t
			switch {
			case t == Missing:
				b.r.Dangling = append(b.r.Dangling, Dangling{From: n.Title, Target: l.Target})
				b.r.Diags.Report(n.Path, l.Line, l.Col, note.Warning, "link-dangling", "[[%s]] names no note; it is shown as a missing note", l.Target)
			case t >= 0 && t != i:
				if back[t] == nil {
					back[t] = map[int]bool{}
				}
				back[t][i] = true
			}
		}
	}
	b.r.Backlinks = make([][]int, len(b.notes))
	for t, from := range back {
		for i := range from {
			b.r.Backlinks[t] = append(b.r.Backlinks[t], i)
		}
		sort.Ints(b.r.Backlinks[t])
	}
}

// resolve finds a link target: a decision of the same episode first (for
// Effects such as [[d002]]), then any note.
func (b *builder) resolve(n *note.Note, target string) int {
	if n.Episode != nil {
		for _, d := range n.Episode.Decisions {
			if strings.EqualFold(d.ID, target) {
				return Local
			}
		}
	}
	if i, ok := b.ix.Resolve(target); ok {
		return i
	}
	return Missing
}

func (b *builder) stats() {
	b.r.Stats = make([]Stats, len(b.notes))
	for i := range b.notes {
		n := &b.notes[i]
		if n.Pattern == nil {
			continue
		}
		var refs []EvidenceRef
		seen := map[string]bool{}
		fixtures := 0
		for _, ev := range n.Pattern.Evidence {
			ref, ok, fixture := b.evidence(n, ev)
			if fixture {
				fixtures++
			}
			if ok && seen[ref.ID] {
				b.r.Diags.Report(n.Path, ev.Line, ev.Col, note.Warning, "evidence-duplicate", "%s is already evidence for this pattern; counted once", ref.ID)
				continue
			}
			if ok {
				seen[ref.ID] = true
				refs = append(refs, ref)
			}
		}
		s := patternStats(n.Pattern, refs)
		s.FixtureEvidence = fixtures
		b.contradicted(n, &s)
		b.declaredAgainstEvidence(n, &s)
		// A rate that is not a measurement (a bare default, or contradicted
		// by the episodes) does not classify a pattern (SPEC §3).
		s.Antipattern = n.IsAntipattern() || classifies(n, s) &&
			s.SuccessRate <= b.opt.AntipatternMaxSuccess+rateTolerance && s.Occurrences >= b.opt.AntipatternMinOccurrences
		b.r.Stats[i] = s
	}
}

// classifies reports whether a pattern's rate classifies it: a
// measurement (Stats.Measured), and, for a declared one, not a claim
// about a template row ("T2" → "A2", 0.2 over 2: ai-agents' test rows)
// or an action that restates its trigger, which state no rule anything
// was counted over. A pattern that gives no rule at all is named by its
// title, and its claim stands.
func classifies(n *note.Note, s Stats) bool {
	if !s.Measured() {
		return false
	}
	if s.Source != "declared" {
		return true
	}
	trigger, action := n.TriggerAction()
	given := strings.TrimSpace(trigger) != "" || strings.TrimSpace(action) != ""
	return !(given && Placeholder(trigger, action)) && !Tautology(trigger, action)
}

// declaredAgainstEvidence compares a declared success_rate with the
// evidence that replaces it: outside the evidence's 95% Wilson interval,
// the evidence contradicts the claim (the pattern is flagged
// default_rate, and the evidence still classifies it); inside it but
// more than 0.1 away, it has only drifted (SPEC §3's diagnostic).
func (b *builder) declaredAgainstEvidence(n *note.Note, s *Stats) {
	d := n.Pattern.DeclaredRate
	if d == nil || s.Source != "evidence" {
		return
	}
	ev := n.Pattern.Evidence[0]
	switch {
	case DeclaredContradicts(*d, s.SuccessRate, s.Occurrences):
		s.DeclaredContradicted = true
		lo, hi := WilsonInterval(s.SuccessRate, s.Occurrences)
		b.r.Diags.Report(n.Path, ev.Line, 1, note.Warning, "pattern-declared-contradicted",
			"declared success_rate %.2f is outside the 95%% Wilson interval of the evidence (%.2f over %d episodes: %.2f to %.2f); the evidence is used, and the pattern is not offered as advice until the two agree",
			*d, s.SuccessRate, s.Occurrences, lo, hi)
	case math.Abs(*d-s.SuccessRate) > maxDrift:
		b.r.Diags.Report(n.Path, ev.Line, 1, note.Warning, "pattern-rate-drift", "declared success_rate %.2f differs from the evidence (%.2f over %d episodes) by more than 0.1", *d, s.SuccessRate, s.Occurrences)
	}
}

// maxDrift is how far a declared success_rate may be from the evidence
// (SPEC §3: "a difference over 0.1"). The tolerance keeps a difference of
// exactly 0.1 in decimal, such as 0.4 − 0.3 (0.10000000000000003 in
// binary), from counting as over it.
const maxDrift = 0.1 + rateTolerance

// rateTolerance absorbs binary rounding when rates are compared with
// thresholds written in decimal: 0.3 is a rate of 0.3.
const rateTolerance = 1e-9

// evidence checks one evidence line: it counts when it names an episode
// that is neither a fixture nor nearly empty, and has a valid outcome.
func (b *builder) evidence(n *note.Note, ev note.Evidence) (ref EvidenceRef, ok, fixture bool) {
	t, ok := b.ix.Resolve(ev.Target)
	if !ok || ev.Outcome == "" {
		return EvidenceRef{}, false, false // reported as a dangling link or a bad outcome
	}
	target := &b.notes[t]
	if target.Episode == nil {
		b.r.Diags.Report(n.Path, ev.Line, ev.Col, note.Warning, "evidence-target", "evidence [[%s]] is not an episode; it is not counted", ev.Target)
		return EvidenceRef{}, false, false
	}
	if fs := b.r.Flags[t]; Excludes(fs) {
		b.r.Diags.Report(n.Path, ev.Line, ev.Col, note.Warning, "evidence-fixture", "evidence [[%s]] is %s; a flagged episode is not evidence, so it is not counted", ev.Target, flagWords(fs))
		return EvidenceRef{}, false, true
	}
	if target.Episode.Outcome != "" && target.Episode.Outcome != ev.Outcome {
		b.r.Diags.Report(n.Path, ev.Line, ev.Col, note.Warning, "evidence-outcome-mismatch", "evidence says %s was a %s, but the episode says %s; the evidence line is counted as written", target.Title, ev.Outcome, target.Episode.Outcome)
	}
	return EvidenceRef{ID: target.Title, Outcome: ev.Outcome, Own: target.Episode.Outcome}, true, false
}

// nodes lists every episode and pattern, every decision, and the events
// that take part in an edge. An event without causal links is a line of
// its episode's timeline, not a claim about causes: making it a node would
// only add isolated nodes, which is what sank the peer system's graph.
func (b *builder) nodes() {
	for i := range b.notes {
		n := &b.notes[i]
		switch {
		case n.Episode != nil:
			b.r.Nodes = append(b.r.Nodes, Node{ID: n.Title, Type: TypeEpisode, Label: firstNonEmpty(n.Episode.Task, n.Title), Note: i})
			for _, d := range n.Episode.Decisions {
				b.r.Nodes = append(b.r.Nodes, Node{ID: note.PartID(n.Title, d.ID), Type: TypeDecision, Label: firstNonEmpty(d.Title, d.Chosen, d.ID), Note: i, Part: d.ID})
			}
			for _, ev := range n.Episode.Events {
				if id := note.PartID(n.Title, ev.ID); b.events[id] {
					b.r.Nodes = append(b.r.Nodes, Node{ID: id, Type: TypeEvent, Label: firstNonEmpty(ev.Text, ev.ID), Note: i, Part: ev.ID})
				}
			}
		case n.Pattern != nil:
			typ := TypePattern
			if b.r.Stats[i].Antipattern {
				typ = TypeAntipattern
			}
			b.r.Nodes = append(b.r.Nodes, Node{ID: n.Title, Type: typ, Label: n.Title, Note: i})
		}
	}
	sort.Slice(b.r.Nodes, func(i, j int) bool { return b.r.Nodes[i].ID < b.r.Nodes[j].ID })
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func (b *builder) causalEdges() {
	for i := range b.notes {
		n := &b.notes[i]
		if n.Pattern == nil {
			continue
		}
		rel, hasRel := reliability(b.r.Stats[i])
		for _, c := range n.Pattern.Causal {
			t, ok := b.ix.Resolve(c.Target)
			if !ok {
				continue // reported as a dangling link
			}
			if b.notes[t].Episode == nil && b.notes[t].Pattern == nil {
				b.r.Diags.Report(n.Path, c.Line, c.Col, note.Warning, "causal-target", "%s [[%s]] names a note that is neither a pattern nor an episode; it is not a graph edge", c.Type, c.Target)
				continue
			}
			if t == i {
				b.r.Diags.Report(n.Path, c.Line, c.Col, note.Warning, "causal-self-loop", "%s [[%s]] names this pattern itself; a pattern cannot be its own cause, so it is not a graph edge", c.Type, c.Target)
				continue
			}
			w := defaultWeight
			switch {
			case c.Weight != nil:
				w = *c.Weight
			case hasRel:
				w = rel
			}
			b.addEdge(n.Title, b.notes[t].Title, c.Type, w)
		}
	}
}

func (b *builder) evidenceEdges() {
	for i := range b.notes {
		for _, ref := range b.r.Stats[i].Evidence {
			b.addEdge(ref.ID, b.notes[i].Title, note.EdgeEvidenceFor, defaultWeight)
		}
	}
}

// decisionEdges adds an edge from each decision to each of its Effects:
// another decision of the same episode ([[d002]]), a decision of another
// episode ([[EPISODE-x#d002]]), or an episode or pattern.
func (b *builder) decisionEdges() {
	for i := range b.notes {
		n := &b.notes[i]
		if n.Episode == nil {
			continue
		}
		for _, d := range n.Episode.Decisions {
			from := note.PartID(n.Title, d.ID)
			for _, l := range d.Effects {
				to, ok := b.effectTarget(n, l)
				switch {
				case !ok:
					continue
				case to == from:
					b.r.Diags.Report(n.Path, l.Line, l.Col, note.Warning, "causal-self-loop", "decision %s lists itself as its effect; not a graph edge", d.ID)
				default:
					b.addEdge(from, to, note.EdgeCauses, defaultWeight)
				}
			}
		}
	}
}

// effectTarget resolves one Effects link to a node id.
func (b *builder) effectTarget(n *note.Note, l note.Link) (string, bool) {
	if hasDecision(n.Episode, l.Target) {
		return note.PartID(n.Title, decisionID(n.Episode, l.Target)), true
	}
	t, ok := b.ix.Resolve(l.Target)
	if !ok {
		return "", false // reported as a dangling link
	}
	target := &b.notes[t]
	switch {
	case l.Heading != "" && target.Episode != nil && hasDecision(target.Episode, l.Heading):
		return note.PartID(target.Title, decisionID(target.Episode, l.Heading)), true
	case target.Episode != nil || target.Pattern != nil:
		return target.Title, true
	}
	b.r.Diags.Report(n.Path, l.Line, l.Col, note.Warning, "causal-target", "effect [[%s]] names a note that is neither a pattern nor an episode; it is not a graph edge", l.Target)
	return "", false
}

func hasDecision(e *note.Episode, id string) bool { return decisionID(e, id) != "" }

// decisionID returns the decision id as the episode writes it, matching id
// case-insensitively, or "".
func decisionID(e *note.Episode, id string) string {
	for _, d := range e.Decisions {
		if strings.EqualFold(d.ID, id) {
			return d.ID
		}
	}
	return ""
}

// eventEdges adds one leads_to edge per pair of events that caused_by or
// leads_to relate, whichever side declares it (or both).
func (b *builder) eventEdges() {
	b.events = map[string]bool{}
	for i := range b.notes {
		n := &b.notes[i]
		if n.Episode == nil {
			continue
		}
		ids := map[string]string{}
		for _, ev := range n.Episode.Events {
			ids[strings.ToLower(ev.ID)] = ev.ID
		}
		seen := map[[2]string]bool{}
		add := func(ev note.Event, from, to string) {
			f, okf := ids[strings.ToLower(from)]
			t, okt := ids[strings.ToLower(to)]
			switch {
			case !okf || !okt:
				missing := from
				if okf {
					missing = to
				}
				b.r.Diags.Report(n.Path, ev.Line, 1, note.Warning, "event-ref", "event %s names event %q, which this episode does not have; not a graph edge", ev.ID, missing)
			case f == t:
				b.r.Diags.Report(n.Path, ev.Line, 1, note.Warning, "causal-self-loop", "event %s names itself as cause or effect; not a graph edge", ev.ID)
			case !seen[[2]string{f, t}]:
				seen[[2]string{f, t}] = true
				src, dst := note.PartID(n.Title, f), note.PartID(n.Title, t)
				b.events[src], b.events[dst] = true, true
				b.addEdge(src, dst, note.EdgeLeadsTo, defaultWeight)
			}
		}
		for _, ev := range n.Episode.Events {
			for _, c := range ev.CausedBy {
				add(ev, c, ev.ID)
			}
			for _, l := range ev.LeadsTo {
				add(ev, ev.ID, l)
			}
		}
	}
}

// containsEdges joins each episode to its decisions and to its events
// that take part in an edge.
func (b *builder) containsEdges() {
	for i := range b.notes {
		n := &b.notes[i]
		if n.Episode == nil {
			continue
		}
		for _, d := range n.Episode.Decisions {
			b.addEdge(n.Title, note.PartID(n.Title, d.ID), note.EdgeContains, 1)
		}
		for _, ev := range n.Episode.Events {
			if id := note.PartID(n.Title, ev.ID); b.events[id] {
				b.addEdge(n.Title, id, note.EdgeContains, 1)
			}
		}
	}
}

func (b *builder) addEdge(source, target string, typ note.EdgeType, w float64) {
	k := edgeKey{source, target, typ}
	if e, ok := b.edges[k]; ok {
		e.EvidenceCount++
		e.Weight = math.Max(e.Weight, w)
		return
	}
	b.edges[k] = &note.Edge{Source: source, Target: target, Type: typ, Weight: w, EvidenceCount: 1}
}

// finish sorts the edges and finds cycles with the graph library, once,
// after all edges are added.
func (b *builder) finish() {
	for _, e := range b.edges {
		b.r.Edges = append(b.r.Edges, *e)
	}
	sort.Slice(b.r.Edges, func(i, j int) bool {
		x, y := b.r.Edges[i], b.r.Edges[j]
		if x.Source != y.Source {
			return x.Source < y.Source
		}
		if x.Target != y.Target {
			return x.Target < y.Target
		}
		return x.Type < y.Type
	})
	sort.Slice(b.r.Dangling, func(i, j int) bool {
		x, y := b.r.Dangling[i], b.r.Dangling[j]
		return x.From < y.From || x.From == y.From && x.Target < y.Target
	})
	b.r.Dangling = slices.Compact(b.r.Dangling)
	b.r.Cycles = b.cycles()
	for _, c := range b.r.Cycles {
		first := b.nodeNote(c[0])
		b.r.Diags.Report(first.Path, 1, 1, note.Info, "graph-cycle", "causal cycle: %s", strings.Join(c, " → "))
	}
}

func (b *builder) nodeNote(id string) *note.Note {
	i := sort.Search(len(b.r.Nodes), func(i int) bool { return b.r.Nodes[i].ID >= id })
	return &b.notes[b.r.Nodes[i].Note]
}

func (b *builder) cycles() [][]string {
	// Vertices are node positions plus one, never ids: the library's SCC
	// search pops its stack until it meets the vertex, starting from the
	// zero value, so a vertex equal to the zero value (an empty title
	// as a string, 0 as an int) gives an empty component.
	g := dgraph.New(dgraph.IntHash, dgraph.Directed())
	vertex := make(map[string]int, len(b.r.Nodes))
	for i, n := range b.r.Nodes {
		if _, dup := vertex[n.ID]; !dup { // the indexer refuses duplicate titles
			vertex[n.ID] = i + 1
			_ = g.AddVertex(i + 1)
		}
	}
	for _, e := range b.r.Edges {
		// Self-loops were reported and dropped; parallel edges of other
		// types are one edge here. An episode's contains edges are
		// structure: a cycle is a loop of claims.
		if e.Type != note.EdgeContains {
			_ = g.AddEdge(vertex[e.Source], vertex[e.Target])
		}
	}
	sccs, err := dgraph.StronglyConnectedComponents(g)
	if err != nil {
		return nil
	}
	var out [][]string
	for _, c := range sccs {
		if len(c) > 1 {
			ids := make([]string, len(c))
			for k, v := range c {
				ids[k] = b.r.Nodes[v-1].ID
			}
			sort.Strings(ids)
			out = append(out, ids)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
