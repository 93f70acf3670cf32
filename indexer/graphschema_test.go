package indexer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
)

// aiAgentsGraphSchema is ai-agents' own schema of causal-graph.json, at the
// last commit that had the file.
const aiAgentsGraphSchema = "../../shared/corpus/real/ai-agents@316ed2f2d41c/.claude/skills/memory/resources/schemas/causal-graph.schema.json"

// TestGraphReadableAsAIAgents validates graph.json of the demo against
// ai-agents' schema for causal-graph.json: the keys, field names, types and
// ranges a consumer of that file relies on. Two constraints are relaxed,
// on purpose and documented: ids are note titles, not 12-hex-digit hashes
// (SPEC §4.0: ids are titles, verbatim), and node and edge types are
// engram's (episode, pattern, decision, event; evidence_for, leads_to) as
// well as ai-agents' four causal ones.
func TestGraphReadableAsAIAgents(t *testing.T) {
	raw, err := os.ReadFile(aiAgentsGraphSchema)
	if err != nil {
		t.Skipf("the real-data corpus (../shared/corpus/real) is not here: %v", err)
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	props := schema["properties"].(map[string]any)
	relax := func(list, field, key string) {
		p := props[list].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)[field].(map[string]any)
		if _, ok := p[key]; !ok {
			t.Fatalf("the schema has no %s on %s.%s any more: update this test", key, list, field)
		}
		delete(p, key)
	}
	relax("nodes", "id", "pattern")
	relax("nodes", "type", "enum")
	relax("edges", "source", "pattern")
	relax("edges", "target", "pattern")
	relax("edges", "type", "enum")
	relax("patterns", "id", "pattern")

	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("causal-graph.schema.json", schema); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("causal-graph.schema.json")
	if err != nil {
		t.Fatal(err)
	}

	l, err := indexer.Load(context.Background(), indexer.Options{Repo: "../content"})
	if err != nil {
		t.Fatal(err)
	}
	files, err := export.Documents(l.Export).Files()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Path != "api/v1/graph.json" {
			continue
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(f.Data))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("graph.json of the demo does not validate against ai-agents' schema:\n%v", err)
		}
		return
	}
	t.Fatal("no api/v1/graph.json")
}
