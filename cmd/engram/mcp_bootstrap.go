package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/config"
	"github.com/engramhq/engram/indexer/store"
	"github.com/engramhq/engram/indexer/tokens"
)

type bootstrapArgs struct {
	Budget int    `json:"budget,omitempty" jsonschema:"tokens (default: engram.toml, or 2000)"`
	Format string `json:"format,omitempty" jsonschema:"md (default) or json"`
}

// bootstrapAnswer is what the bootstrap tool's structured content
// holds whatever the format: with md, these and the markdown (the text
// content too); with json, bootstrap.json, which has these and its
// sections.
type bootstrapAnswer struct {
	ReferenceTime string `json:"reference_time"`
	BudgetTokens  int    `json:"budget_tokens"`
	Tokens        int    `json:"tokens"`
	Markdown      string `json:"markdown,omitempty"`
}

func (e *mcpEngine) addBootstrap(s *mcp.Server) {
	t := readOnly("bootstrap", "Session-start context",
		"Call at session start: recurring work, what to avoid, recent failures, work in flight, best patterns, lessons, what is due; fitted to a token budget.")
	// The schema of both formats' answers: bootstrap.json's sections are
	// properties it does not close off (no additionalProperties: false).
	t.OutputSchema = mustPortableSchema[bootstrapAnswer](true)
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a bootstrapArgs) (*mcp.CallToolResult, any, error) {
		js, md, err := e.bootstrap(ctx, a)
		if err != nil {
			return nil, nil, err
		}
		if a.Format == "json" {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(js)}}, StructuredContent: json.RawMessage(js)}, nil, nil
		}
		var ans bootstrapAnswer
		if err := json.Unmarshal(js, &ans); err != nil {
			return nil, nil, err
		}
		ans.Tokens, ans.Markdown = tokens.Count(string(md)), string(md)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(md)}}, StructuredContent: ans}, nil, nil
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
	snap, done, err := e.snapshot(ctx, store.PartBootstrap)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	if a.Budget == 0 {
		cfg, err := config.Read(e.q.repo)
		if err != nil {
			return nil, nil, err
		}
		a.Budget = *cfg.Bootstrap.Budget
	}
	return snap.FitBootstrap(a.Budget)
}
