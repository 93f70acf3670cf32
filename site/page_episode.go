package site

import (
	"cmp"
	"html"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/export"
)

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
	// page's heading, with the task's links and emphasis); else Task is
	// the rest of it, under the heading, which is the headline (taskParts).
	Heading string `json:"heading"`
	Task    string `json:"task"`
	// Events' and decisions' timestamps in words, in their order.
	EventTimes    []when `json:"event_times"`
	DecisionTimes []when `json:"decision_times"`
}

// decisionHTML is what a decision's entry shows besides its title, type,
// options, outcome and effects: each of context, chosen and rationale
// only when it says something the entry has not said above it
// (shownOnce); the JSON keeps them all.
type decisionHTML struct {
	Anchor string `json:"anchor"`
	// Title is the entry's heading: the decision's title, or the field
	// its title is the cut start of (cutTitle).
	Title     string `json:"title"`
	Context   string `json:"context"`
	Chosen    string `json:"chosen"`
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
		decisions[i] = renderDecision(d, md, r)
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
	heading, task := taskParts(e, md, r)
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
		Heading:       heading,
		Task:          task,
		EventTimes:    whens(eventTimes),
		DecisionTimes: decisionTimes,
		Dates:         datesOf(e.Source),
	}
}

// renderDecision renders a decision's prose, each field once: a field
// whose words the entry already shows (its title, or a field above it)
// is left out. The chosen option is left out when it is one of the
// options, which the page marks as chosen.
func renderDecision(d export.Decision, md markdown, r Resolver) decisionHTML {
	out := decisionHTML{Anchor: anchor(d.ID), Title: html.EscapeString(cmp.Or(d.Title, d.ID))}
	shown := []string{d.Title}
	field := cutTitle(d)
	once := func(s string, f *string, escape bool) {
		switch {
		case shownIn(s, shown):
		case s == field:
			*f = restAfter(s, d.Title, md, r)
		case escape:
			*f = html.EscapeString(s)
		default:
			*f = md.Inline(s, r)
		}
		shown = append(shown, s)
	}
	if field != "" && utf8.RuneCountInString(export.PlainText(field)) <= 2*export.HeadlineRunes {
		// Short enough for a heading: the whole of it is the heading.
		out.Title, shown = md.Inline(field, r), []string{field}
	}
	once(d.Context, &out.Context, false)
	shown = append(shown, d.Options...)
	if !slices.Contains(d.Options, d.Chosen) {
		once(d.Chosen, &out.Chosen, true)
	}
	once(d.Rationale, &out.Rationale, false)
	return out
}

// cutTitle is the field (context, chosen option or rationale) whose
// start the decision's title is, cut with an ellipsis, as ai-agents
// titles a decision; "" when the title is not cut so.
func cutTitle(d export.Decision) string {
	stem, cut := strings.CutSuffix(d.Title, "…")
	if !cut || wordsOf(stem) == "" {
		return ""
	}
	for _, f := range []string{d.Context, d.Chosen, d.Rationale} {
		if strings.HasPrefix(wordsOf(f)+" ", wordsOf(stem)) {
			return f
		}
	}
	return ""
}

// shownIn reports whether s says nothing that one of shown does not:
// its words, compared without case or punctuation, are empty or among
// one of shown's, in order.
func shownIn(s string, shown []string) bool {
	w := wordsOf(s)
	if w == "" {
		return true
	}
	return slices.ContainsFunc(shown, func(o string) bool { return strings.Contains(" "+wordsOf(o)+" ", " "+w+" ") })
}

// wordsOf is s's plain text in lower case, its words joined by single
// spaces: what two texts that read the same have in common.
func wordsOf(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(export.PlainText(s)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// taskParts splits the task between the page's heading and the line
// under it, so that no word is shown twice. A task the headline says in
// full is the heading, rendered; a longer one has the headline as its
// heading (the page's title: heading is "") and the rest of the task
// under it, after the first sentence or, when the headline is cut, from
// the cut on, behind an ellipsis. The rest keeps its markup when the
// task's markdown can be cut where the headline ends; else it is the
// plain text after the headline.
func taskParts(e export.Episode, md markdown, r Resolver) (heading, rest string) {
	if wholeTask(e) {
		return md.Inline(e.Task, r), ""
	}
	if export.PlainText(e.Task) == "" {
		return "", ""
	}
	return "", restAfter(e.Task, export.EpisodeHeadline(e.Task, e.ID), md, r)
}

// restAfter is the markdown src, rendered, less its start head: a
// headline of it, its plain text's first sentence or cut with an
// ellipsis, which the page shows above. The rest of a cut sentence
// follows an ellipsis.
func restAfter(src, head string, md markdown, r Resolver) string {
	stem, cut := strings.CutSuffix(head, "…")
	more := ""
	if cut {
		more = "…"
	}
	if k := cutAfter(src, stem); k > 0 {
		return more + md.Inline(trimJoin(src[k:], cut), r)
	}
	plain := export.PlainText(src)
	rest, _ := strings.CutPrefix(plain, stem)
	return more + html.EscapeString(trimJoin(rest, cut))
}

// cutAfter is the end of the shortest start of the markdown src whose
// plain text is stem, at a space or a sentence's end; 0 when there is
// none (the cut falls inside a link or an emphasis).
func cutAfter(src, stem string) int {
	limit := min(len(src), 4*len(stem)+64) // markup is not longer than that
	for k := len(stem); k <= limit; k++ {
		if k < len(src) && !strings.ContainsRune(" \t\n.!?", rune(src[k])) {
			continue
		}
		if export.PlainText(src[:k]) == stem {
			return k
		}
	}
	return 0
}

// trimJoin is the rest of a task after its headline without what joined
// them: the first sentence's full stop, or the punctuation Clip drops.
func trimJoin(rest string, cut bool) string {
	rest = strings.TrimSpace(rest)
	if cut {
		return strings.TrimLeft(rest, " ,;:-–—")
	}
	return strings.TrimSpace(strings.TrimLeft(rest, ".!?"))
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
	}{doc{ID: v.Doc.ID, Date: v.Doc.Date, Outcome: string(v.Doc.Outcome), Task: v.Doc.Task}}
}
