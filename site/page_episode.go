package site

import "github.com/engramhq/engram/indexer/export"

// episodePage is an episode's page. It carries the episode's document,
// less what the template takes from the rendered HTML instead (prose,
// resolved links, extra keys): Hugo decodes every byte of front matter.
type episodePage struct {
	Doc  export.Episode `json:"doc"`
	HTML episodeHTML    `json:"html"`
	// The patterns that cite the episode have their own list: the other
	// backlinks are "linked from".
	CitedBy    []export.Ref `json:"cited_by"`
	LinkedFrom []export.Ref `json:"linked_from"`
	Tags       []tagLink    `json:"tags"`
	FlagNotes  []flagNote   `json:"flag_notes"`
	// Prev is the next older episode, Next the next newer one.
	Prev *export.Ref `json:"prev,omitempty"`
	Next *export.Ref `json:"next,omitempty"`
}

// episodeHTML is the prose of an episode, rendered.
type episodeHTML struct {
	Context      string            `json:"context"`
	Sections     []sectionHTML     `json:"sections"`
	Observations []observationHTML `json:"observations"`
	Dates        dates             `json:"dates"`
	Decisions    []decisionHTML    `json:"decisions"`
	Events       []string          `json:"events"`
	Lessons      []string          `json:"lessons"`
	// Heading is the task rendered, when the headline is all of it (the
	// page's heading, with the task's links and emphasis); else Task is,
	// under the heading, which is the headline.
	Heading string `json:"heading"`
	Task    string `json:"task"`
	// Events' and decisions' timestamps in words, in their order.
	EventTimes    []when `json:"event_times"`
	DecisionTimes []when `json:"decision_times"`
}

type decisionHTML struct {
	Anchor    string `json:"anchor"`
	Context   string `json:"context"`
	Rationale string `json:"rationale"`
}

func episodePages(in input) []page {
	s, ix := in.s, in.ix
	var ps []page
	for i, e := range s.Episodes {
		v := episodePage{HTML: renderEpisode(e, in.md), CitedBy: ix.citedBy[e.ID], Tags: ix.tagLinks(e.Tags),
			LinkedFrom: without(e.Backlinks, ix.citedBy[e.ID]), FlagNotes: flagNotes(e.Flags, "")}
		// Episodes are sorted newest first: the previous one is older.
		if i+1 < len(s.Episodes) {
			v.Prev = &export.Ref{ID: s.Episodes[i+1].ID, Type: "episode", URL: s.Episodes[i+1].URL}
		}
		if i > 0 {
			v.Next = &export.Ref{ID: s.Episodes[i-1].ID, Type: "episode", URL: s.Episodes[i-1].URL}
		}
		e.Links, e.Sections, e.Extra = nil, nil, nil
		v.Doc = e
		ps = append(ps, page{path: "episodes/" + slug(e.URL) + ".md", api: apiPath(e.JSONURL, s.BaseURL),
			title: ix.heads[e.URL], description: episodeDescription(e), date: e.Created, lastmod: e.Updated, params: v})
	}
	return ps
}

func renderEpisode(e export.Episode, md markdown) episodeHTML {
	r := resolver(e.Links)
	decisions := make([]decisionHTML, len(e.Decisions))
	for i, d := range e.Decisions {
		decisions[i] = decisionHTML{Anchor: anchor(d.ID), Context: md.Inline(d.Context, r), Rationale: md.Inline(d.Rationale, r)}
	}
	events := make([]string, len(e.Events))
	eventTimes := make([]string, len(e.Events))
	for i, ev := range e.Events {
		events[i] = md.Inline(ev.Content, r)
		eventTimes[i] = ev.Timestamp
	}
	decisionTimes := make([]when, len(e.Decisions))
	for i, d := range e.Decisions {
		decisionTimes[i] = whenOf(d.Timestamp, "")
	}
	lessons := make([]string, len(e.Lessons))
	for i, l := range e.Lessons {
		lessons[i] = md.Inline(l, r)
	}
	return episodeHTML{
		Context:       md.Block(e.Context, r),
		Sections:      renderSections(e.Sections, md, r),
		Observations:  observationsHTML(e.Observations, md, r),
		Decisions:     decisions,
		Events:        events,
		Lessons:       lessons,
		Heading:       heading(e, md, r),
		Task:          fullTask(e, md, r),
		EventTimes:    whens(eventTimes),
		DecisionTimes: decisionTimes,
		Dates:         datesOf(e.Source),
	}
}

// heading is the task, rendered, when the episode's headline says all
// of it; fullTask is, when the headline does not.
func heading(e export.Episode, md markdown, r Resolver) string {
	if !wholeTask(e) {
		return ""
	}
	return md.Inline(e.Task, r)
}

func fullTask(e export.Episode, md markdown, r Resolver) string {
	if wholeTask(e) {
		return ""
	}
	return md.Inline(e.Task, r)
}

func wholeTask(e export.Episode) bool {
	t := export.PlainText(e.Task)
	return t != "" && export.EpisodeHeadline(e.Task, e.ID) == t
}

// listed is what the episode lists, the home page and the feed show of
// an episode besides its title, dates and link (batch.go).
func (v episodePage) listed() any {
	type doc struct {
		ID      string `json:"id"`
		Date    string `json:"date"`
		Outcome string `json:"outcome"`
		Task    string `json:"task"`
	}
	return struct {
		Doc doc `json:"doc"`
	}{doc{ID: v.Doc.ID, Date: v.Doc.Date, Outcome: v.Doc.Outcome, Task: v.Doc.Task}}
}
