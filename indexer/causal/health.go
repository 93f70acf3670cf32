package causal

import (
	"sort"
	"strings"
	"unicode"

	"github.com/engramhq/engram/indexer/note"
)

// Health is how much of the graph is signal (SPEC §3, "Graph health"):
// the ways the peer system's graph turned out to be noise (ai-agents'
// ADR-089), measured.
type Health struct {
	// Nodes counts every node a reader could see: the graph's nodes, and
	// the events that are not in the graph because no link touches them
	// (each a line of its episode's timeline).
	Nodes int
	// GraphNodes are the nodes of the graph itself (graph.json).
	GraphNodes int
	// Isolated counts the nodes with no edge besides note.EdgeContains (an
	// episode's own parts are structure, not knowledge); IsolatedShare is
	// Isolated / Nodes, 0 for an empty graph.
	Isolated      int
	IsolatedShare float64
	// EdgeTypes counts edges by type.
	EdgeTypes map[note.EdgeType]int
	// The edges other than note.EdgeContains, by what they join: one episode's
	// parts, two different episodes (or their parts), or a pattern.
	WithinEpisode   int
	BetweenEpisodes int
	WithPatterns    int
	// LeadsToConsecutive counts the leads_to edges that join an event to
	// the next one of its timeline: timeline order, not a causal claim.
	LeadsToConsecutive      int
	LeadsToConsecutiveShare float64
	// LeadsToFanOut counts the leads_to edges that leave an event with
	// more than one, LeadsToFanIn those that enter an event with more
	// than one (a commit every earlier event "leads to"); the Max are the
	// most that leave or enter one event.
	LeadsToFanOut, LeadsToMaxFanOut int
	LeadsToFanIn, LeadsToMaxFanIn   int
	// EpisodePairs counts the pairs of different episodes that are evidence
	// for a common pattern; EpisodePairsUnflagged those that share a
	// pattern that no health rule flags.
	EpisodePairs          int
	EpisodePairsUnflagged int
	// Tautologies, Placeholders, Fixtures and DefaultRates are the
	// patterns flagged so (see the Flag constants), by id.
	Tautologies  []string
	Placeholders []string
	Fixtures     []string
	// DefaultRates are patterns whose success rate is not a measurement:
	// declared with no evidence, or contradicted by the evidence
	// episodes' own outcomes.
	DefaultRates []string
	// FixtureEpisodes and EmptyEpisodes are the episodes flagged so.
	FixtureEpisodes []string
	EmptyEpisodes   []string
	// Poisoned are the notes of every kind flagged for memory poisoning,
	// by id.
	Poisoned []string
	// OutcomeContradicted are the episodes whose last event contradicts
	// the failure or partial outcome they give.
	OutcomeContradicted []string
	Dangling            []Dangling
	Cycles              [][]string
	// Duplicates are groups of paths whose titles are the same ignoring
	// case and Unicode normalisation. The indexer refuses to publish them,
	// so a published health.json always has none; `engram check` shows
	// them.
	Duplicates [][]string
}

func (b *builder) health() {
	h := Health{GraphNodes: len(b.r.Nodes), EdgeTypes: map[note.EdgeType]int{}, Dangling: b.r.Dangling, Cycles: b.r.Cycles}
	b.patternFlags()
	b.countNodes(&h)
	b.countEdges(&h)
	b.countPairs(&h)
	for i := range b.notes {
		for _, f := range b.r.Flags[i] {
			l := h.list(f, b.notes[i].Episode != nil)
			*l = append(*l, b.notes[i].Title)
		}
	}
	for _, f := range flagOrder {
		sort.Strings(*h.list(f, false))
	}
	sort.Strings(h.FixtureEpisodes)
	h.Duplicates = duplicates(b.notes)
	b.r.Health = h
}

// list is the list of health.json that names the notes with flag f.
func (h *Health) list(f string, episode bool) *[]string {
	switch f {
	case FlagTautology:
		return &h.Tautologies
	case FlagPlaceholder:
		return &h.Placeholders
	case FlagDefaultRate:
		return &h.DefaultRates
	case FlagEmpty:
		return &h.EmptyEpisodes
	case FlagPoisoning:
		return &h.Poisoned
	case FlagOutcomeContradicted:
		return &h.OutcomeContradicted
	case FlagFixture:
		if episode {
			return &h.FixtureEpisodes
		}
	}
	return &h.Fixtures
}

