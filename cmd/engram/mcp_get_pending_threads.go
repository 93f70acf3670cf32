package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/store"
)

func (e *mcpEngine) addGetPendingThreads(s *mcp.Server) {
	t := readOnly("get_pending_threads", "Threads awaiting processing",
		"Thread and session notes that no episode derives from yet (pending.json), by id.")
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a pageArgs) (*mcp.CallToolResult, page[export.PendingItem], error) {
		snap, done, err := e.snapshot(ctx, store.PartPending)
		if err != nil {
			return nil, page[export.PendingItem]{}, err
		}
		defer done()
		out, err := paginate(snap, snap.Pending, a, same)
		return nil, out, err
	})
}
