package exporter

import (
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/note"
)

// graphOf builds causal-graph.json. A node lists the episode it belongs
// to (an episode, decision or event) or its evidence episodes (a
// pattern); an edge lists the episode its source belongs to.
func graphOf(in Input, ids nodeIDs) aiagents.Graph {
	g := aiagents.Graph{Version: "1.0", Updated: formatTime(in.Updated),
		Nodes: []aiagents.GraphNode{}, Edges: []aiagents.GraphEdge{}, Patterns: []aiagents.GraphPattern{}}
	episodeOf := map[string]string{}
	evidence := map[int][]string{}
	for i, s := range in.Graph.Stats {
		for _, ev := range s.Evidence {
			evidence[i] = append(evidence[i], ev.ID)
		}
	}
	for _, nd := range in.Graph.Nodes {
		gn := aiagents.GraphNode{ID: ids.of(nd.ID), Type: nd.Type, Label: nd.Label, Episodes: []string{}, Created: formatTime(timeAt(in.Created, nd.Note))}
		if n := &in.Notes[nd.Note]; n.Episode != nil {
			episodeOf[nd.ID] = ids.of(n.Title)
			gn.Episodes = append(gn.Episodes, ids.of(n.Title))
		} else {
			gn.Episodes = append(gn.Episodes, evidence[nd.Note]...)
		}
		g.Nodes = append(g.Nodes, gn)
	}
	for _, e := range in.Graph.Edges {
		ge := aiagents.GraphEdge{Source: ids.of(e.Source), Target: ids.of(e.Target), Type: string(e.Type), Weight: e.Weight, EvidenceCount: e.EvidenceCount, Episodes: []string{}}
		if ep, ok := episodeOf[e.Source]; ok {
			ge.Episodes = append(ge.Episodes, ep)
		}
		g.Edges = append(g.Edges, ge)
	}
	for i := range in.Notes {
		if in.Notes[i].Pattern != nil {
			var s causal.Stats
			if i < len(in.Graph.Stats) {
				s = in.Graph.Stats[i]
			}
			g.Patterns = append(g.Patterns, patternRow(&in.Notes[i], s, timeAt(in.Created, i)))
		}
	}
	return g
}

// patternRow returns a pattern note as a row of causal-graph.json: the
// statistics engram computed, the evidence episodes and their
// contributions, the "## Context" section as the description; then what
// a note that engram import wrote keeps in its ai_agents front matter
// (aiagents.ApplyPatternSidecar).
func patternRow(n *note.Note, s causal.Stats, created time.Time) aiagents.GraphPattern {
	trigger, action := n.TriggerAction()
	p := aiagents.GraphPattern{ID: n.Title, Name: n.Title, Description: strings.TrimSpace(n.SectionText("Context")),
		Trigger: trigger, Action: action, Episodes: []string{}, Contributions: map[string]float64{}, Created: formatTime(created)}
	if s.Source != "" {
		rate, occ := s.SuccessRate, s.Occurrences
		p.SuccessRate, p.Occurrences = &rate, &occ
	}
	for _, ev := range s.Evidence {
		p.Episodes = append(p.Episodes, ev.ID)
		p.Contributions[ev.ID], _ = ev.Outcome.Value()
	}
	if !n.Pattern.LastValidated.IsZero() {
		p.LastUsed = formatTime(n.Pattern.LastValidated)
	}
	aiagents.ApplyPatternSidecar(n, &p)
	return p
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}
