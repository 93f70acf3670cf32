package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type antipatternsArgs struct {
	MaxSuccess     *float64 `json:"max_success,omitempty" jsonschema:"highest success_rate of an antipattern (default: engram.toml, or 0.3)"`
	MinOccurrences *int     `json:"min_occurrences,omitempty" jsonschema:"fewest occurrences of an antipattern (default: engram.toml, or 2)"`
	pageArgs
}

func (e *mcpEngine) addGetAntipatterns(s *mcp.Server) {
	t := readOnly("get_antipatterns", "Antipatterns",
		"What not to do: declared antipatterns and patterns that mostly fail, worst first, each under 100 tokens. Same as `engram antipatterns`.")
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a antipatternsArgs) (*mcp.CallToolResult, page[patternCard], error) {
		out, err := e.antipatterns(ctx, a)
		return nil, out, err
	})
}

// antipatterns answers as cmdAntipatterns does (antipatternThresholds).
func (e *mcpEngine) antipatterns(ctx context.Context, a antipatternsArgs) (page[patternCard], error) {
	th := antipatternThresholds{maxSuccess: a.MaxSuccess, minOcc: a.MinOccurrences}
	snap, done, err := e.snapshot(ctx, th.parts())
	if err != nil {
		return page[patternCard]{}, err
	}
	defer done()
	list, err := th.answer(snap, e.q.repo)
	if err != nil {
		return page[patternCard]{}, err
	}
	return paginate(snap, list, a.pageArgs, newPatternCard)
}
