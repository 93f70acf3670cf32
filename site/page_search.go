package site

// searchPage is the search page: its script fetches the static index.
type searchPage struct{}

func searchPages(input) []page {
	return []page{{path: "search/_index.md", api: "api/v1/search/meta.json", title: "Search", params: searchPage{}}}
}
