package site

import (
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/routes"
)

// patternsPage is the table of patterns: it lists Hugo's pages of the
// section, with each pattern's score at the reference time, which its
// own page does not show (issue 30, decision 3).
type patternsPage struct {
	// Scores are by the slug of the pattern's page: Hugo lower-cases the
	// keys of front matter maps, and slugs are lower case already.
	Scores        map[string]export.Decayed `json:"scores"`
	ReferenceTime string                    `json:"reference_time"`
}

func patternsPages(in input) []page {
	scores := make(map[string]export.Decayed, len(in.s.Patterns))
	for _, p := range in.s.Patterns {
		scores[slug(p.URL)] = p.Decayed
	}
	return []page{{path: "patterns/_index.md", api: routes.Patterns, title: "Patterns", params: patternsPage{Scores: scores, ReferenceTime: in.s.Manifest.ReferenceTime}}}
}
