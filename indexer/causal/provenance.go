package causal

import (
	"sort"
	"strings"

	"github.com/engramhq/engram/indexer/note"
)

// Provenance is where episodes come from and what they are about (seed
// 003): an episode names its source_thread (a thread or session note) and
// its concepts; a concept or thread note may name its episodes. Both sides
// are merged, so every link is published both ways.
type Provenance struct {
	// Concepts and Thread are, for each episode, the notes it is about and
	// the note it derives from (Missing when none); nil or Missing for
	// other notes.
	Concepts [][]int
	Thread   []int
	// Episodes is, for each other note, the episodes linked to it either
	// way, sorted by note index.
	Episodes [][]int
	// Pending lists the thread and session notes no episode derives from
	// and that are not marked completed (status: completed, as `engram
	// thread status` and mark_thread_status write it).
	Pending []int
}

// pendingTypes are the note types that episodes derive from.
var pendingTypes = map[string]bool{"thread": true, "session": true}

func (b *builder) provenance() {
	p := Provenance{Concepts: make([][]int, len(b.notes)), Thread: make([]int, len(b.notes)), Episodes: make([][]int, len(b.notes))}
	type pair struct{ episode, other int }
	declared := map[pair]int{} // 1: the episode says it, 2: the other note, 3: both
	resolve := func(from int, target, key string) (int, bool) {
		t, ok := b.ix.Resolve(target)
		if !ok {
			n := &b.notes[from]
			b.r.Diags.Report(n.Path, 1, 1, note.Warning, "provenance-target", "%s %q names no note", key, target)
			b.r.Dangling = append(b.r.Dangling, Dangling{From: n.Title, Target: target})
		}
		return t, ok
	}
	for i := range b.notes {
		p.Thread[i] = Missing
		n := &b.notes[i]
		if e := n.Episode; e != nil {
			if e.SourceThread != "" {
				if t, ok := resolve(i, e.SourceThread, "source_thread"); ok && t != i {
					p.Thread[i] = t
					declared[pair{i, t}] |= 1
				}
			}
			for _, c := range e.Concepts {
				if t, ok := resolve(i, c, "concepts"); ok && t != i {
					p.Concepts[i] = append(p.Concepts[i], t)
					declared[pair{i, t}] |= 1
				}
			}
			continue
		}
		for _, target := range extraList(n.Extra["episodes"]) {
			t, ok := resolve(i, target, "episodes")
			if !ok {
				continue
			}
			if b.notes[t].Episode == nil {
				b.r.Diags.Report(n.Path, 1, 1, note.Warning, "provenance-target", "episodes names %q, which is not an episode", target)
				continue
			}
			declared[pair{t, i}] |= 2
			if pendingTypes[n.Type] {
				if p.Thread[t] == Missing || p.Thread[t] == i {
					p.Thread[t] = i
				}
			} else if !containsInt(p.Concepts[t], i) {
				p.Concepts[t] = append(p.Concepts[t], i)
			}
		}
	}
	pairs := make([]pair, 0, len(declared))
	for k := range declared {
		pairs = append(pairs, k)
	}
	sort.Slice(pairs, func(a, c int) bool {
		return pairs[a].other < pairs[c].other || pairs[a].other == pairs[c].other && pairs[a].episode < pairs[c].episode
	})
	for _, k := range pairs {
		p.Episodes[k.other] = append(p.Episodes[k.other], k.episode)
		ep, other := &b.notes[k.episode], &b.notes[k.other]
		switch declared[k] {
		case 1:
			b.r.Diags.Report(other.Path, 1, 1, note.Info, "provenance-one-sided", "%s names %s, which does not list it under episodes; the link is published both ways", ep.Title, other.Title)
		case 2:
			b.r.Diags.Report(ep.Path, 1, 1, note.Info, "provenance-one-sided", "%s lists %s under episodes, but the episode does not name it; the link is published both ways", other.Title, ep.Title)
		}
	}
	for i := range b.notes {
		sort.Ints(p.Concepts[i])
		if pendingTypes[b.notes[i].Type] && len(p.Episodes[i]) == 0 && !completed(&b.notes[i]) {
			p.Pending = append(p.Pending, i)
		}
	}
	b.r.Provenance = p
}

// extraList reads a front matter list that engram does not interpret
// elsewhere: a YAML list, or a comma-separated string.
func extraList(v any) []string {
	var out []string
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
	case string:
		for _, s := range strings.Split(x, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// completed reports a thread or session note whose front matter status
// is completed.
func completed(n *note.Note) bool {
	s, _ := n.Extra["status"].(string)
	return strings.EqualFold(strings.TrimSpace(s), "completed")
}
