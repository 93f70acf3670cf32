package indexer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
)

// TestEverySchema: every JSON file under api/v1/ has its published
// schema (draft 2020-12), and validates against it, for the demo and a
// generated repository with bad notes.
func TestEverySchema(t *testing.T) {
	gendir := t.TempDir()
	if err := source.WriteRepo(gendir, gen.Generate(gen.Options{Seed: 4}).Commits); err != nil {
		t.Fatal(err)
	}
	for name, repo := range map[string]string{"demo": "../content", "generated": gendir} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "public")
			if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out}); err != nil {
				t.Fatal(err)
			}
			validateAll(t, out)
		})
	}
}

func validateAll(t *testing.T, out string) {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	schemas := map[string]*jsonschema.Schema{}
	dir := filepath.Join(out, "api", "v1", "schema")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if m, _ := doc.(map[string]any); m["$schema"] != export.SchemaDialect {
			t.Errorf("%s: $schema %v", e.Name(), m["$schema"])
		}
		if err := c.AddResource(e.Name(), doc); err != nil {
			t.Fatal(err)
		}
	}
	checked := 0
	err = filepath.WalkDir(filepath.Join(out, "api", "v1"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		schemaPath, ok := export.SchemaPath(rel)
		if !ok {
			if !strings.HasPrefix(rel, "api/v1/schema/") {
				t.Errorf("%s has no schema", rel)
			}
			return nil
		}
		name := filepath.Base(schemaPath)
		sch := schemas[name]
		if sch == nil {
			if sch, err = c.Compile(name); err != nil {
				t.Errorf("%s: schema %s: %v", rel, name, err)
				return nil
			}
			schemas[name] = sch
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s does not validate against %s:\n%v", rel, name, err)
		}
		checked++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Errorf("only %d files checked", checked)
	}
	// The manifest lists every schema.
	var m struct{ Files []string }
	data, _ := os.ReadFile(filepath.Join(out, "api", "v1", "index.json"))
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	listed := strings.Join(m.Files, " ")
	for _, e := range entries {
		if !strings.Contains(listed, "api/v1/schema/"+e.Name()) {
			t.Errorf("index.json does not list %s", e.Name())
		}
	}
}
