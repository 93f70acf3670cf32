package parse

import (
	"math"
	"strings"

	"github.com/engramhq/engram/indexer/note"
)

// common reads the front matter every note may have.
func (s *state) common(f *fields) {
	n := &s.n
	title := f.str("title")
	if clean, changed := cleanTitle(title); changed {
		f.report("title", note.Warning, "title-control", "title holds control characters; they are removed")
		title = clean
	}
	if title == "" {
		if n.Kind != note.KindNote && !f.broken {
			f.report("title", note.Warning, "missing-field", "%s has no title; the file name is used", n.Kind)
		}
		title = titleFromPath(s.path)
	}
	n.Title = title
	n.Permalink = f.str("permalink")
	n.Tags = f.list("tags")
	n.Date = f.date("date")
	n.Due = f.date("due")
	s.privacy(f)
}

func episodeFields(f *fields) *note.Episode {
	e := &note.Episode{
		Outcome:      note.Outcome(strings.ToLower(f.str("outcome"))),
		Task:         f.str("task"),
		Metrics:      f.metrics("metrics"),
		Session:      f.str("session"),
		SourceThread: f.str("source_thread"),
		Concepts:     f.list("concepts"),
	}
	e.DurationMinutes = f.float("duration_minutes")
	switch {
	case e.Outcome == "" && f.broken:
	case e.Outcome == "":
		f.report("outcome", note.Error, "missing-field", "episode has no outcome ("+note.OutcomeList+")")
	case !e.Outcome.Valid():
		f.report("outcome", note.Error, "episode-outcome", "outcome %q is not "+note.OutcomeList, e.Outcome)
	}
	if e.Task == "" && !f.broken {
		f.report("task", note.Error, "missing-field", "episode has no task")
	}
	return e
}

func patternFields(f *fields) *note.Pattern {
	p := &note.Pattern{
		Trigger:       f.str("trigger"),
		Action:        f.str("action"),
		DeclaredRate:  f.float("success_rate"),
		LastValidated: f.date("last_validated"),
	}
	if r := p.DeclaredRate; r != nil && (*r < 0 || *r > 1) {
		f.report("success_rate", note.Error, "pattern-rate", "success_rate %g is outside 0..1; ignored", *r)
		p.DeclaredRate = nil
	}
	if o := f.float("occurrences"); o != nil {
		if *o < 0 || *o != math.Trunc(*o) || *o > math.MaxInt32 {
			f.report("occurrences", note.Error, "pattern-occurrences", "occurrences %g is not a whole number of at least 0; ignored", *o)
		} else {
			n := int(*o)
			p.DeclaredOccurrences = &n
		}
	}
	return p
}
