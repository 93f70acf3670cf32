package site

import "github.com/engramhq/engram/indexer/export"

// notePage is the page of a note that is neither an episode nor a
// pattern: a thread, a session, a concept...
type notePage struct {
	Doc  export.Note `json:"doc"`
	HTML noteHTML    `json:"html"`
	Tags []tagLink   `json:"tags"`
	// FlagNotes explain the note's flags (memory poisoning) in its banner.
	FlagNotes []flagNote `json:"flag_notes"`
}

// noteHTML is the prose of a note, rendered.
type noteHTML struct {
	Sections     []sectionHTML     `json:"sections"`
	Observations []observationHTML `json:"observations"`
	Dates        dates             `json:"dates"`
}

func notePages(in input) []page {
	s := in.s
	var ps []page
	for _, n := range s.Notes {
		r := resolver(n.Links)
		h := noteHTML{Sections: renderSections(n.Sections, in.md, r), Observations: observationsHTML(n.Observations, in.md, r), Dates: datesOf(n.Source)}
		n.Links, n.Sections, n.Extra = nil, nil, nil
		ps = append(ps, page{path: "notes/" + slug(n.URL) + ".md", api: apiPath(n.JSONURL, s.BaseURL),
			title: in.ix.heads[n.URL], description: noteDescription(n), date: n.Source.Created, lastmod: n.Source.Updated,
			params: notePage{Doc: n, HTML: h, Tags: in.ix.tagLinks(n.Tags), FlagNotes: flagNotes(n.Flags, "")}})
	}
	return ps
}

// listed is what the notes' list shows of a note besides its title and
// link (batch.go).
func (v notePage) listed() any {
	type doc struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	}
	return struct {
		Doc doc `json:"doc"`
	}{doc{ID: v.Doc.ID, Type: v.Doc.Type}}
}
