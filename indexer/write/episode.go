package write

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// EpisodeInput is an episode to write (SPEC §2.1), as `engram new
// episode --json` and the MCP tools store_episode and upsert_episode
// take it. Title, Task and Outcome are required.
type EpisodeInput struct {
	Title           string             `json:"title"`
	Task            string             `json:"task"`
	Outcome         string             `json:"outcome"`
	Date            string             `json:"date,omitempty"`
	Tags            []string           `json:"tags,omitempty"`
	Session         string             `json:"session,omitempty"`
	SourceThread    string             `json:"source_thread,omitempty"`
	Concepts        []string           `json:"concepts,omitempty"`
	DurationMinutes *float64           `json:"duration_minutes,omitempty"`
	Metrics         map[string]float64 `json:"metrics,omitempty"`
	Context         string             `json:"context,omitempty"`
	Decisions       []DecisionInput    `json:"decisions,omitempty"`
	Events          []EventInput       `json:"events,omitempty"`
	Lessons         []string           `json:"lessons,omitempty"`
}

// DecisionInput is one decision of an episode; ID defaults to d001, d002…
type DecisionInput struct {
	ID        string   `json:"id,omitempty"`
	Title     string   `json:"title,omitempty"`
	Timestamp string   `json:"timestamp,omitempty"`
	Type      string   `json:"type,omitempty"`
	Context   string   `json:"context,omitempty"`
	Options   []string `json:"options,omitempty"`
	Chosen    string   `json:"chosen,omitempty"`
	Rationale string   `json:"rationale,omitempty"`
	Outcome   string   `json:"outcome,omitempty"`
	// Effects are ids of other decisions or titles of notes.
	Effects []string `json:"effects,omitempty"`
}

// EventInput is one item of an episode's events timeline; Timestamp
// defaults to the episode's date.
type EventInput struct {
	Timestamp string `json:"timestamp,omitempty"`
	Type      string `json:"type,omitempty"`
	Text      string `json:"text"`
}

// NewEpisode writes a new episode note, episodes/<file>.md (notePath
// names the file). A note of that title, anywhere in the repository, is
// refused with ErrNoteExists, unless opt.Force: then it is replaced
// where it is.
func NewEpisode(ctx context.Context, opt WriteOptions, in EpisodeInput) (Written, error) {
	return writeEpisode(ctx, opt, in, false)
}

// UpsertEpisode writes the episode note titled in.Title, creating it or
// replacing it where it is. It replaces only a note engram wrote (front
// matter written_by: engram), unless opt.Force, and never a private note
// or an ai-agents episode file.
func UpsertEpisode(ctx context.Context, opt WriteOptions, in EpisodeInput) (Written, error) {
	return writeEpisode(ctx, opt, in, true)
}

func writeEpisode(ctx context.Context, opt WriteOptions, in EpisodeInput, upsert bool) (Written, error) {
	if in.Date == "" {
		in.Date = opt.now().Format("2006-01-02T15:04:05Z")
	}
	p, data, err := renderEpisode(in)
	if err != nil {
		return Written{}, err
	}
	return writeNewNote(ctx, opt, in.Title, p, data, upsert, "write: episode "+in.Title)
}

// writeNewNote writes a rendered note, whose title is title: created,
// or, when a note of that title exists anywhere in the repository,
// replaced where it is with upsert (engram's own note only) or Force,
// and refused otherwise, naming it.
func writeNewNote(ctx context.Context, opt WriteOptions, title, p string, data []byte, upsert bool, message string) (Written, error) {
	t, err := begin(ctx, opt)
	if err != nil {
		return Written{}, err
	}
	return t.end(t.putNote(title, p, data, upsert), message)
}

