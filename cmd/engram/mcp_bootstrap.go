package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer"
)

type bootstrapArgs struct {
	Budget int    `json:"budget,omitempty" jsonschema:"size in tokens (default: engram.toml [bootstrap] budget, or 2000)"`
	Format string `json:"format,omitempty" jsonschema:"md (default) or json"`
}

func (e *mcpEngine) addBootstrap(s *mcp.Server) {
	t := readOnly("bootstrap", "Session-start context",
		"What to know at the start of a session: what this repository's agents do again and again, what to avoid, recent failures, work in flight, the best patterns, recurring lessons and what is due, fitted to a token budget. Same as `engram bootstrap`.")
	mcp.AddTool(s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a bootstrapArgs) (*mcp.CallToolResult, any, error) {
		js, md, err := e.bootstrap(ctx, a)
		if err != nil {
			return nil, nil, err
		}
		if a.Format == "json" {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(js)}}, StructuredContent: json.RawMessage(js)}, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(md)}}}, nil, nil
	})
}

// bootstrap is bootstrap.json and bootstrap.md fitted to the budget asked
// for, else the repository's.
func (e *mcpEngine) bootstrap(ctx context.Context, a bootstrapArgs) (js, md []byte, err error) {
	if a.Format != "" && a.Format != "md" && a.Format != "json" {
		return nil, nil, fmt.Errorf("format is %.40q: give md or json", a.Format)
	}
	if a.Budget < 0 || a.Budget > 100_000 {
		return nil, nil, fmt.Errorf("budget is %d: give a number of tokens from 1 to 100000, or none for the repository's", a.Budget)
	}
	snap, done, err := e.snapshot(ctx, indexer.PartBootstrap)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	if a.Budget == 0 {
		cfg, err := indexer.ReadConfig(e.q.repo)
		if err != nil {
			return nil, nil, err
		}
		a.Budget = *cfg.Bootstrap.Budget
	}
	return snap.FitBootstrap(a.Budget)
}
