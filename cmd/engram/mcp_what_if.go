package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/store"
)

type whatIfArgs struct {
	Episode  string `json:"episode" jsonschema:"the episode (its id)"`
	Decision string `json:"decision" jsonschema:"the decision id, such as d001"`
	Option   string `json:"option,omitempty" jsonschema:"only this option (default: every option not chosen)"`
}

// whatIfCard is `engram whatif` in under whatIfBudget tokens: per option
// not chosen, its record and the latest precedents, as many as fit.
type whatIfCard struct {
	Episode  string         `json:"episode"`
	Decision decisionCard   `json:"decision"`
	Items    []optionRecord `json:"items"`
}

type optionRecord struct {
	Option      string      `json:"option"`
	Count       int         `json:"count"`
	SuccessRate *float64    `json:"success_rate,omitempty"` // absent when no episode chose it
	Confidence  *float64    `json:"confidence,omitempty"`
	Episodes    []precedent `json:"episodes"`
}

type precedent struct {
	ID       string `json:"id"`
	Decision string `json:"decision"`
	Outcome  string `json:"outcome"`
}

// whatIfShown are the precedents shown per option, fewer in turn until
// the answer fits.
var whatIfShown = []int{5, 3, 1, 0}

func newWhatIfCard(w query.WhatIf) whatIfCard {
	c := whatIfCard{Episode: w.Episode, Decision: newDecisionCard(w.Decision)}
	c.Decision.Effects = nil
	show := func(n int) {
		c.Items = []optionRecord{}
		for _, a := range w.Items {
			r := optionRecord{Option: cut(a.Option, 80), Count: a.Count, SuccessRate: a.SuccessRate, Confidence: a.Confidence, Episodes: []precedent{}}
			for _, p := range a.Episodes[:min(n, len(a.Episodes))] {
				r.Episodes = append(r.Episodes, precedent{ID: p.ID, Decision: p.Decision, Outcome: string(p.Outcome)})
			}
			c.Items = append(c.Items, r)
		}
	}
	show(whatIfShown[0])
	k := 1
	fit(&c, whatIfBudget, func() bool {
		switch {
		case k < len(whatIfShown):
			show(whatIfShown[k])
		case k == len(whatIfShown):
			c.Decision.Rationale, c.Decision.Options = "", nil
		default:
			return false
		}
		k++
		return true
	})
	return c
}

func (e *mcpEngine) addWhatIf(s *mcp.Server) {
	t := readOnly("what_if", "What if another option",
		"For one decision of an episode, each option not chosen and what happened when other episodes chose it: count, success rate, its 95% lower bound, the latest of them. Same as `engram whatif`.")
	addTool(e, s, t, func(ctx context.Context, _ *mcp.CallToolRequest, a whatIfArgs) (*mcp.CallToolResult, whatIfCard, error) {
		out, err := e.whatIf(ctx, a)
		return nil, out, err
	})
}

func (e *mcpEngine) whatIf(ctx context.Context, a whatIfArgs) (whatIfCard, error) {
	for _, arg := range []struct {
		name, v string
		need    bool
	}{{"episode", a.Episode, true}, {"decision", a.Decision, true}, {"option", a.Option, false}} {
		if err := argument(arg.name, arg.v, arg.need, maxIDBytes); err != nil {
			return whatIfCard{}, err
		}
	}
	snap, done, err := e.snapshot(ctx, store.PartEpisodes)
	if err != nil {
		return whatIfCard{}, err
	}
	defer done()
	w, err := snap.WhatIf(a.Episode, a.Decision, a.Option)
	if err != nil {
		return whatIfCard{}, err
	}
	return newWhatIfCard(w), nil
}
