package indexer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/routes"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/site"
)

// TestEverySchema: every JSON file of the output, the API's and the
// site's (feed.json, the pages' twins, the graph explorer's data), has
// its published schema (draft 2020-12, listed in the manifest) and
// validates against it, for the demo, a generated repository with bad
// notes and the real corpus. A file that does not validate, or has no
// schema, is reported.
func TestEverySchema(t *testing.T) {
	gendir := t.TempDir()
	if err := source.WriteRepo(gendir, gen.Generate(gen.Options{Seed: 4}).Commits); err != nil {
		t.Fatal(err)
	}
	docs := indexer.Published()
	for _, d := range docs {
		if d.Late() {
			t.Errorf("no stage after export completes the family %s (schema %s)", d.Path, d.Schema)
		}
	}
	files := make([]int, len(docs)) // by family, over the demo and the generated repository
	for _, c := range []struct{ name, repo string }{{"demo", "../content"}, {"generated", gendir}} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "public")
			if _, err := indexer.Build(context.Background(), indexer.Options{Repo: c.repo, Out: out, CacheDir: t.TempDir()}); err != nil {
				t.Fatal(err)
			}
			byName := validateAll(t, out)
			t.Run("registry", func(t *testing.T) { registryIsTheTruth(t, out, docs, files) })
			if c.name != "demo" {
				return
			}
			// The demo has a page of every kind: each schema of the site
			// describes files of it.
			sf, err := export.SchemaFiles(site.Docs())
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range append(sf, export.File{Path: "api/v1/schema/feed.schema.json"}) {
				if byName[filepath.Base(f.Path)] == 0 {
					t.Errorf("no file of the demo validated against %s", f.Path)
				}
			}
			t.Run("broken", func(t *testing.T) { brokenFilesFail(t, out) })
		})
	}
	// The real corpus: each snapshot's memory as a user builds it, and
	// the newest ai-agents repository built whole.
	for _, s := range realSnapshots {
		t.Run(s.name, func(t *testing.T) {
			out := s.build(t, 0)
			validateAll(t, out)
			registryIsTheTruth(t, out, docs, files)
		})
	}
	// Between them, the builds have files of every family: the real
	// snapshots have the search index's later tiers, which the demo and
	// the generated repository are too small for (search's
	// TestStaticFiles holds a tier to its family without them).
	_, corpusErr := os.Stat(realCorpus)
	for i, doc := range docs {
		if files[i] == 0 && corpusErr == nil {
			t.Errorf("the family %s (schema %q) has no file in any build's output", doc.Path, doc.Schema)
		}
	}
	t.Run("ai-agents-repository", func(t *testing.T) {
		repo := filepath.Join(realCorpus, "ai-agents")
		if _, err := os.Stat(repo); err != nil {
			t.Skipf("the real-data corpus (%s) is not here; skipping: %v", realCorpus, err)
		}
		out := filepath.Join(t.TempDir(), "public")
		if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: t.TempDir()}); err != nil {
			t.Fatal(err)
		}
		validateAll(t, out)
	})
}

