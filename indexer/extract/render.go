package extract

import (
	"fmt"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// FileName is the episode note's file name: its title and ".md".
func (e Episode) FileName() string { return e.Title + ".md" }

// Markdown renders the episode as an engram episode note (SPEC §2.1),
// with parse.Format, the one writer of the note format: front matter,
// then Context, Decisions, Events Timeline and Lessons Learned. Every
// text of a list item or a decision field is one line, and escaped where
// markdown would read it as something else (a decision title's wikilink
// brackets, a lesson that starts a heading), so the note parses with no
// warning and says what the log said.
func (e Episode) Markdown() []byte {
	return parse.Format(e.note(), parse.FormatOptions{
		Dates: map[string]string{"date": e.Date},
		Extra: []parse.Entry{{Key: "source_log", Value: e.Source}},
	})
}

// note is the episode as the note it is written as; its date is in
// Markdown's options, as the log gives it (a day).
func (e Episode) note() note.Note {
	ep := &note.Episode{
		Outcome: note.Outcome(e.Outcome), Task: e.Task, Session: e.Session,
		Metrics: map[string]float64{"commits": float64(e.Metrics.Commits), "errors": float64(e.Metrics.Errors), "files_changed": float64(e.Metrics.FilesChanged)},
	}
	if e.DurationMinutes > 0 {
		d := e.DurationMinutes
		ep.DurationMinutes = &d
	}
	for i, d := range e.Decisions {
		ep.Decisions = append(ep.Decisions, note.Decision{ID: fmt.Sprintf("d%03d", i+1), Title: d.Title,
			Type: note.DecisionType(d.Type), Context: d.Context, Chosen: d.Chosen, Rationale: d.Rationale, Outcome: note.Outcome(d.Outcome)})
	}
	for _, ev := range e.Events {
		ep.Events = append(ep.Events, note.Event{Timestamp: e.Date, Type: ev.Type, Text: ev.Text})
	}
	for _, l := range e.Lessons {
		ep.Lessons = append(ep.Lessons, note.Lesson{Text: l.Text})
	}
	return note.Note{Kind: note.KindEpisode, Type: "episode", Title: e.Title, Tags: e.Tags,
		Sections: []note.Section{{Heading: "Context", Markdown: e.Context}}, Episode: ep}
}
