package query

import (
	"strconv"
	"strings"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

// Memory poisoning (SPEC §3): the text of a note that addresses an agent
// with instructions never reaches an agent through an answer. The
// snapshot is made with each such field replaced by a marker that says it
// was withheld and why (withheld), so every answer (the query commands,
// the MCP tools and resources) gives the marker and none can forget to;
// the note's page shows the text to people. A note whose title is the
// text is left out of the snapshot's lists: its id would repeat it.

// withheld is the marker that stands for a field flagged for memory
// poisoning.
func withheld(p export.Poisoning) string { return export.Withheld(p) }

// titlePoisoned reports whether a note's title is flagged text.
func titlePoisoned(ps []export.Poisoning) bool {
	for _, p := range ps {
		if p.Field == "title" {
			return true
		}
	}
	return false
}

// withholdEpisode replaces the flagged fields of an episode that a
// snapshot keeps (the task and the decisions' texts).
func withholdEpisode(e *Episode, ps []export.Poisoning) {
	if len(ps) > 0 {
		e.Decisions = append([]export.Decision{}, e.Decisions...)
	}
	for _, p := range ps {
		if p.Field == "task" {
			e.Task = withheld(p)
			continue
		}
		rest, ok := strings.CutPrefix(p.Field, "decisions/")
		id, field, _ := strings.Cut(rest, "/")
		for k := range e.Decisions {
			if d := &e.Decisions[k]; ok && d.ID == id {
				withholdDecision(d, field, withheld(p))
			}
		}
	}
}

func withholdDecision(d *export.Decision, field, marker string) {
	switch field {
	case "title":
		d.Title = marker
	case "context":
		d.Context = marker
	case "options":
		d.Options = []string{marker}
	case "chosen":
		d.Chosen = marker
	case "rationale":
		d.Rationale = marker
	case "outcome":
		d.Outcome = note.Outcome(marker)
	}
}

// withholdPattern replaces the flagged fields of a pattern that a
// snapshot keeps (trigger, action, observations), and the excerpts that
// repeat them.
func withholdPattern(p *export.Pattern) {
	if len(p.Poisoning) == 0 {
		return
	}
	p.Observations = append([]export.Observation{}, p.Observations...)
	p.Poisoning = withoutExcerpts(p.Poisoning)
	for _, f := range p.Poisoning {
		switch {
		case f.Field == "trigger":
			p.Trigger = withheld(f)
		case f.Field == "action":
			p.Action = withheld(f)
		case strings.HasPrefix(f.Field, "observations/"):
			if k, err := strconv.Atoi(strings.TrimPrefix(f.Field, "observations/")); err == nil && k >= 1 && k <= len(p.Observations) {
				p.Observations[k-1].Content, p.Observations[k-1].Context = withheld(f), ""
			}
		}
	}
}

// withoutExcerpts is a note's findings without the text found, which an
// answer must not repeat.
func withoutExcerpts(ps []export.Poisoning) []export.Poisoning {
	out := make([]export.Poisoning, len(ps))
	for i, p := range ps {
		p.Excerpt = ""
		out[i] = p
	}
	return out
}