// registryIsTheTruth: the registry of what a build publishes
// (indexer.Published, docs) names every file of the output in out under
// api/v1/, llms.txt and every JSON file (feed.json, the site's twins),
// and the manifest's schemas are the registry's; files counts the files
// of each family. With validateAll, which validates each file against
// the schema the manifest names, every family's schema validates its
// files.
func registryIsTheTruth(t *testing.T, out string, docs []export.Doc, files []int) {
	var m struct{ Schemas []export.SchemaMap }
	readJSON(t, filepath.Join(out, "api", "v1", "index.json"), &m)
	if want := export.Maps(docs); !slices.Equal(m.Schemas, want) {
		t.Errorf("the manifest's schemas are\n%v\nthe registry's\n%v", m.Schemas, want)
	}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		if !strings.HasPrefix(rel, routes.API) && !strings.HasSuffix(rel, ".json") && rel != routes.LLMs {
			return nil // a page, a feed or an asset of the site's
		}
		found := false
		for i, doc := range docs {
			if ok, _ := path.Match(doc.Path, rel); ok {
				files[i]++
				found = true
			}
		}
		if !found {
			t.Errorf("%s is in no family of the registry", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// validateAll checks the output in out (checkOutput), failing t with
// its problems, and returns how many files each schema validated.
func validateAll(t *testing.T, out string) map[string]int {
	t.Helper()
	byName, problems, err := checkOutput(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	total := 0
	for _, n := range byName {
		total += n
	}
	if total < 10 {
		t.Errorf("only %d files checked", total)
	}
	t.Logf("%d JSON files validated, against %d schemas", total, len(byName))
	return byName
}

// checkOutput validates every JSON file under out against the schema
// the manifest's schemas name for it (which must be the one export's
// table and the site's twins name, in that order), and checks that the manifest lists every
// schema. It returns how many files each schema validated and the
// problems found: a file without a schema, or that does not validate.
func checkOutput(out string) (map[string]int, []string, error) {
	schemas, names, err := compileSchemas(out)
	if err != nil {
		return nil, nil, err
	}
	var m struct {
		Files   []string
		Schemas []export.SchemaMap
	}
	data, err := os.ReadFile(filepath.Join(out, "api", "v1", "index.json"))
	if err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, nil, err
	}
	byName := map[string]int{}
	var problems []string
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, export.SchemaDir) {
			return nil // a schema, which its compilation checked
		}
		schemaPath, ok := export.MatchSchema(m.Schemas, rel)
		if !ok {
			problems = append(problems, rel+" has no schema in the manifest")
			return nil
		}
		if want, _ := export.MatchSchema(export.Maps(slices.Concat(export.Docs(), site.Docs())), rel); schemaPath != want {
			problems = append(problems, fmt.Sprintf("%s: the manifest names the schema %s, the registry %s", rel, schemaPath, want))
		}
		name := filepath.Base(schemaPath)
		sch := schemas[name]
		if sch == nil {
			problems = append(problems, fmt.Sprintf("%s: its schema %s is not published", rel, schemaPath))
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", rel, err))
			return nil
		}
		if err := sch.Validate(inst); err != nil {
			problems = append(problems, fmt.Sprintf("%s does not validate against %s:\n%v", rel, name, err))
			return nil
		}
		byName[name]++
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	// The manifest lists every schema.
	for _, name := range names {
		if !slices.Contains(m.Files, export.SchemaDir+name) {
			problems = append(problems, "index.json does not list "+export.SchemaDir+name)
		}
	}
	return byName, problems, nil
}

// compileSchemas compiles every schema published in out, by file name,
// each checked against its dialect's metaschema.
func compileSchemas(out string) (map[string]*jsonschema.Schema, []string, error) {
	dir := filepath.Join(out, filepath.FromSlash(export.SchemaDir))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	var names []string
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		if m, _ := doc.(map[string]any); m["$schema"] != export.SchemaDialect {
			return nil, nil, fmt.Errorf("%s: $schema %v", e.Name(), m["$schema"])
		}
		if err := c.AddResource(e.Name(), doc); err != nil {
			return nil, nil, err
		}
		names = append(names, e.Name())
	}
	schemas := map[string]*jsonschema.Schema{}
	for _, name := range names {
		if schemas[name], err = c.Compile(name); err != nil {
			return nil, nil, fmt.Errorf("schema %s: %w", name, err)
		}
	}
	return schemas, names, nil
}

// brokenFilesFail breaks files of the output in out, of the API and of
// the site, adds a JSON file no schema describes and removes a schema:
// each file is reported, and nothing else is.
func brokenFilesFail(t *testing.T, out string) {
	edit := func(rel string, f func(map[string]any)) {
		t.Helper()
		p := filepath.Join(out, filepath.FromSlash(rel))
		var doc map[string]any
		readJSON(t, p, &doc)
		f(doc)
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	months, _ := filepath.Glob(filepath.Join(out, "timeline", "*", "index.json"))
	if len(months) == 0 {
		t.Fatal("no month page")
	}
	month, _ := filepath.Rel(out, months[0])
	month = filepath.ToSlash(month)
	tags, _ := filepath.Glob(filepath.Join(out, "tags", "*", "index.json"))
	if len(tags) == 0 {
		t.Fatal("no tag page")
	}
	tag, _ := filepath.Rel(out, tags[0])
	tag = filepath.ToSlash(tag)
	edit("feed.json", func(d map[string]any) { d["extra"] = true })                         // not in the Go type
	edit("tags/index.json", func(d map[string]any) { delete(d, "reference_time") })         // required
	edit("graph/index.json", func(d map[string]any) { d["nodes"] = nil })                   // a list, never null
	edit(month, func(d map[string]any) { d["version"] = "one" })                            // an integer
	edit(tag, func(d map[string]any) { d["spellings"] = "one" })                            // a list
	edit("api/v1/episodes.json", func(d map[string]any) { d["items"] = []any{"a string"} }) // objects
	if err := os.MkdirAll(filepath.Join(out, "stray"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "stray", "index.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(out, "api", "v1", "schema", "site-outcome.schema.json")); err != nil {
		t.Fatal(err)
	}
	_, problems, err := checkOutput(out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"feed.json":            "does not validate against feed.schema.json",
		"tags/index.json":      "does not validate against site-tags.schema.json",
		"graph/index.json":     "does not validate against site-graph.schema.json",
		month:                  "does not validate against site-month.schema.json",
		"api/v1/episodes.json": "does not validate against episodes.schema.json",
		"stray/index.json":     "has no schema",
		tag:                    "does not validate against site-tag.schema.json",
	}
	for _, o := range []string{"failure", "partial", "success", "unknown"} {
		want["outcomes/"+o+"/index.json"] = "its schema api/v1/schema/site-outcome.schema.json is not published"
	}
	got := map[string]string{}
	for _, p := range problems {
		file, rest, _ := strings.Cut(p, " ")
		file = strings.TrimSuffix(file, ":")
		got[file] = rest
	}
	for _, file := range slices.Sorted(maps.Keys(want)) {
		if !strings.HasPrefix(got[file], want[file]) {
			t.Errorf("%s: reported %q, want %q", file, got[file], want[file])
		}
	}
	if len(problems) != len(want) {
		t.Errorf("%d problems reported, want %d:\n%s", len(problems), len(want), strings.Join(problems, "\n"))
	}
}