// countNodes counts the nodes a reader could see, and the isolated ones.
func (b *builder) countNodes(h *Health) {
	linked := make(map[string]bool, 2*len(b.r.Edges))
	for _, e := range b.r.Edges {
		if e.Type != note.EdgeContains {
			linked[e.Source], linked[e.Target] = true, true
		}
	}
	for _, n := range b.r.Nodes {
		if !linked[n.ID] {
			h.Isolated++
		}
	}
	h.Nodes = len(b.r.Nodes)
	for i := range b.notes {
		if e := b.notes[i].Episode; e != nil {
			for _, ev := range e.Events {
				if !b.events[note.PartID(b.notes[i].Title, ev.ID)] {
					h.Nodes++
					h.Isolated++
				}
			}
		}
	}
	if h.Nodes > 0 {
		h.IsolatedShare = float64(h.Isolated) / float64(h.Nodes)
	}
}

// countEdges sorts the edges by what they join, and counts the leads_to
// edges that follow the timeline's order.
func (b *builder) countEdges(h *Health) {
	episode := make(map[string]int, len(b.r.Nodes)) // node id -> its episode's note, or -1
	for _, n := range b.r.Nodes {
		episode[n.ID] = -1
		if b.notes[n.Note].Episode != nil {
			episode[n.ID] = n.Note
		}
	}
	leadsTo := 0
	for _, e := range b.r.Edges {
		h.EdgeTypes[e.Type]++
		s, t := episode[e.Source], episode[e.Target]
		switch {
		case e.Type == note.EdgeContains:
		case s < 0 || t < 0:
			h.WithPatterns++
		case s == t:
			h.WithinEpisode++
		default:
			h.BetweenEpisodes++
		}
		if e.Type == note.EdgeLeadsTo {
			leadsTo++
			if b.consecutive(s, e.Source, e.Target) {
				h.LeadsToConsecutive++
			}
		}
	}
	if leadsTo > 0 {
		h.LeadsToConsecutiveShare = float64(h.LeadsToConsecutive) / float64(leadsTo)
	}
	h.LeadsToFanOut, h.LeadsToMaxFanOut = fan(b.r.Edges, func(e note.Edge) string { return e.Source })
	h.LeadsToFanIn, h.LeadsToMaxFanIn = fan(b.r.Edges, func(e note.Edge) string { return e.Target })
}

// fan counts the leads_to edges whose end (end: the source or the
// target) is the same event as another's, and the most that share one.
func fan(edges []note.Edge, end func(note.Edge) string) (fanned, most int) {
	out := map[string]int{}
	for _, e := range edges {
		if e.Type == note.EdgeLeadsTo {
			out[end(e)]++
		}
	}
	for _, n := range out {
		if n > 1 {
			fanned += n
		}
		most = max(most, n)
	}
	return fanned, most
}

// consecutive reports whether two events of episode i follow each other
// in its timeline.
func (b *builder) consecutive(i int, from, to string) bool {
	if i < 0 {
		return false
	}
	evs := b.notes[i].Episode.Events
	title := b.notes[i].Title
	for k := 0; k+1 < len(evs); k++ {
		if note.PartID(title, evs[k].ID) == from {
			return note.PartID(title, evs[k+1].ID) == to
		}
	}
	return false
}

// countPairs counts the pairs of episodes that are evidence for a common
// pattern: the only way the real ai-agents episodes are joined.
func (b *builder) countPairs(h *Health) {
	all, unflagged := map[[2]string]bool{}, map[[2]string]bool{}
	for i := range b.notes {
		ev := b.r.Stats[i].Evidence
		for x := range ev {
			for y := x + 1; y < len(ev); y++ {
				p := [2]string{min(ev[x].ID, ev[y].ID), max(ev[x].ID, ev[y].ID)}
				all[p] = true
				if len(b.r.Flags[i]) == 0 {
					unflagged[p] = true
				}
			}
		}
	}
	h.EpisodePairs, h.EpisodePairsUnflagged = len(all), len(unflagged)
}

