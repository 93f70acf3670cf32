package search

import (
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/export"
)

// Brief is what a hit shows an agent besides its id, type, score and
// URL: enough to judge the hit without fetching the note (issue 32). The
// index stores it beside each document.
type Brief struct {
	// Headline is the note's headline (export.EpisodeHeadline, ...).
	Headline string `json:"headline,omitempty"`
	// Outcome is an episode's: success, partial or failure.
	Outcome string `json:"outcome,omitempty"`
	// Date is the day of the note (an episode's date, another note's
	// creation), YYYY-MM-DD.
	Date string `json:"date,omitempty"`
	// Snippet is what the headline does not already say, at most
	// SnippetRunes: the rest of an episode's task, else the start of the
	// note's prose.
	Snippet string `json:"snippet,omitempty"`
}

// SnippetRunes is the longest snippet, in runes.
const SnippetRunes = 160

// headlineFields are the fields a note's headline is made from, by type
// of note (export.EpisodeHeadline, PatternHeadline, NoteHeadline).
func headlineFields(typ string) []string {
	switch kind(typ) {
	case KindEpisode:
		return []string{"task"}
	case KindPattern:
		return []string{"trigger", "action"}
	}
	return []string{"title"}
}

// brief is d as a hit shows it to an agent. Text flagged for memory
// poisoning never reaches an agent (SPEC §3): a headline made from a
// flagged field is the marker that says it was withheld, and a note with
// any flagged text has no snippet (its prose may be where the text is).
func brief(d Doc) Brief {
	b := Brief{Headline: d.Headline, Outcome: d.Outcome, Snippet: snippetOf(d)}
	if !d.Date.IsZero() {
		b.Date = d.Date.UTC().Format("2006-01-02")
	}
	if len(d.Poisoning) > 0 {
		b.Snippet = ""
	}
	for _, p := range d.Poisoning {
		if slices.Contains(headlineFields(d.Type), p.Field) {
			b.Headline = export.Withheld(p)
			break
		}
	}
	return b
}

// snippetOf is what d's headline does not already say: the rest of an
// episode's task after its headline, else the start of its prose.
func snippetOf(d Doc) string {
	if kind(d.Type) == KindEpisode {
		if _, rest := TaskBrief(d.Task, d.ID); rest != "" {
			return rest
		}
	}
	s := strings.Join(strings.Fields(d.Summary), " ")
	if s == d.Headline {
		return ""
	}
	return export.Clip(s, SnippetRunes)
}

// TaskBrief is an episode's task as a hit shows it: the headline
// (export.EpisodeHeadline) and, at most SnippetRunes, what the task says
// after it ("" when nothing).
func TaskBrief(task, id string) (headline, snippet string) {
	headline = export.EpisodeHeadline(task, id)
	t := strings.Join(strings.Fields(export.PlainText(task)), " ")
	head := strings.TrimSuffix(headline, "…")
	rest, ok := strings.CutPrefix(t, head)
	switch {
	case !ok && t != "" && t != headline:
		rest = t
	case strings.HasSuffix(headline, "…") && strings.TrimSpace(rest) != "":
		rest = "…" + strings.TrimSpace(rest) // the headline was cut mid-sentence
	}
	rest = strings.TrimLeft(rest, " .;:,")
	return headline, export.Clip(rest, SnippetRunes)
}
