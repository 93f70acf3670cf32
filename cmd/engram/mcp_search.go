package main

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/store"
)

type searchArgs struct {
	Query string `json:"query" jsonschema:"a few words"`
	Type  string `json:"type,omitempty" jsonschema:"episode, pattern or note (default: all)"`
	pageArgs
}

// searchDepth is how many hits a search ranks at most: pages go this far.
const searchDepth = 200

func (e *mcpEngine) addSearch(s *mcp.Server) {
	t := readOnly("search", "Search the memory",
		"Notes of every kind ranked for a text query, best first.")
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a searchArgs) (*mcp.CallToolResult, page[query.SearchItem], error) {
		out, err := e.search(ctx, a)
		return nil, out, err
	})
}

func (e *mcpEngine) search(ctx context.Context, a searchArgs) (page[query.SearchItem], error) {
	if err := argument("query", a.Query, true, maxTextBytes); err != nil {
		return page[query.SearchItem]{}, err
	}
	switch a.Type {
	case "", "episode", "pattern", "note":
	default:
		return page[query.SearchItem]{}, fmt.Errorf("type is %.40q: give %s, or none for every kind", a.Type, argHelp["type"])
	}
	offset, size, err := a.window()
	if err != nil {
		return page[query.SearchItem]{}, err
	}
	snap, done, err := e.snapshot(ctx, store.PartSearch)
	if err != nil {
		return page[query.SearchItem]{}, err
	}
	defer done()
	items, err := snap.Search(a.Query, a.Type, min(offset+size+1, searchDepth), false)
	if err != nil {
		return page[query.SearchItem]{}, err
	}
	return paginate(snap, items, a.pageArgs, same)
}
