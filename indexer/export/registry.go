package export

import (
	"fmt"
	"path"

	"github.com/engramhq/engram/indexer/routes"
)

// The registry is what a build publishes: a Doc per family of files, in
// the order the manifest's schemas try them. The files Files writes, the
// manifest's files and schemas, the schema files, SchemaPath and
// MatchSchema are derived from it; a new output file is one entry (and,
// when a later stage makes it, that stage's Doc in Later.Docs).
//
// Export's table (Docs) names every family of the API and the root,
// those the later stages make too (the bootstrap, the static search
// index) by path and schema only, where the manifest lists them: a later
// stage hands their Docs forward in Later.Docs, with their schema's title
// and type, and its files in Later.Files. A later Doc no entry names (a
// site's JSON twin) is added after the table. Nothing a later stage makes
// is written into what export made: the registry of a build is
// Site.Registry, export's table with what With was given.

// Doc is one family of published files.
type Doc struct {
	// Path is the files' path from the output root, or a path.Match
	// pattern in which * stands for any part of one path element.
	Path string
	// Schema is the name of the files' JSON Schema, published at
	// routes.Schema(Schema); "" for files that have none (Markdown,
	// text).
	Schema string
	// Title is the schema's title, and Type a value of the Go type that
	// encodes the files, which the schema is derived from. A Type of nil
	// in export's table is a family a later stage adds.
	Title string
	Type  any
	// value makes the file from the documents. It is nil for the
	// families of documents (documentFiles), the manifest (made last,
	// from the other files) and what a later stage makes.
	value func(s *Site) ([]byte, error)
	// LLMs is the family's line in llms.txt; zero for one it does not
	// list.
	LLMs LLMsLine
	// late: a later stage adds the family (a placeholder of export's
	// table, which names its path, its schema and its line in llms.txt).
	late bool
}

// LLMsLine is a link of llms.txt (llmstxt.org): in its section, in the
// order of Rank, "- [Name](link): About".
type LLMsLine struct {
	Section string // one of llmsSections
	Rank    int
	Name    string
	// Link is the path linked when it is not the family's own (a
	// pattern's): the manifest's schema for the schemas.
	Link  string
	About func(s *Site) string
}

// llmsSections are llms.txt's sections, in order.
var llmsSections = []string{"Start here", "API", "Optional"}

// Late reports whether a later stage adds the family: its entry in
// export's table names its path and schema, and the stage the rest.
func (d Doc) Late() bool { return d.late }

