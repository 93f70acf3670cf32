package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
)

type antipatternsArgs struct {
	MaxSuccess     *float64 `json:"max_success,omitempty" jsonschema:"highest success_rate of an antipattern (default: engram.toml, or 0.3)"`
	MinOccurrences *int     `json:"min_occurrences,omitempty" jsonschema:"fewest occurrences of an antipattern (default: engram.toml, or 2)"`
	pageArgs
}

func (e *mcpEngine) addGetAntipatterns(s *mcp.Server) {
	t := readOnly("get_antipatterns", "Antipatterns",
		"What not to do: declared antipatterns and patterns that mostly fail, worst first, each under 100 tokens. Same as `engram antipatterns`.")
	mcp.AddTool(s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a antipatternsArgs) (*mcp.CallToolResult, page[patternCard], error) {
		out, err := e.antipatterns(ctx, a)
		return nil, out, err
	})
}

// antipatterns answers as cmdAntipatterns: the build's own list without
// thresholds, else the patterns classified again.
func (e *mcpEngine) antipatterns(ctx context.Context, a antipatternsArgs) (page[patternCard], error) {
	if a.MaxSuccess == nil && a.MinOccurrences == nil {
		snap, done, err := e.snapshot(ctx, indexer.PartAntipatterns)
		if err != nil {
			return page[patternCard]{}, err
		}
		defer done()
		return paginate(snap, snap.Antipatterns, a.pageArgs, newPatternCard)
	}
	snap, done, err := e.snapshot(ctx, indexer.PartPatterns)
	if err != nil {
		return page[patternCard]{}, err
	}
	defer done()
	cfg, err := indexer.ReadConfig(e.q.repo)
	if err != nil {
		return page[patternCard]{}, err
	}
	maxSuccess, minOcc := *cfg.Antipatterns.MaxSuccess, *cfg.Antipatterns.MinOccurrences
	if a.MaxSuccess != nil {
		maxSuccess = *a.MaxSuccess
	}
	if a.MinOccurrences != nil {
		minOcc = *a.MinOccurrences
	}
	var all []export.Pattern = snap.FindAntipatterns(maxSuccess, minOcc)
	return paginate(snap, all, a.pageArgs, newPatternCard)
}