// putNote plans the note titled title, rendered for path p (find.go
// finds what it would clash with).
func (t *txn) putNote(title, p string, data []byte, upsert bool) error {
	x, err := t.index()
	if err != nil {
		return err
	}
	n, err := checkNoteWith(x.parser, p, data)
	if err != nil {
		return err
	}
	same, other := x.clashes(n)
	switch {
	case len(other) > 0:
		return fmt.Errorf("%q would be published at the same place as %s (titled %q), and a build refuses two notes at one place: choose another title: %w",
			title, other[0].Path, other[0].Note.Title, ErrNoteExists)
	case len(same) == 0:
		x.planned = append(x.planned, found{Path: p, Src: data, Note: n})
		return t.putNew(p, data)
	}
	f := same[0]
	switch {
	case slices.ContainsFunc(same, func(f found) bool { return f.Note.Private }):
		// Named by nothing: a private note is absent everywhere.
		return fmt.Errorf("a note titled %q exists; it is not replaced: choose another title: %w", title, ErrNoteExists)
	case len(same) > 1:
		return fmt.Errorf("%s and %s are both titled %q, which a build refuses: fix that first: %w", same[0].Path, same[1].Path, title, ErrNoteExists)
	case f.json():
		return fmt.Errorf("%s, an ai-agents episode file, has the id %q; engram does not replace it: choose another title: %w", f.Path, f.Note.Title, ErrNoteExists)
	case !upsert && !t.opt.Force && f.Path == p:
		return fmt.Errorf("%s exists; not overwritten (--force replaces it): %w", p, ErrNoteExists)
	case !upsert && !t.opt.Force:
		return fmt.Errorf("a note titled %q exists at %s; not overwritten (--force replaces it): %w", f.Note.Title, f.Path, ErrNoteExists)
	case !t.opt.Force && f.Note.Extra[writtenByKey] != writtenByValue:
		return fmt.Errorf("%s exists and engram did not write it (no written_by: engram); not replaced: pass force (--force) to replace it, or choose another title: %w", f.Path, ErrNoteExists)
	}
	// Replaced where it is: a note moved into a folder of its own stays
	// there, and is never written twice.
	if n, err = checkNoteWith(x.parser, f.Path, data); err != nil {
		return err
	}
	t.replace(f.Path, data)
	x.planned = append(x.planned, found{Path: f.Path, Src: data, Note: n})
	return nil
}

// putNew plans a note that no note's title clashes with, at p: refused
// when a file is there, unless Force.
func (t *txn) putNew(p string, data []byte) error {
	if err := checkFree(t.root, p); err != nil {
		return err
	}
	if t.opt.Force {
		t.replace(p, data)
	} else {
		t.create(p, data)
	}
	return nil
}

// renderEpisode checks in and returns the note's path and bytes, parsed
// back to be sure that they say what in says.
func renderEpisode(in EpisodeInput) (string, []byte, error) {
	if err := checkEpisode(&in); err != nil {
		return "", nil, err
	}
	p, err := notePath("episodes", in.Title)
	if err != nil {
		return "", nil, err
	}
	data := parse.Format(episodeNote(in), parse.FormatOptions{Dates: map[string]string{"date": in.Date}})
	n, err := checkNote(p, data)
	if err != nil {
		return "", nil, err
	}
	return p, data, readsBack(n, in)
}

// episodeNote is the note in asks for, checked (checkEpisode). An
// event's text is escaped where it would start a block, as engram new
// has always written it (the parser keeps the backslash).
func episodeNote(in EpisodeInput) note.Note {
	e := &note.Episode{Outcome: note.Outcome(in.Outcome), Task: in.Task, Session: in.Session, SourceThread: in.SourceThread,
		Concepts: in.Concepts, DurationMinutes: in.DurationMinutes, Metrics: in.Metrics}
	for _, d := range in.Decisions {
		var effects []note.Link
		for _, t := range d.Effects {
			effects = append(effects, note.Link{Target: t})
		}
		e.Decisions = append(e.Decisions, note.Decision{ID: d.ID, Title: d.Title, Timestamp: d.Timestamp, Type: note.DecisionType(d.Type),
			Context: d.Context, Options: d.Options, Chosen: d.Chosen, Rationale: d.Rationale, Outcome: note.Outcome(d.Outcome), Effects: effects})
	}
	for _, ev := range in.Events {
		e.Events = append(e.Events, note.Event{Timestamp: ev.Timestamp, Type: ev.Type, Text: parse.ItemText(oneLine(ev.Text))})
	}
	for _, l := range in.Lessons {
		e.Lessons = append(e.Lessons, note.Lesson{Text: oneLine(l)})
	}
	n := note.Note{Kind: note.KindEpisode, Type: "episode", Title: in.Title, Tags: in.Tags, Episode: e,
		Extra: map[string]any{writtenByKey: writtenByValue}}
	if in.Context != "" {
		n.Sections = []note.Section{{Heading: "Context", Markdown: in.Context}}
	}
	return n
}

// readsBack compares what the parse stage read with what was asked: a
// value that markdown would read otherwise (a lesson that is a heading,
// a decision title with a wikilink) is refused, never written changed.
func readsBack(n note.Note, in EpisodeInput) error {
	e := n.Episode
	switch {
	case e == nil || n.Title != in.Title:
		return fmt.Errorf("the title %q does not read back as written: choose a plainer title", in.Title)
	case e.Task != in.Task:
		return fmt.Errorf("the task does not read back as written: simplify it")
	case len(e.Decisions) != len(in.Decisions):
		return fmt.Errorf("%d decisions read back as %d: a decision's text holds markdown that starts a new block; simplify it", len(in.Decisions), len(e.Decisions))
	case len(e.Events) != len(in.Events):
		return fmt.Errorf("%d events read back as %d: an event's text holds markdown that starts a new block; simplify it", len(in.Events), len(e.Events))
	case len(e.Lessons) != len(in.Lessons):
		return fmt.Errorf("%d lessons read back as %d: a lesson holds markdown that starts a new block; simplify it", len(in.Lessons), len(e.Lessons))
	case in.Context != "" && strings.TrimSpace(n.SectionText("Context")) != strings.TrimSpace(in.Context):
		return fmt.Errorf("the context does not read back as written: it may not hold level-2 headings (## …)")
	}
	for i, d := range e.Decisions {
		if d.ID != in.Decisions[i].ID || d.Chosen != in.Decisions[i].Chosen || !slices.Equal(d.Options, in.Decisions[i].Options) {
			return fmt.Errorf("decision %s does not read back as written: simplify its id, options or chosen", in.Decisions[i].ID)
		}
	}
	return nil
}

