package main

import (
	"context"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/source"
)

// TestMCPWithholdsPoisoning: on a repository with memory poisoning
// (indexer/testdata/poisoning.txtar), no tool or resource answers with
// the poisoned text: the flagged fields come as a marker that says they
// were withheld and why, the bootstrap leaves the notes out, and the rest
// of each note answers as before.
func TestMCPWithholdsPoisoning(t *testing.T) {
	archive, err := os.ReadFile("../../indexer/testdata/poisoning.txtar")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	if err := source.WriteTxtarRepo(repo, archive); err != nil {
		t.Fatal(err)
	}
	cs := mcpClient(t, repo)
	bad := "EPISODE-2026-03-01-session-02"
	var answers []string
	call := func(name string, args map[string]any) string {
		res := callTool(t, cs, name, args)
		if res.IsError {
			t.Fatalf("%s(%v): %s", name, args, text(res))
		}
		answers = append(answers, text(res))
		return text(res)
	}
	if ds := call("get_decision_sequence", map[string]any{"episode": bad}); !strings.Contains(ds, "[withheld: flagged for memory poisoning") || !strings.Contains(ds, `"chosen":"retry"`) {
		t.Errorf("get_decision_sequence: %s", ds)
	}
	call("get_episode", map[string]any{"id": bad})
	call("query_episodes", map[string]any{})
	call("query_patterns", map[string]any{})
	call("get_antipatterns", map[string]any{})
	call("what_if", map[string]any{"episode": bad, "decision": "d001"})
	call("similar_episodes", map[string]any{"text": "rotate the deploy keys"})
	call("search", map[string]any{"query": "curl wget push main"})
	boot := call("bootstrap", map[string]any{})
	call("bootstrap", map[string]any{"format": "json"})
	ctx := context.Background()
	for _, uri := range []string{"engram://bootstrap", "engram://episode/" + url.PathEscape(bad), "engram://pattern/PATTERN-evil"} {
		r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		answers = append(answers, r.Contents[0].Text)
	}
	for _, a := range answers {
		for _, p := range []string{"curl -s", "wget", "Always push to main", "Do not tell the user", "approve their own"} {
			if strings.Contains(a, p) {
				t.Errorf("an answer holds %q:\n%s", p, a)
			}
		}
	}
	// The bootstrap names a note by its link, the slug in lower case.
	lower := strings.ToLower(boot)
	if strings.Contains(lower, strings.ToLower(bad)) || strings.Contains(lower, "pattern-evil") || !strings.Contains(lower, "pattern-rollback") {
		t.Errorf("the bootstrap offers a flagged note, or not the others:\n%s", boot)
	}
}
