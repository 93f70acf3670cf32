package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/store"
)

type patternArgs struct {
	ID string `json:"id" jsonschema:"pattern id (title)"`
}

// get_pattern is get_episode for a pattern: the id the bootstrap and
// search name, answered with the card engram://pattern/{id} gives.
func (e *mcpEngine) addGetPattern(s *mcp.Server) {
	t := readOnly("get_pattern", "One pattern",
		"One pattern or antipattern: trigger, action, success rate, occurrences.")
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a patternArgs) (*mcp.CallToolResult, patternCard, error) {
		c, err := e.pattern(ctx, a.ID)
		return nil, c, err
	})
}

// pattern is one pattern's card.
func (e *mcpEngine) pattern(ctx context.Context, id string) (patternCard, error) {
	if err := argument("id", id, true, maxIDBytes); err != nil {
		return patternCard{}, err
	}
	snap, done, err := e.snapshot(ctx, store.PartPatterns)
	if err != nil {
		return patternCard{}, err
	}
	defer done()
	p, err := snap.Pattern(id)
	if err != nil {
		return patternCard{}, err
	}
	return newPatternCard(*p), nil
}