// checkEpisode refuses what would make a wrong note, saying what to fix,
// and fills the defaults (decision ids, event timestamps).
func checkEpisode(in *EpisodeInput) error {
	if err := checkTitle(in.Title); err != nil {
		return err
	}
	o, ok := note.ParseOutcome(in.Outcome)
	switch {
	case strings.TrimSpace(in.Task) == "":
		return fmt.Errorf("the task is empty: say in a line what the session set out to do")
	case in.Outcome == "":
		return fmt.Errorf("the outcome is missing: give %s", note.OutcomeList)
	case !ok:
		return fmt.Errorf("the outcome %q is not %s", in.Outcome, note.OutcomeList)
	}
	in.Outcome, in.Task = string(o), oneLine(in.Task)
	if _, err := parse.ParseTime(in.Date); err != nil {
		return fmt.Errorf("the date %q is not an RFC 3339 time or a date (2026-05-01T10:00:00Z)", in.Date)
	}
	if err := checkSizes(in); err != nil {
		return err
	}
	for i := range in.Decisions {
		if err := checkDecision(&in.Decisions[i], i); err != nil {
			return err
		}
	}
	for i := range in.Events {
		e := &in.Events[i]
		if e.Timestamp == "" {
			e.Timestamp = in.Date
		}
		if strings.TrimSpace(e.Text) == "" || strings.ContainsAny(e.Timestamp, "[]\n") || e.Type != "" && !parse.IsWord(e.Type) {
			return fmt.Errorf("event %d: give its text, a timestamp without [ ] or line breaks, and a type of one word (tool_call, error, milestone…)", i+1)
		}
	}
	return nil
}

func checkDecision(d *DecisionInput, i int) error {
	if d.ID == "" {
		d.ID = fmt.Sprintf("d%03d", i+1)
	}
	for _, s := range []*string{&d.Title, &d.Timestamp, &d.Context, &d.Chosen, &d.Rationale, &d.Outcome} {
		*s = oneLine(*s)
	}
	switch {
	case !parse.IsWord(d.ID):
		return fmt.Errorf("decision %d: the id %q must be one word, such as d001", i+1, d.ID)
	case strings.Contains(d.Title, "[["):
		return fmt.Errorf("decision %s: the title may not hold a wikilink; put it under effects", d.ID)
	case d.Type != "" && !note.DecisionType(strings.ToLower(d.Type)).Valid():
		return fmt.Errorf("decision %s: the type %q is not one of %s", d.ID, d.Type, note.Join(note.DecisionTypes()))
	}
	for _, o := range d.Options {
		if strings.TrimSpace(o) == "" || strings.ContainsAny(o, ",\n") {
			return fmt.Errorf("decision %s: the option %q is empty or holds a comma or line break; options are written comma-separated, so rephrase it", d.ID, o)
		}
	}
	if d.Chosen != "" && len(d.Options) > 0 && !slices.Contains(d.Options, d.Chosen) {
		return fmt.Errorf("decision %s: chosen %q is not one of the options %q", d.ID, d.Chosen, d.Options)
	}
	return nil
}

// checkSizes refuses a field over the cap, by name, before anything else
// is done with it.
func checkSizes(in *EpisodeInput) error {
	fields := map[string]string{"task": in.Task, "context": in.Context, "session": in.Session, "source_thread": in.SourceThread}
	for i, l := range in.Lessons {
		fields[fmt.Sprintf("lesson %d", i+1)] = l
	}
	for i, d := range in.Decisions {
		fields[fmt.Sprintf("decision %d", i+1)] = d.Title + d.Context + d.Rationale + strings.Join(d.Options, ",")
	}
	for i, e := range in.Events {
		fields[fmt.Sprintf("event %d", i+1)] = e.Text
	}
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if len(fields[k]) > maxFieldBytes {
			return fmt.Errorf("the %s is %d bytes, over the limit of %d: shorten it", k, len(fields[k]), maxFieldBytes)
		}
	}
	return nil
}
