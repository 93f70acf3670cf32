package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/write"
)

type threadArgs struct {
	Thread string `json:"thread" jsonschema:"the thread or session note's id (its title), as get_pending_threads lists it"`
	Status string `json:"status" jsonschema:"pending, processing or completed"`
	writeArgs
}

func (e *mcpEngine) addMarkThreadStatus(s *mcp.Server) {
	t := writeTool("mark_thread_status", "Mark a thread's status",
		"Set the status of a thread or session note: pending, processing or completed.",
		false, true)
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a threadArgs) (*mcp.CallToolResult, wrote, error) {
		if err := argument("id", a.Thread, true, maxIDBytes); err != nil {
			return nil, wrote{}, err
		}
		w, err := e.write(ctx, a.writeArgs, func(o write.WriteOptions) (write.Written, error) {
			return write.MarkThreadStatus(ctx, o, a.Thread, a.Status)
		})
		return nil, w, err
	})
}
