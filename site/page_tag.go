package site

// tagPage is a tag's page: the first maxListed notes with the tag.
type tagPage struct {
	Tag   tagGroup `json:"tag"`
	Count int      `json:"count"`
	More  int      `json:"more"`
}

func tagPages(in input) []page {
	var ps []page
	for _, g := range in.ix.tags {
		shown := g
		shown.Items = first(g.Items, maxListed)
		ps = append(ps, page{path: "tags/" + g.Slug + ".md", twin: g, title: "#" + g.Tag,
			params: tagPage{Tag: shown, Count: len(g.Items), More: len(g.Items) - len(shown.Items)}})
	}
	return ps
}
