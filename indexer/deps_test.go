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
			for _, heavy := range []string{"github.com/go-git/go-git/v5", "github.com/dominikbraun/graph", "github.com/blevesearch/bleve/v2", "github.com/gohugoio/hugo", "github.com/pkoukk/tiktoken-go", "github.com/zricethezav/gitleaks/v8"} {
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
