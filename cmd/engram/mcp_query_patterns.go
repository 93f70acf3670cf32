package main

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/store"
)

type patternsArgs struct {
	MinSuccess     *float64 `json:"min_success,omitempty" jsonschema:"lowest success_rate, 0 to 1 (default 0.7)"`
	MinOccurrences *int     `json:"min_occurrences,omitempty" jsonschema:"fewest occurrences (default 3)"`
	Trigger        string   `json:"trigger,omitempty" jsonschema:"only patterns whose trigger has every word of this text"`
	pageArgs
}

func (e *mcpEngine) addQueryPatterns(s *mcp.Server) {
	t := readOnly("query_patterns", "Find patterns",
		"Patterns that work (not antipatterns), best first by confidence, each under 100 tokens with the URL of its JSON. Same as `engram patterns`, plus a filter on the trigger.")
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a patternsArgs) (*mcp.CallToolResult, page[patternCard], error) {
		out, err := e.patterns(ctx, a)
		return nil, out, err
	})
}

func (e *mcpEngine) patterns(ctx context.Context, a patternsArgs) (page[patternCard], error) {
	minSuccess, minOcc := 0.7, 3
	if a.MinSuccess != nil {
		minSuccess = *a.MinSuccess
	}
	if a.MinOccurrences != nil {
		minOcc = *a.MinOccurrences
	}
	if minSuccess < 0 || minSuccess > 1 {
		return page[patternCard]{}, fmt.Errorf("min_success is %g: give a rate from 0 to 1", minSuccess)
	}
	if err := argument("trigger", a.Trigger, false, maxIDBytes); err != nil {
		return page[patternCard]{}, err
	}
	snap, done, err := e.snapshot(ctx, store.PartPatterns)
	if err != nil {
		return page[patternCard]{}, err
	}
	defer done()
	best := query.WithTrigger(snap.BestPatterns(minSuccess, minOcc), a.Trigger)
	return paginate(snap, best, a.pageArgs, newPatternCard)
}
