package site

import (
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/routes"
)

// antipatternsPage lists the antipatterns, by their pages' slugs.
type antipatternsPage struct {
	Antipatterns []string `json:"antipatterns"`
}

func antipatternsPages(in input) []page {
	return []page{{path: "antipatterns/_index.md", api: routes.Antipatterns, title: "Antipatterns",
		params: antipatternsPage{Antipatterns: antipatternSlugs(in.s)}}}
}

// antipatternSlugs lists the antipatterns' page slugs in SPEC §3's order.
func antipatternSlugs(s *export.Site) []string {
	out := []string{}
	for _, p := range s.Antipatterns {
		out = append(out, slug(p.URL))
	}
	return out
}