// Docs is export's table: every family of the API and of the site's
// root, in the order the manifest's schemas try them. A family's files
// (episodes/<slug>.json) come under their member's schema (episode), a
// search tier (t/<prefix>-<n>.json) before the terms files.
func Docs() []Doc {
	late := func(p, schema string) Doc { return Doc{Path: p, Schema: schema, late: true} }
	return []Doc{
		{Path: routes.Feed, Schema: "feed", Title: "engram episode feed (feed.json): JSON Feed 1.1, https://jsonfeed.org/version/1.1", Type: Feed{}, value: encoded((*Site).feed),
			LLMs: LLMsLine{Section: "Optional", Rank: 1, Name: "Episode feed", About: says("JSON Feed 1.1 of the episodes")}},
		late(routes.Search("meta.json"), "search-meta"),
		late(routes.Search("t/*-*.json"), "search-tier"),
		late(routes.Search("t/*.json"), "search-terms"),
		late(routes.Search("d/*.json"), "search-docs"),
		{Path: routes.Document(routes.EpisodeFolder, "*"), Schema: "episode", Title: "engram episode (api/v1/episodes/<slug>.json)", Type: Episode{}},
		{Path: routes.Document(routes.PatternFolder, "*"), Schema: "pattern", Title: "engram pattern (api/v1/patterns/<slug>.json)", Type: Pattern{}},
		{Path: routes.Document(routes.WorkflowFolder, "*"), Schema: "workflow", Title: "engram workflow (api/v1/workflows/<slug>.json): summary and timeline", Type: Workflow{}},
		{Path: routes.Document(routes.NoteFolder, "*"), Schema: "note", Title: "engram note that is neither an episode nor a pattern (api/v1/notes/<slug>.json)", Type: Note{}},
		late(routes.BootstrapSlice("*")+".json", "bootstrap"), // an area's slice is a bootstrap
		{Path: routes.Manifest, Schema: "index", Title: "engram manifest: every file of the API", Type: Manifest{},
			LLMs: LLMsLine{Section: "API", Rank: 1, Name: "Manifest", About: says("every file and the schema of each JSON file, counts, commit and reference time")}},
		lists(late(routes.Bootstrap, "bootstrap"), LLMsLine{Section: "Start here", Rank: 2, Name: "Bootstrap (JSON)",
			About: says("the same, as JSON; the same for one area of the repository in bootstrap/AREA.md, listed in the manifest's bootstrap_slices")}),
		lists(Doc{Path: routes.BootstrapText, late: true}, LLMsLine{Section: "Start here", Rank: 1, Name: "Bootstrap (Markdown)", About: func(s *Site) string {
			if s.Budget > 0 {
				return fmt.Sprintf("practice, warnings, recent failures, recent work, best patterns, lessons and due items, within %d tokens", s.Budget)
			}
			return "practice, warnings, recent failures, recent work, best patterns, lessons and due items"
		}}),
		lists(list(routes.Episodes, "episodes", "engram episode summaries", func(s *Site) []EpisodeSummary { return s.episodeSummaries() }),
			LLMsLine{Section: "API", Rank: 2, Name: "Episodes", About: says("every episode in brief, newest first; each links its full JSON")}),
		lists(list(routes.Patterns, "patterns", "engram patterns", func(s *Site) []PatternSummary { return s.patternSummaries() }),
			LLMsLine{Section: "API", Rank: 3, Name: "Patterns", About: says("patterns with declared and measured success rates, confidence and causal edges")}),
		lists(list(routes.Antipatterns, "antipatterns", "engram antipatterns", func(s *Site) []PatternSummary { return s.Antipatterns }),
			LLMsLine{Section: "Start here", Rank: 3, Name: "Antipatterns", About: says("what fails, worst first")}),
		{Path: routes.Graph, Schema: "graph", Title: "engram causal graph (the keys of ai-agents' causal-graph.json)", Type: Graph{}, value: encoded(func(s *Site) Graph { return s.Graph }),
			LLMs: LLMsLine{Section: "API", Rank: 5, Name: "Causal graph", About: says("nodes and weighted edges, in the shape of ai-agents' causal-graph.json")}},
		{Path: routes.Health, Schema: "health", Title: "engram graph health", Type: Health{}, value: encoded(func(s *Site) Health { return s.Health }),
			LLMs: LLMsLine{Section: "API", Rank: 6, Name: "Graph health", About: says("isolated nodes, edge types, tautologies, unmeasured rates, dangling links")}},
		lists(list(routes.Lessons, "lessons", "engram lesson clusters", func(s *Site) []Lesson { return s.Lessons }),
			LLMsLine{Section: "API", Rank: 4, Name: "Lessons", About: says("lessons of all episodes, clustered, most recurring first")}),
		list(routes.Pending, "pending", "engram pending threads and sessions", func(s *Site) []PendingItem { return s.Pending }),
		lists(list(routes.Workflows, "workflows", "engram workflows: execution events grouped by workflow, within retention", func(s *Site) []WorkflowSummary { return s.workflowSummaries() }),
			LLMsLine{Section: "API", Rank: 7, Name: "Workflows", About: func(s *Site) string {
				return fmt.Sprintf("execution events grouped by workflow (counts by type, success ratio, first and last event), events of the last %d days; each links its timeline", s.RetentionDays)
			}}),
		{Path: routes.Candidates, Schema: "candidates", Title: "engram pattern candidates mined from the episodes: proposals, never advice", Type: Candidates{},
			value: encoded(func(s *Site) Candidates { return s.Candidates }),
			LLMs:  LLMsLine{Section: "Optional", Rank: 2, Name: "Pattern candidates", About: says("situation → action pairs mined from the episodes, with evidence, success rates and the other choices made; proposals to review, never advice")}},
		list(routes.Diagnostics, "diagnostics", "engram diagnostics: problems in the notes, by file and position", func(s *Site) []Diagnostic { return s.Diagnostics }),
		{Path: routes.LLMs, value: func(s *Site) ([]byte, error) { return s.llmsTxt(), nil }},
		// The schemas of the others, which Files derives.
		{Path: routes.Schema("*"), LLMs: LLMsLine{Section: "API", Rank: 8, Name: "JSON Schemas", Link: routes.Schema("index"),
			About: says("a JSON Schema for each JSON file the site publishes (the API's files, the pages' JSON twins, the graph explorer's data), listed in the manifest (this one is the manifest's)")}},
	}
}

