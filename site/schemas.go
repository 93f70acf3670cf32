package site

import (
	"cmp"
	"slices"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/routes"
)

// The site writes JSON of its own: the twins of the pages whose document
// is no API file (writeTwins) and the graph explorer's data
// (writeGraphData). Their schemas are derived from the Go types that
// encode them, as the API's are (export.Schema), and published beside
// them as api/v1/schema/site-<kind>.schema.json. Each is its kind's twin
// (kind.twin); the build hands them to the export stage as its later
// families (Docs), so that the manifest lists them and their schemas are
// published; nothing before this stage knows the site's types.

// twinSchema is the schema of the JSON files at one kind of path.
type twinSchema struct {
	// file is the path of the files, a path.Match pattern in which *
	// stands for one path element (a tag's slug, a month).
	file  string
	title string
	v     any // a value of the type that encodes the files
}

// twinOf is the schema of the twins of the pages in dir, a path.Match
// pattern of their folder (tags/*).
func twinOf(dir, title string, v any) *twinSchema {
	return &twinSchema{routes.Twin(dir), title, v}
}

// Docs are the site's own JSON files, a family per page kind that writes
// its twin (the graph explorer's data is its page's twin), in the order
// of their kinds' names, for the registry of what a build publishes.
func Docs() []export.Doc {
	var docs []export.Doc
	for _, k := range kinds() {
		if k.twin != nil {
			docs = append(docs, export.Doc{Path: k.twin.file, Schema: schemaName(k.name), Title: k.twin.title, Type: k.twin.v})
		}
	}
	slices.SortFunc(docs, func(a, b export.Doc) int { return cmp.Compare(a.Schema, b.Schema) })
	return docs
}

func schemaName(kind string) string { return "site-" + kind }
