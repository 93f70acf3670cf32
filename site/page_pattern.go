package site

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/site/internal/chart"
)

// patternPage is a pattern's page: its document, less the prose the
// template takes from HTML, with its charts and causal edges.
type patternPage struct {
	Doc       export.Pattern `json:"doc"`
	HTML      patternHTML    `json:"html"`
	EdgesOut  []edgeView     `json:"edges_out"`
	EdgesIn   []edgeView     `json:"edges_in"`
	Tags      []tagLink      `json:"tags"`
	FlagNotes []flagNote     `json:"flag_notes"`
}

// patternHTML is the prose of a pattern, rendered, and its charts. The
// rule is told once: the line under its heading says it in a sentence
// (the pattern's headline, from the front matter's trigger and action),
// and When and
// Then give the body's own Trigger and Action sections, which say it at
// length; they are not repeated among the other sections.
type patternHTML struct {
	// Heading is the page's heading, a few words (patternHeading); the
	// rule's sentence, the page's title, is under it.
	Heading      string            `json:"heading"`
	When         string            `json:"when"`
	Then         string            `json:"then"`
	Sections     []sectionHTML     `json:"sections"`
	Observations []observationHTML `json:"observations"`
	Dates        dates             `json:"dates"`
	Interval     string            `json:"interval"`
	Graph        string            `json:"graph"`
	// GraphKey names the drawing's numbered nodes, in full.
	GraphKey []chart.KeyEntry `json:"graph_key"`
}

func patternPages(in input) []page {
	s, ix := in.s, in.ix
	graphs := ix.neighbourhoodSVGs(s.Patterns)
	var ps []page
	for i, p := range s.Patterns {
		r := resolver(p.Links)
		when, then, rest := ruleSections(p.Sections)
		h := patternHTML{Heading: patternHeading(p), When: in.md.Block(when, r), Then: in.md.Block(then, r),
			Sections: renderSections(rest, in.md, r), Observations: observationsHTML(p.Observations, in.md, r), Dates: datesOf(*p.Source),
			Interval: chart.Interval(p), Graph: graphs[i].SVG, GraphKey: hoodKey(graphs[i].Key)}
		v := patternPage{HTML: h, EdgesOut: ix.edgeViews(p.EdgesOut, false), EdgesIn: ix.edgeViews(p.EdgesIn, true),
			Tags: ix.tagLinks(p.Tags), FlagNotes: flagNotes(p.Flags, rateWhy(p))}
		p.Links, p.Sections, p.Extra = nil, nil, nil
		v.Doc = p
		ps = append(ps, page{path: "patterns/" + slug(p.URL) + ".md", api: apiPath(p.JSONURL, s.BaseURL),
			title: ix.heads[p.URL], linkTitle: patternName(p.ID), description: patternDescription(p), date: p.Source.Created, lastmod: p.Source.Updated, params: v})
	}
	return ps
}

// hoodKey is the key of a neighbourhood drawing as the page lists it: a
// pattern by its name, the heading of its page, not its rule too (the
// label headlineGraph gives it, for the drawing's tooltips).
func hoodKey(key []chart.KeyEntry) []chart.KeyEntry {
	out := slices.Clone(key)
	for i, e := range out {
		if name, _, ok := strings.Cut(e.Label, " — "); ok && (e.Type == "pattern" || e.Type == "antipattern") {
			out[i].Label = name
		}
	}
	return out
}

// patternHeading is a pattern's heading: its title, when it has one of
// its own, else its name (patternName). Its rule, a sentence of up to
// two headlines' length, is six lines of a heading on a phone.
func patternHeading(p export.Pattern) string {
	t := export.PlainText(p.Title)
	if t == "" || strings.EqualFold(t, p.ID) {
		return patternName(p.ID)
	}
	return export.NoteHeadline(t, p.ID)
}

// neighbourhoodSVGs draws every pattern's neighbourhood, on all CPUs:
// it is most of the time spent making the pages of a large repository.
func (ix *index) neighbourhoodSVGs(ps []export.Pattern) []chart.Drawing {
	out := make([]chart.Drawing, len(ps))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(ps)) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(ps); i = int(next.Add(1)) - 1 {
				out[i] = ix.hood.Draw(ps[i].ID)
			}
		})
	}
	wg.Wait()
	return out
}

// edgeView is a causal edge as a pattern page lists it: the note at its
// other end, with that note's page.
type edgeView struct {
	Type          string  `json:"type"`
	Other         string  `json:"other"`
	URL           string  `json:"url"`
	Weight        float64 `json:"weight"`
	EvidenceCount int     `json:"evidence_count"`
}

func (ix *index) edgeViews(edges []note.Edge, in bool) []edgeView {
	out := []edgeView{}
	for _, e := range edges {
		other := e.Target
		if in {
			other = e.Source
		}
		out = append(out, edgeView{Type: string(e.Type), Other: other, URL: ix.urls[other], Weight: e.Weight, EvidenceCount: e.EvidenceCount})
	}
	return out
}

// ruleSections takes a pattern body's Trigger and Action sections out of
// its sections: the rule at length.
func ruleSections(ss []export.Section) (trigger, action string, rest []export.Section) {
	for _, s := range ss {
		switch strings.ToLower(strings.TrimSpace(s.Heading)) {
		case "trigger", "when":
			trigger = strings.TrimSpace(trigger + "\n\n" + s.Markdown)
		case "action", "then":
			action = strings.TrimSpace(action + "\n\n" + s.Markdown)
		default:
			rest = append(rest, s)
		}
	}
	return trigger, action, rest
}

// listed is what the pattern lists and the home page show of a pattern
// besides its title and link (batch.go).
func (v patternPage) listed() any {
	type doc struct {
		ID          string   `json:"id"`
		SuccessRate *float64 `json:"success_rate"`
		Occurrences int      `json:"occurrences"`
		Confidence  *float64 `json:"confidence"`
		StatsSource string   `json:"stats_source"`
		Antipattern bool     `json:"antipattern"`
		Flags       []string `json:"flags"`
	}
	d := v.Doc
	return struct {
		Doc doc `json:"doc"`
	}{doc{ID: d.ID, SuccessRate: d.SuccessRate, Occurrences: d.Occurrences, Confidence: d.Confidence, StatsSource: d.StatsSource, Antipattern: d.Antipattern, Flags: d.Flags}}
}
