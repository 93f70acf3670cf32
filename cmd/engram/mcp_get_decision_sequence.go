package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/store"
)

type decisionsArgs struct {
	Episode string `json:"episode" jsonschema:"the episode's id (its title)"`
	pageArgs
}

// decisionsPage is an episode's decisions in order, a page at a time.
type decisionsPage struct {
	Episode string `json:"episode"`
	Outcome string `json:"outcome"`
	page[decisionCard]
}

// decisionCard is a decision with its texts cut: the options, the
// choice and why, and the notes it affected.
type decisionCard struct {
	ID        string   `json:"id"`
	Type      string   `json:"type,omitempty"`
	Title     string   `json:"title,omitempty"`
	Timestamp string   `json:"timestamp,omitempty"`
	Options   []string `json:"options,omitempty"`
	Chosen    string   `json:"chosen,omitempty"`
	Rationale string   `json:"rationale,omitempty"`
	Outcome   string   `json:"outcome,omitempty"`
	Effects   []string `json:"effects,omitempty"`
}

func newDecisionCard(d export.Decision) decisionCard {
	c := decisionCard{ID: d.ID, Type: string(d.Type), Title: cut(d.Title, 160), Timestamp: d.Timestamp, Chosen: cut(d.Chosen, 160),
		Rationale: cut(d.Rationale, 240), Outcome: string(d.Outcome)}
	for _, o := range d.Options {
		c.Options = append(c.Options, cut(o, 80))
	}
	for _, l := range d.Effects {
		c.Effects = append(c.Effects, l.Target)
	}
	return c
}

func (e *mcpEngine) addGetDecisionSequence(s *mcp.Server) {
	t := readOnly("get_decision_sequence", "An episode's decisions",
		"The decisions of one episode in the order they were taken: options, the choice, why, and its outcome. Same as `engram decisions`.")
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a decisionsArgs) (*mcp.CallToolResult, decisionsPage, error) {
		out, err := e.decisions(ctx, a)
		return nil, out, err
	})
}

func (e *mcpEngine) decisions(ctx context.Context, a decisionsArgs) (decisionsPage, error) {
	if err := argument("episode", a.Episode, true, maxIDBytes); err != nil {
		return decisionsPage{}, err
	}
	snap, done, err := e.snapshot(ctx, store.PartEpisodes)
	if err != nil {
		return decisionsPage{}, err
	}
	defer done()
	d, err := snap.Decisions(a.Episode)
	if err != nil {
		return decisionsPage{}, err
	}
	pa := a.pageArgs
	if pa.BudgetTokens > 0 { // the page's budget is what the episode and outcome leave
		head := countJSON(struct{ Episode, Outcome string }{d.Episode, string(d.Outcome)})
		pa.BudgetTokens = max(pa.BudgetTokens-head, 1)
	}
	p, err := paginate(snap, d.Items, pa, newDecisionCard)
	return decisionsPage{Episode: d.Episode, Outcome: string(d.Outcome), page: p}, err
}
