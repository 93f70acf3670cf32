// Package exporter writes a loaded memory repository in the ai-agents
// format: every episode note as an episode file, and engram's causal
// graph, with its pattern statistics, as causality/causal-graph.json.
//
// It sits after the graph stage (it takes the causal package's types as
// they are), so it is kept apart from the aiagents package, which the
// parse stage uses to read episode files.
package exporter

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/note"
)

// Input is a loaded repository.
type Input struct {
	Notes []note.Note
	// Created holds each note's creation time (its first commit, or its
	// date): the timestamp of an episode without one, the created of a
	// pattern row.
	Created []time.Time
	// Graph is the causal graph built from Notes.
	Graph causal.Result
	// Updated is the graph's updated time: the build's reference time.
	Updated time.Time
}

// Export writes every episode note as an episode file
// (episodes/episode-<name>.json) and the graph as
// causality/causal-graph.json, in the order of in.Notes.
func Export(in Input) ([]aiagents.File, []note.Diagnostic, error) {
	var files []aiagents.File
	var diags []note.Diagnostic
	names := map[string]bool{}
	ids := nodeIDs{}
	for i := range in.Notes {
		n := &in.Notes[i]
		if n.Episode == nil {
			continue
		}
		e, ds := aiagents.EpisodeOf(n, timeAt(in.Created, i))
		diags = append(diags, ds...)
		ids.add(n, e)
		data, err := encodeJSON(e)
		if err != nil {
			return nil, diags, err
		}
		files = append(files, aiagents.File{Path: "episodes/" + aiagents.UniqueName(names, aiagents.EpisodeFileName(n.Title)) + ".json", Data: data})
	}
	data, err := encodeJSON(graphOf(in, ids))
	if err != nil {
		return nil, diags, err
	}
	files = append(files, aiagents.File{Path: "causality/causal-graph.json", Data: data})
	return files, diags, nil
}

func timeAt(ts []time.Time, i int) time.Time {
	if i < len(ts) {
		return ts[i]
	}
	return time.Time{}
}

// encodeJSON indents with two spaces, as ai-agents' writers do, and keeps
// <, > and & as they are.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// nodeIDs maps the graph's node ids of episodes, decisions and events to
// the ids of the episode files: an imported note's events are e001... in
// markdown but keep their JSON ids in the export, and so do its nodes.
type nodeIDs map[string]string

func (x nodeIDs) add(n *note.Note, e aiagents.Episode) {
	x[n.Title] = e.ID
	for i, d := range n.Episode.Decisions {
		if i < len(e.Decisions) {
			x[note.PartID(n.Title, d.ID)] = note.PartID(e.ID, e.Decisions[i].ID)
		}
	}
	for i, ev := range n.Episode.Events {
		if i < len(e.Events) {
			x[note.PartID(n.Title, ev.ID)] = note.PartID(e.ID, e.Events[i].ID)
		}
	}
}

func (x nodeIDs) of(id string) string {
	if v, ok := x[id]; ok {
		return v
	}
	return id
}
