package main

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/store"
)

type episodesArgs struct {
	Outcome string `json:"outcome,omitempty" jsonschema:"success, partial or failure"`
	Since   string `json:"since,omitempty" jsonschema:"7d, 36h, 2w or a date"`
	Tag     string `json:"tag,omitempty"`
	Task    string `json:"task,omitempty" jsonschema:"every word of it, any order"`
	pageArgs
}

// query_episodes (brain's name) and find_episodes (the episode
// server's) are one tool under the two names agents were taught.
func (e *mcpEngine) addQueryEpisodes(s *mcp.Server) {
	for _, name := range []string{"query_episodes", "find_episodes"} {
		t := readOnly(name, "Find episodes",
			"Episodes by outcome, date, tag or task, newest first.")
		addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a episodesArgs) (*mcp.CallToolResult, page[episodeItem], error) {
			out, err := e.episodes(ctx, a)
			return nil, out, err
		})
	}
}

func (e *mcpEngine) episodes(ctx context.Context, a episodesArgs) (page[episodeItem], error) {
	for _, arg := range []struct{ name, v string }{{"outcome", a.Outcome}, {"since", a.Since}, {"tag", a.Tag}, {"task", a.Task}} {
		if err := argument(arg.name, arg.v, false, maxIDBytes); err != nil {
			return page[episodeItem]{}, err
		}
	}
	if a.Outcome != "" && !note.Outcome(a.Outcome).Valid() {
		return page[episodeItem]{}, fmt.Errorf("outcome is %q: give %s", a.Outcome, note.OutcomeList)
	}
	snap, done, err := e.snapshot(ctx, store.PartEpisodes)
	if err != nil {
		return page[episodeItem]{}, err
	}
	defer done()
	f := query.EpisodeFilter{Outcome: a.Outcome, Tag: a.Tag, Task: a.Task}
	if a.Since != "" {
		if f.Since, err = query.ParseSince(a.Since, snap.ReferenceTime); err != nil {
			return page[episodeItem]{}, fmt.Errorf("since: %v", err)
		}
	}
	return paginate(snap, snap.FindEpisodes(f), a.pageArgs, newEpisodeItem)
}
