package site

import (
	"context"
	"encoding/json"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

// twinSite is a site with a page of every kind that writes its own twin:
// episodes with tags, dates, outcomes and decisions, a pattern and a note.
func twinSite() *export.Site {
	s := graphSite(2)
	episode := func(id, date, outcome string, tags ...string) export.Episode {
		return export.Episode{
			EpisodeHead: export.EpisodeHead{ID: id, Title: id, Date: date, Outcome: note.Outcome(outcome), Tags: tags,
				URL: "/episodes/" + id + "/", JSONURL: "/api/v1/episodes/" + id + ".json"},
			Decisions: []export.Decision{{ID: "d001", Title: "a decision", Outcome: note.Outcome(outcome)}},
		}
	}
	s.Episodes = []export.Episode{
		episode("e2", "2026-05-02", "success", "ci", "Flaky"),
		episode("e1", "2026-04-01", "", "flaky"),
	}
	s.Patterns = []export.Pattern{{ID: "p", Title: "p", Type: "pattern", Tags: []string{"ci"}, URL: "/patterns/p/", JSONURL: "/api/v1/patterns/p.json", Source: &export.Source{}}}
	s.Notes = []export.Note{{ID: "n", Title: "n", Type: "concept", Tags: []string{"docs"}, URL: "/notes/n/", JSONURL: "/api/v1/notes/n.json"}}
	return s
}

// TestTwinSchemasMatchPages keeps the schemas of the site's JSON files
// in agreement with what the pages write: each page's own twin is of the
// Go type its kind's schema is derived from, at a path that schema alone
// claims (SchemaPath); each schema describes some page's twin; and the
// graph explorer's data is a graphDoc at graphDataPath.
func TestTwinSchemasMatchPages(t *testing.T) {
	s := twinSite()
	byKind := map[string]twinSchema{}
	for _, k := range kinds() {
		if k.twin == nil {
			continue
		}
		if _, dup := byKind[k.name]; dup {
			t.Errorf("two schemas for the %s pages", k.name)
		}
		byKind[k.name] = *k.twin
	}
	used := map[string]bool{}
	ps, err := pages(context.Background(), s, newMarkdown())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.twin == nil {
			continue
		}
		sc, ok := byKind[p.kind]
		if !ok {
			t.Errorf("%s: the %s pages write their own JSON twin, and no schema describes it: give its kind a twin schema", p.path, p.kind)
			continue
		}
		used[p.kind] = true
		if got, want := reflect.TypeOf(p.twin), reflect.TypeOf(sc.v); got != want {
			t.Errorf("%s: the twin is a %s, but the schema site-%s is derived from %s", p.path, got, p.kind, want)
		}
		file := path.Join(pageDir(p.path), "index.json")
		if got, ok := SchemaPath(file); !ok || got != export.SchemaDir+"site-"+p.kind+".schema.json" {
			t.Errorf("%s: SchemaPath(%s) = %q, %v; want site-%s's", p.path, file, got, ok, p.kind)
		}
		for kind, other := range byKind {
			if m, _ := path.Match(other.file, file); m && kind != p.kind {
				t.Errorf("%s: the schema of the %s pages claims it too", file, kind)
			}
		}
	}
	graph := byKind["graph"]
	if graph.file != graphDataPath || reflect.TypeOf(graph.v) != reflect.TypeOf(graphData(s, false)) {
		t.Errorf("the graph explorer's data is a %T at %s; its schema describes %T at %s", graphData(s, false), graphDataPath, graph.v, graph.file)
	}
	used["graph"] = true
	for kind := range byKind {
		if !used[kind] {
			t.Errorf("the schema site-%s describes no page's twin", kind)
		}
	}
}

// TestSiteSchemaFiles: one schema per site file kind, named by it,
// strict like the Go type, and not one of the API's names.
func TestSiteSchemaFiles(t *testing.T) {
	docs := Docs()
	files, err := export.SchemaFiles(docs)
	if err != nil {
		t.Fatal(err)
	}
	var twins []string
	for _, k := range kinds() {
		if k.twin != nil {
			twins = append(twins, k.name)
		}
	}
	slices.Sort(twins)
	if len(files) != len(twins) {
		t.Fatalf("%d schema files for %d kinds", len(files), len(twins))
	}
	for i, f := range files {
		want := export.SchemaDir + "site-" + twins[i] + ".schema.json"
		if f.Path != want || docs[i].Schema != "site-"+twins[i] {
			t.Errorf("schema %d is %s, want %s", i, f.Path, want)
		}
		var doc struct {
			Schema string `json:"$schema"`
			Defs   map[string]struct {
				Properties           map[string]any `json:"properties"`
				AdditionalProperties *bool          `json:"additionalProperties"`
			} `json:"$defs"`
		}
		if err := json.Unmarshal(f.Data, &doc); err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		if doc.Schema != export.SchemaDialect || len(doc.Defs) == 0 {
			t.Errorf("%s: $schema %q, %d definitions", f.Path, doc.Schema, len(doc.Defs))
		}
		for name, d := range doc.Defs {
			if len(d.Properties) == 0 || d.AdditionalProperties == nil || *d.AdditionalProperties {
				t.Errorf("%s: %s has %d properties and allows others", f.Path, name, len(d.Properties))
			}
		}
	}
	for _, file := range []string{"api/v1/episodes.json", "feed.json", "api/v1/search/meta.json"} {
		if got, ok := SchemaPath(file); !ok || !strings.HasPrefix(got, export.SchemaDir) || strings.Contains(got, "site-") {
			t.Errorf("SchemaPath(%s) = %q, %v: want the API's schema", file, got, ok)
		}
	}
	for _, file := range []string{"index.html", "api/v1/bootstrap.md", "api/v1/schema/site-tag.schema.json", "episodes/x/index.json", "tags/a/b/index.json"} {
		if got, ok := SchemaPath(file); ok {
			t.Errorf("SchemaPath(%s) = %q: want none", file, got)
		}
	}
}

// SchemaPath is where the schema of any JSON file of a build's output is
// published, as the manifest's schemas name it: the API's and
// feed.json's, and the site's own twins'. ok is false for a file without
// a schema: not JSON, or a schema itself.
func SchemaPath(file string) (string, bool) {
	return export.MatchSchema(export.Maps(slices.Concat(export.Docs(), Docs())), file)
}
