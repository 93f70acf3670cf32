package query

import (
	"regexp"
	"sort"
	"strings"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/note"
)

// Path is `engram path --json` (SPEC §4.0).
type Path struct {
	From     string      `json:"from"`
	To       string      `json:"to"`
	Nodes    []string    `json:"nodes"`
	Edges    []note.Edge `json:"edges"`
	Strength float64     `json:"strength"`
}

// NoPathError says that two known nodes are not connected within the
// depth limit.
type NoPathError struct {
	From, To string
	MaxDepth int
}

func (e *NoPathError) Error() string {
	return "no causal path from " + e.From + " to " + e.To + " within " + itoa(e.MaxDepth) + " edges"
}

// Node finds a graph node by id: exactly, else ignoring case and Unicode
// normalisation. Nodes are sorted by id, so the exact match is a binary
// search and most queries never normalise thousands of ids.
func (s *Snapshot) Node(id string) (Node, error) {
	g := &s.Graph
	if n, ok := g.exact(id); ok {
		return n, nil
	}
	k := causal.Key(id)
	for _, n := range g.Nodes {
		if causal.Key(n.ID) == k {
			return n, nil
		}
	}
	names := make([]string, len(g.Nodes))
	for i, n := range g.Nodes {
		names[i] = n.ID
	}
	err := &NotFoundError{What: "note or graph node", Name: id, Suggestions: suggest(id, names)}
	if ep, part, ok := strings.Cut(id, "#"); ok && eventID.MatchString(part) {
		if n, found := g.exact(ep); found && n.Type == causal.TypeEpisode {
			err.Why = "an event of " + ep + " is a node only when a caused_by or leads_to link touches it; without one it is a line of the timeline, not a claim about causes"
			err.Suggestions = nil
		}
	}
	return Node{}, err
}

// exact finds the node whose id is id, by binary search.
func (g *Graph) exact(id string) (Node, bool) {
	i, ok := sort.Find(len(g.Nodes), func(i int) int { return strings.Compare(id, g.Nodes[i].ID) })
	if !ok {
		return Node{}, false
	}
	return g.Nodes[i], true
}

// eventID is an event's id within its episode (e001).
var eventID = regexp.MustCompile(`^[eE]\d+$`)

// StrongestPath is the causal path from → to with the greatest product of
// edge weights, at most maxDepth edges (SPEC §3).
func (s *Snapshot) StrongestPath(from, to string, maxDepth int) (Path, error) {
	a, err := s.Node(from)
	if err != nil {
		return Path{}, err
	}
	b, err := s.Node(to)
	if err != nil {
		return Path{}, err
	}
	g := &s.Graph
	if g.paths == nil {
		if g.src != nil {
			ids := make([]string, len(g.Nodes))
			for i, n := range g.Nodes {
				ids[i] = n.ID
			}
			g.paths = causal.NewPathsIndexed(ids, g.src, g.dst, g.Edges)
		} else {
			g.paths = causal.NewPaths(g.Edges)
		}
	}
	p, ok := g.paths.Strongest(a.ID, b.ID, maxDepth)
	if !ok {
		return Path{}, &NoPathError{From: a.ID, To: b.ID, MaxDepth: maxDepth}
	}
	return Path{From: a.ID, To: b.ID, Nodes: p.Nodes, Edges: append([]note.Edge{}, p.Edges...), Strength: round(p.Strength)}, nil
}
