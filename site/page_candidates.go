package site

import (
	"fmt"
	"sort"
	"strings"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/routes"
)

// candidatesPage shows the pattern candidates mined from the episodes
// (candidates.json, its JSON twin) to a person who reviews them: each
// situation → action with its record, its evidence episodes and the
// other choices made in the same situation, and what the miner withheld
// and why. Candidates are proposals, never advice: the page says so and
// gives the command that writes one as a pattern.
type candidatesPage struct {
	Candidates []candidateView `json:"candidates"`
	Count      int             `json:"count"`
	More       int             `json:"more"`
	// Withheld are the miner's withheld candidates by reason, largest
	// first; WithheldCount their sum. Read is what the miner read.
	Withheld      []reasonCount `json:"withheld"`
	WithheldCount int           `json:"withheld_count"`
	Read          []reasonCount `json:"read"`
	Dropped       int           `json:"dropped"`
	Write         string        `json:"write"`
}

// candidateView is a candidate as the page shows it: its evidence and
// each contrast's at most maxCandidateEvidence episodes.
type candidateView struct {
	Anchor    string       `json:"anchor"`
	ID        string       `json:"id"`
	Trigger   string       `json:"trigger"`
	Terms     []string     `json:"terms"`
	Choice    choiceView   `json:"choice"`
	Contrasts []choiceView `json:"contrasts"`
}

// choiceView is a choice's record and its first evidence episodes; More
// counts the rest (candidates.json has them all).
type choiceView struct {
	Action      string         `json:"action"`
	Occurrences int            `json:"occurrences"`
	SuccessRate float64        `json:"success_rate"`
	Confidence  float64        `json:"confidence"`
	Sessions    int            `json:"sessions"`
	Evidence    []evidenceView `json:"evidence"`
	More        int            `json:"more"`
}

// evidenceView is an evidence episode (URL, whose headline the page's
// heads give) and its decision's place on the episode's page.
type evidenceView struct {
	ID          string `json:"id"`
	URL         string `json:"url"`
	Decision    string `json:"decision,omitempty"`
	DecisionURL string `json:"decision_url,omitempty"`
	Outcome     string `json:"outcome,omitempty"`
}

// reasonCount is a count and what it counts, with a sentence for a
// reader when there is one.
type reasonCount struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
	Text   string `json:"text,omitempty"`
}

// Caps of the candidates page; candidates.json has everything.
const (
	maxCandidates        = 200
	maxCandidateEvidence = 10
)

// withheldTexts say why the miner withheld a candidate, beside graph
// health's flags (flagTexts), which it also applies.
var withheldTexts = map[string]string{
	"support":     "Fewer than three different episodes support it.",
	"one-session": "Every episode that supports it is of one session.",
}

func candidatesPages(in input) []page {
	c := in.s.Candidates
	shown := first(c.Items, maxCandidates)
	p := candidatesPage{Candidates: []candidateView{}, Count: len(c.Items), More: len(c.Items) - len(shown),
		Withheld: reasonCounts(c.Withheld), Read: readCounts(c.Read), Dropped: c.DroppedEvidence, Write: c.Write}
	for _, r := range p.Withheld {
		p.WithheldCount += r.Count
	}
	for i, cand := range shown {
		p.Candidates = append(p.Candidates, candidateOf(cand, fmt.Sprintf("candidate-%d", i+1)))
	}
	return []page{{path: "candidates/_index.md", api: routes.Candidates, title: "Pattern candidates", params: p}}
}

func candidateOf(c export.Candidate, anchor string) candidateView {
	v := candidateView{Anchor: anchor, ID: c.ID, Trigger: c.Trigger, Terms: c.Terms, Choice: choiceOf(c.CandidateChoice), Contrasts: []choiceView{}}
	for _, ch := range c.Contrasts {
		v.Contrasts = append(v.Contrasts, choiceOf(ch))
	}
	return v
}

func choiceOf(ch export.CandidateChoice) choiceView {
	shown := first(ch.Evidence, maxCandidateEvidence)
	v := choiceView{Action: ch.Action, Occurrences: ch.Occurrences, SuccessRate: ch.SuccessRate, Confidence: ch.Confidence,
		Sessions: ch.Sessions, Evidence: []evidenceView{}, More: len(ch.Evidence) - len(shown)}
	for _, ev := range shown {
		e := evidenceView{ID: ev.ID, URL: ev.URL, Decision: ev.Decision, Outcome: ev.Outcome}
		if ev.Decision != "" {
			e.DecisionURL = ev.URL + "#" + anchor(ev.Decision)
		}
		v.Evidence = append(v.Evidence, e)
	}
	return v
}

// reasonCounts lists m largest first, ties by reason, each with its
// sentence (withheldTexts, else graph health's flagTexts).
// readTexts say in words what each of the miner's read counts counts
// (mine.Result.Read); a count without one shows its key's words.
var readTexts = map[string]string{
	"episodes":                    "episodes",
	"decisions":                   "decisions",
	"units":                       "decisions read as a situation and a choice",
	"decisions_without_context":   "decisions without a context (their episode's task is the situation)",
	"decisions_without_choice":    "decisions without a choice (left out)",
	"decisions_without_situation": "decisions with neither a context nor a task (left out)",
	"episodes_flagged":            "episodes flagged by graph health (never evidence)",
}

// readCounts are the miner's read counts, their keys in words, in the
// order reasonCounts gives.
func readCounts(m map[string]int) []reasonCount {
	out := reasonCounts(m)
	for i, r := range out {
		out[i].Reason = readTexts[r.Reason]
		if out[i].Reason == "" {
			out[i].Reason = strings.ReplaceAll(r.Reason, "_", " ")
		}
	}
	return out
}

func reasonCounts(m map[string]int) []reasonCount {
	out := []reasonCount{}
	for r, n := range m {
		text, ok := withheldTexts[r]
		if !ok {
			text = flagTexts[r]
		}
		out = append(out, reasonCount{Reason: r, Count: n, Text: text})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Count > out[j].Count || out[i].Count == out[j].Count && out[i].Reason < out[j].Reason
	})
	return out
}