// lists is d with its line in llms.txt.
func lists(d Doc, l LLMsLine) Doc {
	d.LLMs = l
	return d
}

// says is an llms.txt line's text that does not depend on the build.
func says(text string) func(*Site) string { return func(*Site) string { return text } }

// list is the entry of a file that is a List of items at the reference
// time.
func list[T any](p, schema, title string, items func(s *Site) []T) Doc {
	return Doc{Path: p, Schema: schema, Title: title, Type: List[T]{}, value: encoded(func(s *Site) List[T] {
		return List[T]{SchemaVersion, formatTime(s.ReferenceTime), items(s)}
	})}
}

// encoded is a value encoded as every JSON file of the API is.
func encoded[T any](v func(s *Site) T) func(s *Site) ([]byte, error) {
	return func(s *Site) ([]byte, error) { return encode(v(s)) }
}

// Registry is what this build publishes: Merge of the Docs the later
// stages gave With.
func (s *Site) Registry() []Doc { return Merge(s.lateDocs) }

// Merge is export's table, its later families completed by late, the
// Docs of the later stages, then the Docs of late no entry names. A
// later family no stage completed keeps its place in the manifest, and
// has no schema file: export's own tests publish the API without the
// later stages (indexer's TestEverySchema holds a build to all of them).
func Merge(late []Doc) []Doc {
	byPath := map[string]Doc{}
	for _, d := range late {
		byPath[d.Path] = d
	}
	named := map[string]bool{}
	var docs []Doc
	for _, d := range Docs() {
		if d.Late() {
			if l, ok := byPath[d.Path]; ok {
				line := d.LLMs // the table's: a later stage's Doc does not list itself
				d, named[d.Path] = l, true
				d.LLMs = line
			}
		}
		docs = append(docs, d)
	}
	for _, d := range late {
		if !named[d.Path] {
			docs = append(docs, d)
		}
	}
	return docs
}

// Maps are the manifest's schemas: the schema of each family that has
// one, in the registry's order, the first match naming a file's.
func Maps(docs []Doc) []SchemaMap {
	var m []SchemaMap
	for _, d := range docs {
		if d.Schema != "" {
			m = append(m, SchemaMap{Files: d.Path, Schema: routes.Schema(d.Schema)})
		}
	}
	return m
}

// SchemaFiles are the published schemas of docs, one per schema name,
// in the order of their first family; a later family no stage completed
// has none.
func SchemaFiles(docs []Doc) ([]File, error) {
	var files []File
	seen := map[string]bool{}
	for _, d := range docs {
		if d.Schema == "" || d.Late() || seen[d.Schema] {
			continue
		}
		seen[d.Schema] = true
		f, err := SchemaFile(d.Schema, d.Title, d.Type)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// SchemaFile is the published schema name.schema.json of the documents
// of v's type, as every schema of the output is written.
func SchemaFile(name, title string, v any) (File, error) {
	data, err := encode(Schema(routes.SchemaFile(name), title, v))
	if err != nil {
		return File{}, fmt.Errorf("encode the schema %s: %w", name, err)
	}
	return File{Path: routes.Schema(name), Data: data}, nil
}

// SchemaDir is the folder of the published schemas.
const SchemaDir = routes.SchemaDir

// MatchSchema is the schema the first of maps that matches file names.
func MatchSchema(maps []SchemaMap, file string) (string, bool) {
	for _, m := range maps {
		if ok, _ := path.Match(m.Files, file); ok {
			return m.Schema, true
		}
	}
	return "", false
}
