package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/store"
)

type episodeArgs struct {
	ID string `json:"id" jsonschema:"episode id (title) or page slug"`
}

func (e *mcpEngine) addGetEpisode(s *mcp.Server) {
	t := readOnly("get_episode", "One episode",
		"One episode in under 500 tokens: task, outcome, tags, a line per decision; json_url has all of it.")
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a episodeArgs) (*mcp.CallToolResult, episodeCard, error) {
		c, err := e.episode(ctx, a.ID)
		return nil, c, err
	})
}

func (e *mcpEngine) episode(ctx context.Context, id string) (episodeCard, error) {
	if err := argument("id", id, true, maxIDBytes); err != nil {
		return episodeCard{}, err
	}
	snap, done, err := e.snapshot(ctx, store.PartEpisodes)
	if err != nil {
		return episodeCard{}, err
	}
	defer done()
	ep, err := snap.Episode(id)
	if err != nil {
		return episodeCard{}, err
	}
	return newEpisodeCard(ep), nil
}
