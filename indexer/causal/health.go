package causal

import (
	"sort"
	"strings"
	"unicode"

	"github.com/engramhq/engram/indexer/note"
)

// Health is how much of the graph is signal (SPEC §3, "Graph health"): the
// four ways the peer system's graph turned out to be noise, measured.
type Health struct {
	Nodes    int
	Isolated int // nodes with no edge in or out
	// IsolatedShare is Isolated / Nodes, 0 for an empty graph.
	IsolatedShare float64
	// EdgeTypes counts edges by type.
	EdgeTypes map[string]int
	// Tautologies are patterns whose action restates their trigger.
	Tautologies []string
	// DefaultRates are patterns whose success rate is declared but not
	// measured: no evidence episode backs it.
	DefaultRates []string
	Dangling     []Dangling
	Cycles       [][]string
	// Duplicates are groups of paths whose titles are the same ignoring
	// case and Unicode normalisation. The indexer refuses to publish them,
	// so a published health.json always has none; `engram check` shows
	// them.
	Duplicates [][]string
}

func (b *builder) health() {
	h := Health{Nodes: len(b.r.Nodes), EdgeTypes: map[string]int{}, Dangling: b.r.Dangling, Cycles: b.r.Cycles}
	linked := make(map[string]bool, 2*len(b.r.Edges))
	for _, e := range b.r.Edges {
		linked[e.Source], linked[e.Target] = true, true
		h.EdgeTypes[e.Type]++
	}
	for _, n := range b.r.Nodes {
		if !linked[n.ID] {
			h.Isolated++
		}
	}
	if h.Nodes > 0 {
		h.IsolatedShare = float64(h.Isolated) / float64(h.Nodes)
	}
	for i := range b.notes {
		n := &b.notes[i]
		if n.Pattern == nil {
			continue
		}
		if trigger, action := n.TriggerAction(); Tautology(trigger, action) {
			h.Tautologies = append(h.Tautologies, n.Title)
			b.report(n.Path, 1, 1, note.Warning, "pattern-tautology", "the action %q only restates the trigger %q; the pattern tells an agent nothing", clip(action), clip(trigger))
		}
		// A declared-only rate is not a mistake in the note, so it is not
		// a diagnostic; health.json and the home page list it.
		if b.r.Stats[i].Source == "declared" {
			h.DefaultRates = append(h.DefaultRates, n.Title)
		}
	}
	sort.Strings(h.Tautologies)
	sort.Strings(h.DefaultRates)
	h.Duplicates = duplicates(b.notes)
	b.r.Health = h
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
