package indexer

import (
	"strings"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/note"
)

// qualified is a note's id across repositories: its title, under its
// source's namespace for a source's note (before namespaceNotes has
// put it there).
func qualified(n *note.Note) string {
	if n.Source == "" {
		return n.Title
	}
	return n.Source + ":" + n.Title
}

// namespaceNotes gives every source note its id under its namespace
// (api:EPISODE-…) and rewrites each name of a note it holds (links,
// relations, effects, evidence, causal links, concepts) to name what it
// named in its own repository: a target that resolves there (by title,
// file name or permalink, as causal resolves) becomes that note's id; a
// target under a namespace the build knows (other:EPISODE-…) is left as
// written, one under the built repository's own namespace (engram.toml's
// namespace) names its note; any other becomes ns:target, a note of its own source that is
// missing, reported as any dangling link is. A decision id of the note's
// own episode ([[d002]]) stays as written. The built repository's own
// notes are left as they are.
func namespaceNotes(fed *federation, notes []note.Note) {
	if fed == nil {
		return
	}
	known := map[string]bool{}
	for _, s := range fed.sources {
		known[s.conf.Namespace] = true
	}
	for _, s := range fed.sources {
		var idx []int
		for i := range notes {
			if notes[i].Source == s.conf.Namespace {
				idx = append(idx, i)
			}
		}
		namespaceSource(notes, idx, s.conf.Namespace, known, fed.self)
	}
}

// namespaceSource rewrites the notes idx of the source ns.
func namespaceSource(notes []note.Note, idx []int, ns string, known map[string]bool, self string) {
	own := make([]note.Note, len(idx))
	for k, i := range idx {
		own[k] = notes[i]
	}
	ix := causal.NewIndex(own)
	name := func(n *note.Note, target string) string {
		switch {
		case strings.TrimSpace(target) == "" || isOwnDecision(n, target):
			return target
		}
		if j, ok := ix.Resolve(target); ok {
			return ns + ":" + own[j].Title
		}
		pre, rest, ok := strings.Cut(target, ":")
		switch pre = strings.TrimSpace(pre); {
		case ok && self != "" && pre == self:
			return strings.TrimSpace(rest) // the built repository's own note
		case ok && known[pre]:
			return target
		}
		return ns + ":" + target
	}
	for _, i := range idx {
		renameTargets(&notes[i], name)
	}
	for _, i := range idx {
		notes[i].Title = ns + ":" + notes[i].Title
	}
}

// isOwnDecision reports a target that is a decision id of n's episode.
func isOwnDecision(n *note.Note, target string) bool {
	if n.Episode == nil {
		return false
	}
	for _, d := range n.Episode.Decisions {
		if strings.EqualFold(d.ID, strings.TrimSpace(target)) {
			return true
		}
	}
	return false
}

// renameTargets applies name to every note name n holds.
func renameTargets(n *note.Note, name func(*note.Note, string) string) {
	for k := range n.Links {
		n.Links[k].Target = name(n, n.Links[k].Target)
	}
	for k := range n.Relations {
		n.Relations[k].Target = name(n, n.Relations[k].Target)
	}
	if e := n.Episode; e != nil {
		if e.SourceThread != "" {
			e.SourceThread = name(n, e.SourceThread)
		}
		for k := range e.Concepts {
			e.Concepts[k] = name(n, e.Concepts[k])
		}
		for d := range e.Decisions {
			for k := range e.Decisions[d].Effects {
				e.Decisions[d].Effects[k].Target = name(n, e.Decisions[d].Effects[k].Target)
			}
		}
	}
	if p := n.Pattern; p != nil {
		for k := range p.Causal {
			p.Causal[k].Target = name(n, p.Causal[k].Target)
		}
		for k := range p.Evidence {
			p.Evidence[k].Target = name(n, p.Evidence[k].Target)
		}
	}
}
