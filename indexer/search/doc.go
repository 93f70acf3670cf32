package search

import (
	"regexp"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/export"
)

// Doc is one searchable note, flat: what the index maps and what the
// similarity of episodes compares.
type Doc struct {
	ID, Type, Title string
	// Headline is what a result shows first (export.EpisodeHeadline...),
	// Summary the start of its prose, what it shows next.
	Headline, Summary string
	// Task is an episode's task, or a pattern's trigger and action.
	Task string
	// Body is the rest of the note's prose as plain text: sections,
	// context, observations, decisions and events.
	Body    string
	Lessons string
	Outcome string
	URL     string
	Tags    []string
	Date    time.Time
	// Similar is what similar episodes compare besides the task: an
	// episode's context, decisions, events' contents and lessons ("" for
	// other notes).
	Similar string
	// Flags are graph health's flags of an episode ("fixture", "empty"):
	// a flagged episode is never offered as similar.
	Flags []string
	// Poisoning are the note's texts flagged for memory poisoning: what a
	// hit shows an agent (brief) withholds them.
	Poisoning []export.Poisoning
}

// Kinds of document, as `engram search --type` names them.
const (
	KindEpisode = "episode"
	KindPattern = "pattern"
	KindNote    = "note"
)

// kind is the folder of a document's type: antipatterns are patterns,
// concepts, sessions and the rest are notes.
func kind(typ string) string {
	switch typ {
	case "episode":
		return KindEpisode
	case "pattern", "antipattern":
		return KindPattern
	}
	return KindNote
}

// DocsFromSite returns the documents of a build, in the site's order:
// episodes (newest first), patterns, then other notes (by id).
func DocsFromSite(s *export.Site) []Doc {
	docs := make([]Doc, 0, len(s.Episodes)+len(s.Patterns)+len(s.Notes))
	for i := range s.Episodes {
		docs = append(docs, episodeDoc(&s.Episodes[i]))
	}
	for i := range s.Patterns {
		docs = append(docs, patternDoc(&s.Patterns[i]))
	}
	for i := range s.Notes {
		docs = append(docs, noteDoc(&s.Notes[i]))
	}
	return docs
}

func episodeDoc(e *export.Episode) Doc {
	var body, decisions text
	body.add(e.Context)
	body.observations(e.Observations)
	for _, d := range e.Decisions {
		decisions.add(d.Title, d.Context, strings.Join(d.Options, ", "), d.Chosen, d.Rationale)
	}
	body.add(decisions.String())
	for _, ev := range e.Events {
		body.add(ev.Content)
	}
	body.sections(e.Sections)
	lessons := strings.Join(e.Lessons, "\n")
	var similar text
	similar.add(e.Context, decisions.String())
	for _, ev := range e.Events {
		similar.add(ev.Content)
	}
	similar.add(lessons)
	return Doc{
		ID: e.ID, Type: "episode", Title: e.Title, Headline: export.EpisodeHeadline(e.Task, e.ID), Summary: summary(e.Context, e.Sections), Task: e.Task, Body: body.String(), Lessons: lessons,
		Outcome: string(e.Outcome), URL: e.URL, Tags: e.Tags, Date: parseTime(e.Date),
		Similar: similar.String(), Flags: e.Flags, Poisoning: e.Poisoning,
	}
}

func patternDoc(p *export.Pattern) Doc {
	var task, body text
	task.add(p.Trigger, p.Action)
	body.sections(p.Sections)
	d := Doc{ID: p.ID, Type: p.Type, Title: p.Title, Headline: export.PatternHeadline(p.Trigger, p.Action, p.ID), Summary: summary("", p.Sections), Task: task.String(), Body: body.String(), URL: p.URL, Tags: p.Tags, Poisoning: p.Poisoning}
	if p.Source != nil {
		d.Date = parseTime(p.Source.Created)
	}
	return d
}

func noteDoc(n *export.Note) Doc {
	var body text
	body.sections(n.Sections)
	body.observations(n.Observations)
	return Doc{ID: n.ID, Type: n.Type, Title: n.Title, Headline: export.NoteHeadline(n.Title, n.ID), Summary: summary("", n.Sections), Body: body.String(), URL: n.URL, Tags: n.Tags, Date: parseTime(n.Source.Created), Poisoning: n.Poisoning}
}

// summary is the start of a note's prose: its context, else its first
// section with text, as plain text. Tables are left out: a row run into
// one line ("| Field | Value | |---|") reads as noise.
func summary(context string, ss []export.Section) string {
	prose := func(md string) string { return export.PlainText(mdTableRow.ReplaceAllString(md, "")) }
	if s := prose(context); s != "" {
		return s
	}
	for _, s := range ss {
		if t := prose(s.Markdown); t != "" {
			return t
		}
	}
	return ""
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(export.TimeFormat, s)
	return t.UTC()
}

// text joins the non-empty parts of a note's prose, one a line.
type text struct{ b strings.Builder }

func (t *text) add(parts ...string) {
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			if t.b.Len() > 0 {
				t.b.WriteByte('\n')
			}
			t.b.WriteString(p)
		}
	}
}

func (t *text) sections(ss []export.Section) {
	for _, s := range ss {
		t.add(s.Heading, plain(s.Markdown))
	}
}

func (t *text) observations(os []export.Observation) {
	for _, o := range os {
		t.add(o.Content, o.Context)
	}
}

func (t *text) String() string { return t.b.String() }

// mdTableRow is a line of a markdown table.
var mdTableRow = regexp.MustCompile(`(?m)^[ \t]*\|.*$`)

// mdLink is the destination of a markdown link or image: its words are a
// URL's, not the note's.
var mdLink = regexp.MustCompile(`\]\([^)\s]*(\s+"[^"]*")?\)`)

// plain is markdown as the analyzer should see it: link destinations
// dropped; the rest of the syntax is punctuation, which the tokenizer
// drops anyway.
func plain(md string) string {
	return mdLink.ReplaceAllString(md, "]")
}
