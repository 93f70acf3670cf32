package main

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/search"
	"github.com/engramhq/engram/indexer/tokens"
)

// The compact shapes the tools answer with. An agent pays for every
// token it reads, so each answer fits the seeds' budget (SPEC §5.2) and
// names the URL of the whole document instead of carrying it: a pattern
// as patterns.json holds it is ~625 tokens, its card under 100.

// Budgets in tokens, exclusive, counted over the answer's JSON.
const (
	episodeBudget = 500
	pathBudget    = 200
	patternBudget = 100
	whatIfBudget  = 1000
)

// textCuts are the lengths, in runes, that free texts are cut to in turn
// until an answer fits its budget.
var textCuts = []int{240, 160, 100, 60, 30, 0}

// countJSON is the size in tokens of v as the client reads it.
func countJSON(v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return tokens.Count(string(b))
}

// fit makes v smaller with shrink until it counts fewer than budget
// tokens or shrink says there is nothing left to cut.
func fit(v any, budget int, shrink func() bool) {
	for countJSON(v) >= budget && shrink() {
	}
}

// cut shortens s to n runes at a word boundary, with an ellipsis; n 0
// empties it.
func cut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n == 0 {
		return ""
	}
	end := n - 1
	for end > 0 && !unicode.IsSpace(r[end]) {
		end--
	}
	if end == 0 {
		end = n - 1
	}
	return strings.TrimRight(string(r[:end]), " ,;:.-–—") + "…"
}

// patternCard is a pattern in under patternBudget tokens.
type patternCard struct {
	ID      string `json:"id"`
	Type    string `json:"type,omitempty"`
	Trigger string `json:"trigger,omitempty"`
	Action  string `json:"action,omitempty"`
	// SuccessRate and Confidence are absent when unknown: an answer
	// holds no null (mcp_schema.go).
	SuccessRate *float64 `json:"success_rate,omitempty"`
	Occurrences int      `json:"occurrences"`
	Confidence  *float64 `json:"confidence,omitempty"`
	Antipattern bool     `json:"antipattern,omitempty"`
	Flags       []string `json:"flags,omitempty"`
	URL         string   `json:"url,omitempty"`
}

func newPatternCard(p export.PatternSummary) patternCard {
	c := patternCard{ID: p.ID, Type: p.Type, Trigger: p.Trigger, Action: p.Action, SuccessRate: p.SuccessRate,
		Occurrences: p.Occurrences, Confidence: p.Confidence, Antipattern: p.Antipattern, Flags: p.Flags, URL: p.JSONURL}
	k := 0
	fit(&c, patternBudget, func() bool {
		if k == len(textCuts) {
			return false
		}
		c.Trigger, c.Action = cut(p.Trigger, textCuts[k]), cut(p.Action, textCuts[k])
		k++
		return true
	})
	return c
}

// episodeItem is an episode in a list: its task as a search hit shows
// it, a headline and the rest in a snippet (search.TaskBrief).
type episodeItem struct {
	ID       string  `json:"id"`
	Date     string  `json:"date"`
	Outcome  string  `json:"outcome"`
	Headline string  `json:"headline,omitempty"`
	Snippet  string  `json:"snippet,omitempty"`
	Score    float64 `json:"score"`
	URL      string  `json:"url"`
}

func newEpisodeItem(e export.EpisodeSummary) episodeItem {
	head, snip := search.TaskBrief(e.Task, e.ID)
	if head == e.ID {
		head = "" // no task: the id says it
	}
	return episodeItem{ID: e.ID, Date: e.Date, Outcome: string(e.Outcome), Headline: head, Snippet: snip, Score: e.Score, URL: e.JSONURL}
}

// episodeCard is one episode in under episodeBudget tokens: its summary
// and a line per decision, as many as fit; json_url has the rest.
type episodeCard struct {
	ID             string         `json:"id"`
	Title          string         `json:"title,omitempty"` // when it is not the id
	Date           string         `json:"date"`
	Outcome        string         `json:"outcome"`
	Task           string         `json:"task,omitempty"`
	Tags           []string       `json:"tags,omitempty"`
	Score          float64        `json:"score"`
	URL            string         `json:"url"`
	JSONURL        string         `json:"json_url"`
	Decisions      []decisionLine `json:"decisions"`
	DecisionsTotal int            `json:"decisions_total"`
}

// decisionLine is a decision in one line: what was decided, the choice.
type decisionLine struct {
	ID      string `json:"id"`
	Type    string `json:"type,omitempty"`
	Title   string `json:"title,omitempty"`
	Chosen  string `json:"chosen,omitempty"`
	Outcome string `json:"outcome,omitempty"`
}

func newEpisodeCard(e *query.Episode) episodeCard {
	c := episodeCard{ID: e.ID, Date: e.Date, Outcome: string(e.Outcome), Task: cut(e.Task, 400), Tags: e.Tags, Score: e.Score,
		URL: e.URL, JSONURL: e.JSONURL, Decisions: []decisionLine{}, DecisionsTotal: len(e.Decisions)}
	if e.Title != e.ID {
		c.Title = cut(e.Title, 120)
	}
	if len(c.Tags) > 10 {
		c.Tags = c.Tags[:10]
	}
	for _, d := range e.Decisions {
		c.Decisions = append(c.Decisions, decisionLine{ID: d.ID, Type: string(d.Type), Title: cut(d.Title, 100), Chosen: cut(d.Chosen, 80), Outcome: string(d.Outcome)})
	}
	k := 0
	fit(&c, episodeBudget, func() bool {
		if len(c.Decisions) > 0 { // the last first: json_url has them all
			c.Decisions = c.Decisions[:len(c.Decisions)-1]
			return true
		}
		if k == len(textCuts) {
			return false
		}
		c.Task, c.Title, c.Tags = cut(e.Task, textCuts[k]), cut(c.Title, textCuts[k]), nil
		k++
		return true
	})
	return c
}
