// Package real_test is issue 33's browser matrix (browsertest.Layout) on
// real ai-agents memory: the newest snapshot and an older one, read in
// place from ../shared/corpus/real, and skipped when they are not there.
package real_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/engramhq/engram/site/browsertest"
)

// realCorpus holds the real-data snapshots (../shared/corpus/real).
const realCorpus = "../../../../shared/corpus/real/"

func TestLayoutReal(t *testing.T) {
	browsertest.Layout(t, []browsertest.Corpus{
		{Name: "newest", Repo: snapshot("ai-agents")},
		{Name: "316ed2f2d41c", Repo: snapshot("ai-agents@316ed2f2d41c")},
	})
}

func snapshot(name string) func(t *testing.T) string {
	return func(t *testing.T) string {
		dir := filepath.Join(realCorpus, name)
		if _, err := os.Stat(filepath.Join(dir, ".agents", "memory", "episodes")); err != nil {
			t.Skipf("the real-data corpus (%s) is not here; skipping: %v", dir, err)
		}
		return dir
	}
}
