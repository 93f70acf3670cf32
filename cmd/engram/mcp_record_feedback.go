package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/write"
)

type feedbackArgs struct {
	Note    string `json:"note" jsonschema:"note id (title)"`
	Kind    string `json:"kind" jsonschema:"echo (it helped) or fizzle (ignored)"`
	Session string `json:"session,omitempty" jsonschema:"session id"`
	writeArgs
}

func (e *mcpEngine) addRecordFeedback(s *mcp.Server) {
	t := writeTool("record_feedback", "Record feedback on a note",
		"Say a note helped (echo) or was ignored (fizzle): it moves the note's score.",
		false, false)
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a feedbackArgs) (*mcp.CallToolResult, wrote, error) {
		if err := argument("id", a.Note, true, maxIDBytes); err != nil {
			return nil, wrote{}, err
		}
		w, err := e.write(ctx, a.writeArgs, func(o write.WriteOptions) (write.Written, error) {
			return write.RecordFeedback(ctx, o, write.Feedback{Note: a.Note, Kind: a.Kind, Session: a.Session})
		})
		return nil, w, err
	})
}
