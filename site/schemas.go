package site

import (
	"slices"

	"github.com/engramhq/engram/indexer/export"
)

// The site writes JSON of its own: the twins of the pages whose document
// is no API file (writeTwins) and the graph explorer's data
// (writeGraphData). Their schemas are derived from the Go types that
// encode them, as the API's are (export.Schema), and published beside
// them as api/v1/schema/site-<kind>.schema.json. The build hands them to
// the export stage with its other late files, so that the manifest lists
// them; nothing before this stage knows the site's types.

// twinSchema is the schema of the JSON files at one kind of path.
type twinSchema struct {
	kind string // the page kind; the schema is site-<kind>.schema.json
	// file is the path of the files, a path.Match pattern in which *
	// stands for one path element (a tag's slug, a month).
	file  string
	title string
	v     any // a value of the type that encodes the files
}

// twinSchemas are the site's own JSON files, by page kind: what the
// kind's pages set as their twin (TestTwinSchemasMatchPages keeps the
// two in agreement). The graph explorer's data is its page's twin.
func twinSchemas() []twinSchema {
	return []twinSchema{
		{"decisions", "decisions/index.json", "engram decisions page's JSON twin: every decision of every episode, newest episode first", export.List[decisionRow]{}},
		{"graph", graphDataPath, "engram graph explorer's data (graph/index.json): the causal graph laid out, edges naming nodes by index", graphDoc{}},
		{"month", "timeline/*/index.json", "engram month page's JSON twin (timeline/<yyyy-mm>/index.json): the month's episode summaries", export.List[export.EpisodeSummary]{}},
		{"notes", "notes/index.json", "engram notes page's JSON twin: the notes that are neither episodes nor patterns", export.List[export.Ref]{}},
		{"outcome", "outcomes/*/index.json", "engram outcome page's JSON twin (outcomes/<outcome>/index.json): the outcome's episode summaries", export.List[export.EpisodeSummary]{}},
		{"outcomes", "outcomes/index.json", "engram outcomes page's JSON twin: how many episodes have each outcome", export.List[outcomeCount]{}},
		{"tag", "tags/*/index.json", "engram tag page's JSON twin (tags/<slug>/index.json): every note with the tag", tagGroup{}},
		{"tags", "tags/index.json", "engram tags page's JSON twin: every tag and how many notes have it", export.List[tagRow]{}},
		{"timeline", "timeline/index.json", "engram timeline page's JSON twin: the months and their outcomes", export.List[monthRow]{}},
	}
}

// SchemaFiles are the published schemas of the site's own JSON files,
// api/v1/schema/site-<kind>.schema.json, in the order of their names.
func SchemaFiles() ([]export.File, error) {
	var files []export.File
	for _, sc := range twinSchemas() {
		f, err := export.SchemaFile(schemaName(sc.kind), sc.title, sc.v)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

func schemaName(kind string) string { return "site-" + kind }

// SchemaMaps name the schemas of the site's own JSON files (its pages'
// twins), after the API's (export.SchemaMaps) in the manifest.
func SchemaMaps() []export.SchemaMap {
	var m []export.SchemaMap
	for _, sc := range twinSchemas() {
		m = append(m, export.SchemaMap{Files: sc.file, Schema: export.SchemaDir + schemaName(sc.kind) + ".schema.json"})
	}
	return m
}

// SchemaPath is where the schema of any JSON file of a build's output is
// published, as the manifest's schemas name it: the API's and
// feed.json's, and the site's own twins'. ok is false for a file without
// a schema: not JSON, or a schema itself.
func SchemaPath(file string) (string, bool) {
	return export.MatchSchema(slices.Concat(export.SchemaMaps(), SchemaMaps()), file)
}
