// Package routes owns every path of a build's output and every URL made
// from one: the JSON API's folder (api/v1/) and its files, the folders of
// the notes' documents and pages, feed.json, llms.txt, the static search
// index's folder, the schemas' folder, the site's JSON twins and the
// rewrites' targets. Paths are slash-separated and relative to the output
// root; a URL is the site's base URL followed by a path. Nothing else
// spells them: a renamed file is one line here. The package is at the
// bottom of the layers, so that source, which must recognise an earlier
// build's output, reads the same names as the stages that write it.
package routes

// API is the folder of the JSON API.
const API = "api/v1/"

// The files of the API, each one document.
const (
	Manifest      = API + "index.json"
	Episodes      = API + "episodes.json"
	Patterns      = API + "patterns.json"
	Antipatterns  = API + "antipatterns.json"
	Graph         = API + "graph.json"
	Health        = API + "health.json"
	Lessons       = API + "lessons.json"
	Pending       = API + "pending.json"
	Workflows     = API + "workflows.json"
	Diagnostics   = API + "diagnostics.json"
	Candidates    = API + "candidates.json"
	Bootstrap     = API + "bootstrap.json"
	BootstrapText = API + "bootstrap.md"
)

// The folders of the notes' documents (api/v1/<folder>/<slug>.json) and
// pages (<folder>/<slug>/): an episode, a pattern, any other note, and a
// workflow of execution events.
const (
	EpisodeFolder  = "episodes"
	PatternFolder  = "patterns"
	NoteFolder     = "notes"
	WorkflowFolder = "workflows"
)

// The files at the site's root, beside the API.
const (
	Feed = "feed.json"
	LLMs = "llms.txt"
)

// Folders of the API that hold families of files.
const (
	// SchemaDir holds the published JSON Schemas.
	SchemaDir = API + "schema/"
	// SearchDir holds the static search index.
	SearchDir = API + "search/"
	// BootstrapDir holds each area's slice of the bootstrap.
	BootstrapDir = API + "bootstrap/"
)

// Document is the path of the JSON document of a note or workflow:
// api/v1/<folder>/<slug>.json. A slug of "*" makes the pattern of the
// folder's documents, ":slug" a rewrite's target.
func Document(folder, slug string) string { return API + folder + "/" + slug + ".json" }

// Page is the path of the page of a note or workflow, as its URL ends:
// <folder>/<slug>/.
func Page(folder, slug string) string { return folder + "/" + slug + "/" }

// Schema is the path of the published schema called name.
func Schema(name string) string { return SchemaDir + SchemaFile(name) }

// SchemaFile is the file name of the schema called name, its $id.
func SchemaFile(name string) string { return name + ".schema.json" }

// Search is the path of a file of the static search index, by its path
// within the index's folder (meta.json, t/<shard>.json).
func Search(file string) string { return SearchDir + file }

// BootstrapSlice is the path of an area's slice of the bootstrap, less
// its extension (.json, .md).
func BootstrapSlice(slug string) string { return BootstrapDir + slug }

// Twin is the path of the JSON twin a page writes beside its HTML: the
// index.json of the page's folder (dir, "tags/ci"; a "*" makes the
// pattern of a kind's twins).
func Twin(dir string) string { return dir + "/index.json" }
