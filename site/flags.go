package site

import (
	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
)

// flagNote says what one health flag means, for a note's banner.
type flagNote struct {
	Flag string `json:"flag"`
	Text string `json:"text"`
	// Excludes: the flag keeps the note from agents (causal.Excludes),
	// which the banner's first line says.
	Excludes bool `json:"excludes"`
}

// flagTexts explain the flags of graph health (SPEC §3) to a reader.
var flagTexts = map[string]string{
	causal.FlagFixture:             "It comes from test fixtures, not from real work.",
	causal.FlagEmpty:               "It records nothing beyond a task of one or two words.",
	causal.FlagTautology:           "Its action only restates its trigger.",
	causal.FlagPlaceholder:         "Its trigger or action is missing, a template or a placeholder.",
	causal.FlagDefaultRate:         "Its success rate is not a measurement: every evidence line gives one outcome that none of the evidence episodes records itself, an extractor's default.",
	causal.FlagOutcomeContradicted: "Its outcome says failure or partial, but its last event reports the work done (merged, ready to merge, fixed and committed): the outcome is shown as recorded, and the episode is not listed among the failures.",
	causal.FlagPoisoning:           "Text in it addresses an agent with instructions (memory poisoning), listed below: agents would read it as their own. Nothing of it is in the bootstrap, and the answers agents get (MCP, the query commands) withhold that text. It is shown on this page as text, for review; if it is meant, allow its fingerprint in engram.toml [poisoning] allow.",
}

// The default_rate notes of a rate declared with no evidence and no
// occurrences, and of a declared rate that the evidence contradicts.
const (
	declaredText     = "Its success rate is not a measurement: it is declared with no occurrences and no evidence episode behind it, a bare default."
	contradictedText = "Its declared success rate is outside the 95% interval of its evidence episodes: the note claims what its evidence does not show. The evidence's rate is shown and classifies it; correct the declared rate to offer it as advice."
)

// flagNotes explain a note's flags; rate says why a pattern's rate is
// flagged default_rate (rateWhy), "" for other notes.
func flagNotes(flags []string, rate string) []flagNote {
	out := []flagNote{}
	for _, f := range flags {
		text := flagTexts[f]
		if f == causal.FlagDefaultRate && rate != "" {
			text = rate
		}
		out = append(out, flagNote{Flag: f, Text: text, Excludes: causal.Excludes([]string{f})})
	}
	return out
}

// rateWhy is the note that says why a pattern's rate is a default, when
// it is not the evidence lines' own default (flagTexts).
func rateWhy(p export.Pattern) string {
	d := p.Declared.SuccessRate
	switch {
	case p.StatsSource == "declared":
		return declaredText
	case d != nil && p.SuccessRate != nil && causal.DeclaredContradicts(*d, *p.SuccessRate, p.Occurrences):
		return contradictedText
	}
	return ""
}
