package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer"
)

type feedbackArgs struct {
	Note    string `json:"note" jsonschema:"the id (title) of the note the feedback is about"`
	Kind    string `json:"kind" jsonschema:"echo (the note was used) or fizzle (it was given and ignored)"`
	Session string `json:"session,omitempty" jsonschema:"the session it happened in"`
	writeArgs
}

func (e *mcpEngine) addRecordFeedback(s *mcp.Server) {
	t := writeTool("record_feedback", "Record feedback on a note",
		"Append an echo (the note helped) or a fizzle (it was injected and ignored) to feedback/YYYY-MM.jsonl; "+
			"feedback raises or lowers the note's score in later builds.",
		false, false)
	mcp.AddTool(s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a feedbackArgs) (*mcp.CallToolResult, wrote, error) {
		if err := argument("id", a.Note, true, maxIDBytes); err != nil {
			return nil, wrote{}, err
		}
		w, err := e.write(ctx, a.writeArgs, func(o indexer.WriteOptions) (indexer.Written, error) {
			return indexer.RecordFeedback(ctx, o, indexer.Feedback{Note: a.Note, Kind: a.Kind, Session: a.Session})
		})
		return nil, w, err
	})
}
