package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/write"
)

type patternNote struct {
	write.PatternInput
	writeArgs
}

func (e *mcpEngine) addAddPattern(s *mcp.Server) {
	t := writeTool("add_pattern", "Add a pattern",
		"Write a new pattern note, patterns/<title>.md: title, trigger and action are required; success_rate (0 to 1), "+
			"occurrences, causal links (causes, enables, prevents, correlates) and evidence episodes are optional. "+
			"A title starting ANTIPATTERN- (or type antipattern) makes an antipattern.",
		false, false)
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a patternNote) (*mcp.CallToolResult, wrote, error) {
		w, err := e.write(ctx, a.writeArgs, func(o write.WriteOptions) (write.Written, error) {
			return write.NewPattern(ctx, o, a.PatternInput)
		})
		return nil, w, err
	})
}
