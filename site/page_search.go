package site

import "github.com/engramhq/engram/indexer/routes"

// searchPage is the search page: its script fetches the static index.
type searchPage struct{}

func searchPages(input) []page {
	return []page{{path: "search/_index.md", api: routes.Search("meta.json"), title: "Search", params: searchPage{}}}
}
