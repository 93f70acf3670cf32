package indexer_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer"
)

// TestGraphNodeURLs: every node of graph.json links to a page that
// exists, and a decision or event node to an element of its episode's
// page.
func TestGraphNodeURLs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: "../content", Out: out}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "api", "v1", "graph.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Nodes []struct{ ID, Type, URL string }
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	parts := 0
	for _, n := range g.Nodes {
		page, fragment, _ := strings.Cut(n.URL, "#")
		html, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(page, "/")), "index.html"))
		if err != nil {
			t.Errorf("%s (%s): %s has no page: %v", n.ID, n.Type, n.URL, err)
			continue
		}
		if (n.Type == "decision" || n.Type == "event") != (fragment != "") {
			t.Errorf("%s (%s): url %s", n.ID, n.Type, n.URL)
		}
		if fragment != "" {
			parts++
			if !strings.Contains(string(html), `id="`+fragment+`"`) {
				t.Errorf("%s: %s has no element with id %q", n.ID, page, fragment)
			}
		}
	}
	if parts == 0 {
		t.Error("no decision nodes in the demo's graph")
	}
}
