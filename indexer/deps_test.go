package indexer_test

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// TestHeavyDependenciesHaveOneOwner keeps each heavy library behind exactly
// one package of ours (STYLE §3), so that a version bump touches one place.
func TestHeavyDependenciesHaveOneOwner(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "github.com/engramhq/engram/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	owners := map[string]map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		for _, imp := range fields[1:] {
			for _, heavy := range []string{"github.com/go-git/go-git/v5", "github.com/dominikbraun/graph", "github.com/blevesearch/bleve/v2", "github.com/gohugoio/hugo", "github.com/pkoukk/tiktoken-go", "github.com/zricethezav/gitleaks/v8", "github.com/modelcontextprotocol/go-sdk"} {
				if imp == heavy || strings.HasPrefix(imp, heavy+"/") {
					if owners[heavy] == nil {
						owners[heavy] = map[string]bool{}
					}
					owners[heavy][fields[0]] = true
				}
			}
		}
	}
	want := map[string]string{
		"github.com/go-git/go-git/v5":        "github.com/engramhq/engram/indexer/source",
		"github.com/dominikbraun/graph":      "github.com/engramhq/engram/indexer/causal",
		"github.com/gohugoio/hugo":           "github.com/engramhq/engram/site",
		"github.com/pkoukk/tiktoken-go":      "github.com/engramhq/engram/indexer/tokens",
		"github.com/blevesearch/bleve/v2":    "github.com/engramhq/engram/indexer/search",
		"github.com/zricethezav/gitleaks/v8": "github.com/engramhq/engram/indexer/secrets",
		// the MCP server is a reader like the query commands (SPEC §5.2)
		"github.com/modelcontextprotocol/go-sdk": "github.com/engramhq/engram/cmd/engram",
	}
	for heavy, pkgs := range owners {
		var list []string
		for p := range pkgs {
			list = append(list, p)
		}
		sort.Strings(list)
		if len(list) != 1 || (want[heavy] != "" && list[0] != want[heavy]) {
			t.Errorf("%s is imported by %v; want only %s", heavy, list, want[heavy])
		}
	}
	for heavy, pkg := range want {
		if len(owners[heavy]) == 0 {
			t.Errorf("%s is not imported by %s any more: update this test", heavy, pkg)
		}
	}
}

// layers are engram's own packages in pipeline order (STYLE "The shape
// of the program"): a package imports only packages of earlier layers,
// never one of its own layer or a later one, so no stage reaches into a
// stage that runs after it, and stages of one layer do not call each
// other. A new package must be given its layer here.
var layers = [][]string{
	// the domain types, and leaves that know nothing of notes (the
	// site's graph layout is points and springs)
	{"indexer/note", "indexer/routes", "indexer/tokens", "templates", "indexer/secrets/secretstest", "site/internal/graphlayout"},
	// reading: files and history, secrets, notes
	{"indexer/source", "indexer/secrets", "indexer/parse"},
	// the other inputs: execution events, session logs, ai-agents
	// files; the generator of test repositories; and the memory-poisoning
	// detector, which reads parsed notes
	{"indexer/events", "indexer/extract", "indexer/aiagents", "indexer/gen", "indexer/poison"},
	// what is computed from the notes
	{"indexer/causal", "indexer/related", "indexer/lessons"},
	// what is mined from the notes and the graph's health: pattern
	// candidates
	{"indexer/mine"},
	// the documents of the API, and the ai-agents files engram writes
	{"indexer/export", "indexer/aiagents/exporter"},
	// what is computed from the documents (the site's charts among it)
	{"indexer/search", "indexer/bootstrap", "site/internal/chart"},
	// what answers from them: queries, pages; the reference of the
	// site's search script, which only tests run
	{"indexer/query", "site", "indexer/search/searchtest"},
	// engram.toml and engram's version
	{"indexer/config"},
	// what engram keeps on disk: the output, the query cache and the
	// stores beside it, locks
	{"indexer/store"},
	// the write path: the notes, events and feedback engram writes into
	// a repository (the write commands, MCP write tools, import, extract)
	{"indexer/write"},
	// the orchestrator, then the command line
	{"indexer"},
	// tests of built sites, in a browser: helpers and their packages
	{"cmd/engram", "cmd/genrepo", "site/browsertest", "site/pagetest", "site/layouttest", "site/layouttest/real"},
}

// TestLayers checks that every package of engram imports only packages
// of earlier layers.
func TestLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	const module = "github.com/engramhq/engram/"
	layer := map[string]int{}
	for i, ps := range layers {
		for _, p := range ps {
			layer[module+p] = i
		}
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "github.com/engramhq/engram/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := fields[0]
		l, ok := layer[pkg]
		if !ok {
			t.Errorf("%s has no layer: add it to layers", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			if li, ok := layer[imp]; ok && li >= l {
				t.Errorf("%s (layer %d) imports %s (layer %d): a package imports only earlier layers", strings.TrimPrefix(pkg, module), l, strings.TrimPrefix(imp, module), li)
			}
		}
	}
}
