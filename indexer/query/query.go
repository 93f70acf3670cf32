// Package query answers the command line's questions (SPEC §5) from a
// Snapshot of the last build: episodes by filter, patterns and
// antipatterns by threshold, the strongest causal path, the decisions of
// an episode and what-if (SPEC §5.1). It reads no repository and renders
// nothing; the indexer keeps the snapshot fresh.
package query

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/bootstrap"
	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/search"
)

// Snapshot is what queries need of a build: the documents of the JSON
// API less the prose.
type Snapshot struct {
	ReferenceTime time.Time
	Commit        string
	Episodes      []Episode               // sorted by date descending, then id
	Patterns      []export.PatternSummary // sorted by id
	// Antipatterns are the build's antipatterns, with the repository's
	// thresholds, in SPEC §3's order: antipatterns.json.
	Antipatterns []export.PatternSummary
	Graph        Graph
	// Bootstrap holds the bootstrap's items before any budget.
	Bootstrap bootstrap.Candidates
	// Index is the search index, open read-only, when it was asked for:
	// Close closes it.
	Index *search.Index
	// Similar is the similarity model of the episodes.
	Similar *search.Similarity
	// Events are the execution events within retention that have a
	// context, oldest first.
	Events []Event
	// Pending are the thread and session notes no episode derives from
	// yet (pending.json), by id.
	Pending []export.PendingItem
	// base is what site paths are made absolute under (Rebase).
	base string
}

// Close releases the search index.
func (s *Snapshot) Close() error {
	if s.Index == nil {
		return nil
	}
	err := s.Index.Close()
	s.Index = nil
	return err
}

// Episode is an episode summary with its decisions.
type Episode struct {
	export.EpisodeSummary
	Decisions []export.Decision `json:"decisions"`
}

// Graph is the causal graph: node ids and types, and the edges.
type Graph struct {
	Nodes []Node      `json:"nodes"` // sorted by id
	Edges []note.Edge `json:"edges"`
	// src and dst are the node indexes of each edge, when known.
	src, dst []int32
	paths    *causal.Paths // built on first use
}

// IndexedGraph is a graph whose edges also name their nodes by index into
// nodes (sorted by id), as the query cache stores them: the path search
// then never hashes an id.
func IndexedGraph(nodes []Node, edges []note.Edge, src, dst []int32) Graph {
	return Graph{Nodes: nodes, Edges: edges, src: src, dst: dst}
}

// Node is a graph node.
type Node struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// FromSite takes a snapshot of a build's documents and the bootstrap's
// candidates made from them. Text flagged for memory poisoning is
// withheld (withhold.go).
func FromSite(s *export.Site, boot bootstrap.Candidates) *Snapshot {
	snap := &Snapshot{ReferenceTime: s.ReferenceTime, Commit: s.Manifest.Commit}
	for _, e := range s.Episodes {
		if titlePoisoned(e.Poisoning) {
			continue
		}
		ep := Episode{EpisodeSummary: e.Summary(), Decisions: e.Decisions}
		withholdEpisode(&ep, e.Poisoning)
		snap.Episodes = append(snap.Episodes, ep)
	}
	for _, p := range s.Patterns {
		if titlePoisoned(p.Poisoning) {
			continue
		}
		p.Relations, p.Links, p.Backlinks, p.Sections, p.Source, p.LastValidated = nil, nil, nil, nil, nil, ""
		withholdPattern(&p)
		snap.Patterns = append(snap.Patterns, export.Scored(p))
	}
	if s.Antipatterns != nil {
		snap.Antipatterns = []export.PatternSummary{}
	}
	for _, p := range s.Antipatterns {
		if !titlePoisoned(p.Poisoning) {
			withholdPattern(&p.Pattern)
			snap.Antipatterns = append(snap.Antipatterns, p)
		}
	}
	snap.Bootstrap = boot
	for _, n := range s.Graph.Nodes {
		snap.Graph.Nodes = append(snap.Graph.Nodes, Node{ID: n.ID, Type: n.Type})
	}
	for _, e := range s.Graph.Edges {
		snap.Graph.Edges = append(snap.Graph.Edges, e.Edge)
	}
	snap.Events = eventsFromSite(s)
	snap.Pending = s.Pending
	return snap
}

// NotFoundError is a query naming something the snapshot does not have.
type NotFoundError struct {
	What, Name string
	// Suggestions are close names, at most five.
	Suggestions []string
	// Why says what the name is when it is something, just not a node.
	Why string
}

func (e *NotFoundError) Error() string {
	msg := fmt.Sprintf("no %s named %q", e.What, e.Name)
	if e.Why != "" {
		msg += ": " + e.Why
	}
	if len(e.Suggestions) > 0 {
		msg += "; did you mean " + strings.Join(quoteAll(e.Suggestions), ", ") + "?"
	}
	return msg
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}

// suggest returns up to five of names that contain name, or that name
// contains, ignoring case.
func suggest(name string, names []string) []string {
	k := causal.Key(name)
	var out []string
	for _, n := range names {
		nk := causal.Key(n)
		if k != "" && (strings.Contains(nk, k) || strings.Contains(k, nk)) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	if len(out) > 5 {
		out = out[:5]
	}
	return out
}

func (s *Snapshot) refTime() string { return s.ReferenceTime.UTC().Format(export.TimeFormat) }

// List wraps items in the shape of every list file (SPEC §4.0).
func List[T any](s *Snapshot, items []T) export.List[T] {
	if items == nil {
		items = []T{}
	}
	return export.List[T]{Version: export.SchemaVersion, ReferenceTime: s.refTime(), Items: items}
}

// FitBootstrap fits the build's bootstrap (SPEC §4.0) to a budget in
// tokens: bootstrap.json and bootstrap.md as a build of that budget
// writes them.
func (s *Snapshot) FitBootstrap(budget int) (js, md []byte, err error) {
	_, js, md, err = bootstrap.Fit(s.Bootstrap, budget)
	return js, md, err
}
