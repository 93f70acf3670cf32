package main

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/store"
)

type similarArgs struct {
	Episode string `json:"episode,omitempty" jsonschema:"an episode id; or give text"`
	Text    string `json:"text,omitempty" jsonschema:"a situation in a few sentences; or give episode"`
	pageArgs
}

func (e *mcpEngine) addSimilarEpisodes(s *mcp.Server) {
	t := readOnly("similar_episodes", "Similar past situations",
		"Past episodes most like an episode or a described situation, most similar first.")
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a similarArgs) (*mcp.CallToolResult, page[query.SearchItem], error) {
		out, err := e.similar(ctx, a)
		return nil, out, err
	})
}

func (e *mcpEngine) similar(ctx context.Context, a similarArgs) (page[query.SearchItem], error) {
	if (a.Episode == "") == (a.Text == "") {
		return page[query.SearchItem]{}, errors.New("give episode (an episode id) or text (a situation), one of them")
	}
	if err := argument("episode", a.Episode, false, maxIDBytes); err != nil {
		return page[query.SearchItem]{}, err
	}
	if err := argument("text", a.Text, false, maxTextBytes); err != nil {
		return page[query.SearchItem]{}, err
	}
	offset, size, err := a.window()
	if err != nil {
		return page[query.SearchItem]{}, err
	}
	snap, done, err := e.snapshot(ctx, store.PartSimilar|store.PartSearch)
	if err != nil {
		return page[query.SearchItem]{}, err
	}
	defer done()
	limit := min(offset+size+1, searchDepth)
	var items []query.SearchItem
	if a.Episode != "" {
		items, err = snap.SimilarToEpisode(a.Episode, limit)
	} else {
		items, err = snap.SimilarToText(a.Text, limit)
	}
	if err == nil {
		err = snap.Describe(items)
	}
	if err != nil {
		return page[query.SearchItem]{}, err
	}
	return paginate(snap, items, a.pageArgs, same)
}
