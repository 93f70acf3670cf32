package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/write"
)

type linkArgs struct {
	Episode string `json:"episode" jsonschema:"the episode's id (its title)"`
	Concept string `json:"concept" jsonschema:"the concept note's id (its title)"`
	writeArgs
}

func (e *mcpEngine) addLinkEpisodeToConcept(s *mcp.Server) {
	t := writeTool("link_episode_to_concept", "Link an episode to a concept",
		"Add the concept to the episode's concepts and the episode to the concept's episodes; nothing is written when both links exist.",
		false, true)
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a linkArgs) (*mcp.CallToolResult, wrote, error) {
		if err := argument("episode", a.Episode, true, maxIDBytes); err != nil {
			return nil, wrote{}, err
		}
		if err := argument("id", a.Concept, true, maxIDBytes); err != nil {
			return nil, wrote{}, err
		}
		w, err := e.write(ctx, a.writeArgs, func(o write.WriteOptions) (write.Written, error) {
			return write.LinkEpisodeToConcept(ctx, o, a.Episode, a.Concept)
		})
		return nil, w, err
	})
}
