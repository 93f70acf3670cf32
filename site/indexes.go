package site

import (
	"slices"
	"sort"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/site/internal/chart"
)

// index holds what the index pages and the note pages look up across
// notes: who cites an episode, the page of every graph node, the notes of
// every tag and the episodes of every month. It is made once per build.
type index struct {
	citedBy map[string][]export.Ref // episode id -> patterns citing it as evidence
	urls    map[string]string       // graph node id -> page
	heads   map[string]string       // page -> the headline of its note
	hood    *chart.Neighbourhoods
	tags    []tagGroup   // by slug
	months  []monthGroup // newest first
	// chart is the outcomes over time (home and timeline); outcomes
	// counts the episodes by outcome (episodes and outcomes pages).
	chart    string
	outcomes []outcomeCount
	version  int
	ref      string
	base     string
}

// tagGroup is a tag's page: every note with the tag, whatever its
// spelling ("Flaky" and "flaky" share a slug and a page).
type tagGroup struct {
	Slug      string    `json:"slug"`
	Tag       string    `json:"tag"`
	Spellings []string  `json:"spellings"`
	URL       string    `json:"url"`
	Episodes  int       `json:"episodes"`
	Items     []tagItem `json:"items"`
}

// tagItem is a note with a tag.
type tagItem struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	URL     string `json:"url"`
	Date    string `json:"date,omitempty"`
	Outcome string `json:"outcome,omitempty"`
}

// monthGroup is a month of the timeline.
type monthGroup struct {
	Month    string                  `json:"month"` // YYYY-MM, or "undated"
	URL      string                  `json:"url"`
	Count    int                     `json:"count"`
	Outcomes map[string]int          `json:"outcomes"`
	Episodes []export.EpisodeSummary `json:"-"`
}

// unknown is the outcome page of the episodes without a valid outcome.
const unknown = "unknown"

// outcomes are the outcome pages: the valid outcomes in their order, then
// unknown.
func outcomes() []string {
	var out []string
	for _, o := range note.Outcomes() {
		out = append(out, string(o))
	}
	return append(out, unknown)
}

func outcomeOf(e export.EpisodeHead) string {
	if e.Outcome.Valid() {
		return string(e.Outcome)
	}
	return unknown
}

func newIndex(s *export.Site) *index {
	ix := &index{citedBy: map[string][]export.Ref{}, urls: map[string]string{}, heads: headlines(s),
		version: export.SchemaVersion, ref: s.Manifest.ReferenceTime, base: s.BaseURL}
	for _, p := range s.Patterns {
		for _, e := range p.Evidence {
			ix.citedBy[e.ID] = append(ix.citedBy[e.ID], export.Ref{ID: p.ID, Type: p.Type, URL: p.URL})
		}
	}
	for _, n := range s.Graph.Nodes {
		ix.urls[n.ID] = n.URL
	}
	ix.hood = chart.NewNeighbourhoods(headlineGraph(s, ix.heads))
	ix.tags = ix.groupTags(s)
	ix.months = ix.groupMonths(s)
	ix.chart = chart.Outcomes(episodeHeads(s))
	ix.outcomes = outcomeCounts(s)
	return ix
}

func (ix *index) groupTags(s *export.Site) []tagGroup {
	bySlug := map[string]*tagGroup{}
	add := func(tags []string, it tagItem) {
		seen := map[string]bool{}
		for _, t := range tags {
			sl := export.Slug(t)
			if seen[sl] {
				continue
			}
			seen[sl] = true
			g := bySlug[sl]
			if g == nil {
				g = &tagGroup{Slug: sl, Tag: t, URL: ix.base + "tags/" + sl + "/"}
				bySlug[sl] = g
			}
			if !slices.Contains(g.Spellings, t) {
				g.Spellings = append(g.Spellings, t)
			}
			if it.Type == "episode" {
				g.Episodes++
			}
			g.Items = append(g.Items, it)
		}
	}
	// Patterns and other notes first: a tag's page lists its first
	// maxListed notes, and its episodes are the many.
	for _, p := range s.Patterns {
		add(p.Tags, tagItem{ID: p.ID, Type: p.Type, URL: p.URL})
	}
	for _, n := range s.Notes {
		add(n.Tags, tagItem{ID: n.ID, Type: n.Type, URL: n.URL})
	}
	for _, e := range s.Episodes {
		add(e.Tags, tagItem{ID: e.ID, Type: "episode", URL: e.URL, Date: e.Date, Outcome: string(e.Outcome)})
	}
	out := make([]tagGroup, 0, len(bySlug))
	for _, g := range bySlug {
		sort.Strings(g.Spellings)
		g.Tag = g.Spellings[0]
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slug < out[j].Slug })
	return out
}

func (ix *index) groupMonths(s *export.Site) []monthGroup {
	var out []monthGroup
	at := map[string]int{}
	for _, e := range s.Episodes { // newest first
		m := "undated"
		if len(e.Date) >= 7 && e.Date[4] == '-' {
			m = e.Date[:7]
		}
		i, ok := at[m]
		if !ok {
			i = len(out)
			at[m] = i
			out = append(out, monthGroup{Month: m, URL: ix.base + "timeline/" + m + "/", Outcomes: map[string]int{}})
		}
		g := &out[i]
		g.Count++
		g.Outcomes[outcomeOf(e.EpisodeHead)]++
		g.Episodes = append(g.Episodes, e.Summary())
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Month > out[j].Month })
	return out
}

// tagLink is a tag and its page.
type tagLink struct {
	Tag string `json:"tag"`
	URL string `json:"url"`
}

func (ix *index) tagLinks(tags []string) []tagLink {
	out := make([]tagLink, len(tags))
	for i, t := range tags {
		out[i] = tagLink{Tag: t, URL: ix.base + "tags/" + export.Slug(t) + "/"}
	}
	return out
}

// episodeTags are the n tags most used by episodes, most used first.
func (ix *index) episodeTags(n int) []tagGroup {
	var out []tagGroup
	for _, g := range ix.tags {
		if g.Episodes > 0 {
			out = append(out, tagGroup{Slug: g.Slug, Tag: g.Tag, URL: g.URL, Episodes: g.Episodes})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Episodes > out[j].Episodes })
	return first(out, n)
}

// maxListed caps a list page: the rest is in its JSON twin and on the
// timeline's month pages.
const maxListed = 500

// outcomeCount is an outcome and how many episodes have it.
type outcomeCount struct {
	Outcome string `json:"outcome"`
	Count   int    `json:"count"`
	URL     string `json:"url"`
}

func outcomeCounts(s *export.Site) []outcomeCount {
	n := map[string]int{}
	for _, e := range s.Episodes {
		n[outcomeOf(e.EpisodeHead)]++
	}
	out := []outcomeCount{}
	for _, o := range outcomes() {
		out = append(out, outcomeCount{Outcome: o, Count: n[o], URL: s.BaseURL + "outcomes/" + o + "/"})
	}
	return out
}

func episodeHeads(s *export.Site) []export.EpisodeHead {
	out := make([]export.EpisodeHead, len(s.Episodes))
	for i, e := range s.Episodes {
		out[i] = e.EpisodeHead
	}
	return out
}

// heads are the heads of episode summaries: what a page that lists
// episodes shows of them. A page's front matter carries no score, which
// moves with the reference time (issue 30, decision 3), so the page
// stays reusable; its JSON twin, a list file, has the summaries.
func heads(es []export.EpisodeSummary) []export.EpisodeHead {
	out := make([]export.EpisodeHead, len(es))
	for i, e := range es {
		out[i] = e.EpisodeHead
	}
	return out
}