// patternFlags flags the patterns that are noise (SPEC §3): tautologies,
// placeholders, fixtures and rates that are not measurements. Each is a
// warning on the pattern, but a declared-only rate and a missing trigger
// or action, which are not mistakes in the note (health.json lists them).
func (b *builder) patternFlags() {
	fixtureText := b.fixtureTexts()
	for i := range b.notes {
		n := &b.notes[i]
		if n.Pattern == nil {
			continue
		}
		trigger, action := n.TriggerAction()
		st := b.r.Stats[i]
		var fs []string
		if Tautology(trigger, action) {
			fs = append(fs, FlagTautology)
			b.r.Diags.Report(n.Path, 1, 1, note.Warning, "pattern-tautology", "the action %q only restates the trigger %q; the pattern tells an agent nothing", clip(action), clip(trigger))
		}
		if Placeholder(trigger, action) {
			// A pattern without a rule is not a mistake to report (the
			// page says "not given"); a template or a placeholder is.
			fs = append(fs, FlagPlaceholder)
			if strings.TrimSpace(trigger) != "" && strings.TrimSpace(action) != "" {
				b.r.Diags.Report(n.Path, 1, 1, note.Warning, "pattern-placeholder", "the trigger %q or the action %q is a template or a placeholder; the pattern is not offered as advice", clip(trigger), clip(action))
			}
		}
		from := fixtureText[textKey(trigger)] || fixtureText[textKey(action)]
		if st.FixtureEvidence > 0 && len(st.Evidence) == 0 || from {
			fs = append(fs, FlagFixture)
			b.r.Diags.Report(n.Path, 1, 1, note.Warning, "pattern-fixture", "the pattern comes from test fixtures (its evidence is only fixture or nearly empty episodes, or its trigger or action is their text); it is not offered as advice")
		}
		if st.DefaultRate() {
			fs = append(fs, FlagDefaultRate)
		}
		if b.poisoned(i) {
			fs = append(fs, FlagPoisoning)
		}
		b.r.Flags[i] = sortFlags(fs)
	}
}

// fixtureTexts are the texts of the flagged episodes (task, decisions,
// events), by textKey: a pattern whose trigger or action is one of them
// was learned from test data.
func (b *builder) fixtureTexts() map[string]bool {
	out := map[string]bool{}
	add := func(ss ...string) {
		for _, s := range ss {
			if k := textKey(s); k != "" {
				out[k] = true
			}
		}
	}
	for i := range b.notes {
		e := b.notes[i].Episode
		if e == nil || !noise(b.r.Flags[i]) {
			continue
		}
		add(e.Task)
		for _, d := range e.Decisions {
			add(d.Title, d.Context, d.Chosen, d.Rationale)
		}
		for _, ev := range e.Events {
			add(ev.Text)
		}
	}
	return out
}

// textKey compares texts ignoring case, spacing and end punctuation.
func textKey(s string) string {
	return strings.Join(words(s), " ")
}

// Tautology reports whether a pattern's action restates its trigger: the
// two are the same words, or the action's words appear, in order and
// together, inside the trigger ("Testing second" → "Second"), ignoring
// case and punctuation. An empty trigger or action is not a tautology (it
// is incomplete, which the site shows).
func Tautology(trigger, action string) bool {
	t, a := words(trigger), words(action)
	if len(t) == 0 || len(a) == 0 || len(a) > len(t) {
		return false
	}
	for i := 0; i+len(a) <= len(t); i++ {
		if slicesEqual(t[i:i+len(a)], a) {
			return true
		}
	}
	return false
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

func slicesEqual(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// duplicates groups the paths of notes whose titles share a Key.
func duplicates(notes []note.Note) [][]string {
	byKey := map[string][]string{}
	for _, n := range notes {
		k := Key(n.Title)
		byKey[k] = append(byKey[k], n.Path)
	}
	var out [][]string
	for _, paths := range byKey {
		if len(paths) > 1 {
			sort.Strings(paths)
			out = append(out, paths)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}
