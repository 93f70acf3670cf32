package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/write"
)

// episodeNote is what store_episode and upsert_episode take: the
// episode (the shape of `engram new episode --json`) and the write's
// options.
type episodeNote struct {
	write.EpisodeInput
	writeArgs
}

func (e *mcpEngine) addStoreEpisode(s *mcp.Server) {
	t := writeTool("store_episode", "Store an episode",
		"Write episodes/<title>.md; outcome is success, partial or failure. Refused if the title exists or a field holds a secret. "+
			"Staged, or committed with commit.",
		false, false)
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a episodeNote) (*mcp.CallToolResult, wrote, error) {
		w, err := e.write(ctx, a.writeArgs, func(o write.WriteOptions) (write.Written, error) {
			return write.NewEpisode(ctx, o, a.EpisodeInput)
		})
		return nil, w, err
	})
}

func (e *mcpEngine) addUpsertEpisode(s *mcp.Server) {
	t := writeTool("upsert_episode", "Store or update an episode",
		"Write an episode note, or replace the one of that title, where it is, if engram wrote it (written_by: engram); "+
			"a note written by hand is never replaced. Same fields as store_episode.",
		true, true)
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a episodeNote) (*mcp.CallToolResult, wrote, error) {
		w, err := e.write(ctx, a.writeArgs, func(o write.WriteOptions) (write.Written, error) {
			return write.UpsertEpisode(ctx, o, a.EpisodeInput)
		})
		return nil, w, err
	})
}
