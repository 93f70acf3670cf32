package main

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/store"
)

type pathArgs struct {
	From     string `json:"from" jsonschema:"the note the path starts from (its id)"`
	To       string `json:"to" jsonschema:"the note the path ends at (its id)"`
	MaxDepth int    `json:"max_depth,omitempty" jsonschema:"most edges on the path, 1 to 10 (default 5)"`
}

// pathCard is a causal path in under pathBudget tokens: the nodes in
// order, and between nodes[i] and nodes[i+1] the edge links[i], so no
// id is written twice.
type pathCard struct {
	Nodes    []string   `json:"nodes"`
	Links    []pathLink `json:"links"`
	Strength float64    `json:"strength"`
}

type pathLink struct {
	Type   string  `json:"type"`
	Weight float64 `json:"weight"`
}

func newPathCard(p query.Path) pathCard {
	c := pathCard{Nodes: p.Nodes, Links: []pathLink{}, Strength: p.Strength}
	for _, e := range p.Edges {
		c.Links = append(c.Links, pathLink{Type: string(e.Type), Weight: e.Weight})
	}
	return c
}

func (e *mcpEngine) addGetCausalPath(s *mcp.Server) {
	t := readOnly("get_causal_path", "Strongest causal path",
		"The causal path between two notes with the greatest product of edge weights: links[i] joins nodes[i] to nodes[i+1]. Same as `engram path`.")
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a pathArgs) (*mcp.CallToolResult, pathCard, error) {
		out, err := e.path(ctx, a)
		return nil, out, err
	})
}

func (e *mcpEngine) path(ctx context.Context, a pathArgs) (pathCard, error) {
	for _, arg := range []struct{ name, v string }{{"from", a.From}, {"to", a.To}} {
		if err := argument(arg.name, arg.v, true, maxIDBytes); err != nil {
			return pathCard{}, err
		}
	}
	if a.MaxDepth == 0 {
		a.MaxDepth = 5
	}
	if a.MaxDepth < 1 || a.MaxDepth > 10 {
		return pathCard{}, fmt.Errorf("max_depth is %d: give 1 to 10 edges", a.MaxDepth)
	}
	snap, done, err := e.snapshot(ctx, store.PartGraph)
	if err != nil {
		return pathCard{}, err
	}
	defer done()
	p, err := snap.StrongestPath(a.From, a.To, a.MaxDepth)
	if err != nil {
		return pathCard{}, err
	}
	return newPathCard(p), nil
}
