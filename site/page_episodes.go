package site

import "github.com/engramhq/engram/indexer/routes"

// episodesPage is the list of episodes, with its filters: by outcome,
// by tag and by month.
type episodesPage struct {
	Outcomes []outcomeCount `json:"outcomes"`
	Tags     []tagGroup     `json:"tags"`
	AllTags  []tagGroup     `json:"all_tags"`
	Months   int            `json:"months"`
}

func episodesPages(in input) []page {
	ix := in.ix
	return []page{{path: "episodes/_index.md", api: routes.Episodes, title: "Episodes", outputs: []string{"html", "rss"},
		params: episodesPage{Outcomes: ix.outcomes, Tags: ix.episodeTags(20), AllTags: ix.episodeTags(500), Months: len(ix.months)}}}
}
