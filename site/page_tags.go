package site

import "github.com/engramhq/engram/indexer/export"

// tagsPage lists every tag with how many notes have it.
type tagsPage struct {
	Tags []tagRow `json:"tags"`
}

type tagRow struct {
	Tag   string `json:"tag"`
	Count int    `json:"count"`
	URL   string `json:"url"`
}

func tagsPages(in input) []page {
	ix := in.ix
	rows := []tagRow{}
	for _, g := range ix.tags {
		rows = append(rows, tagRow{Tag: g.Tag, Count: len(g.Items), URL: g.URL})
	}
	return []page{{path: "tags/_index.md", twin: export.List[tagRow]{Version: ix.version, ReferenceTime: ix.ref, Items: rows},
		title: "Tags", params: tagsPage{Tags: rows}}}
}
