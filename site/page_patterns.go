package site

// patternsPage is the table of patterns; it lists Hugo's pages of the
// section, and needs nothing more.
type patternsPage struct{}

func patternsPages(input) []page {
	return []page{{path: "patterns/_index.md", api: "api/v1/patterns.json", title: "Patterns", params: patternsPage{}}}
}
