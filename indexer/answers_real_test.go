package indexer_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/engramhq/engram/indexer/bootstrap"
	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/search"
)

// TestTaskFilterRealData: on real ai-agents snapshots a task filter
// matches by words (issue 32): "PR review" finds the episodes whose task
// says both words, in any order ("Review PR #5175", "Fix PR #5005 review
// findings"), where the literal substring found none, and each of them
// is among those "review" finds.
func TestTaskFilterRealData(t *testing.T) {
	for _, c := range []struct {
		name    string
		atLeast int // "PR review" finds at least this many
	}{
		{"ai-agents", 20},              // 29 of the 35 "review" finds
		{"ai-agents@316ed2f2d41c", 40}, // 59 of the 74
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(realCorpus, c.name)
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("the real-data corpus (%s) is not here; skipping: %v", dir, err)
			}
			snap := query.FromSite(loadSite(t, dir), bootstrap.Candidates{})
			ids := func(task string) []string {
				var out []string
				for _, e := range snap.FindEpisodes(query.EpisodeFilter{Task: task}) {
					out = append(out, e.ID)
					terms := search.Analyze(e.Task)
					for _, w := range search.Analyze(task) {
						if !slices.Contains(terms, w) {
							t.Errorf("%q finds %s, whose task has no %q: %s", task, e.ID, w, e.Task)
						}
					}
				}
				return out
			}
			review, pr := ids("review"), ids("PR review")
			if len(pr) < c.atLeast || len(pr) > len(review) {
				t.Errorf(`"PR review" finds %d, "review" %d; want at least %d and no more than "review"`, len(pr), len(review), c.atLeast)
			}
			for _, id := range pr {
				if !slices.Contains(review, id) {
					t.Errorf(`"PR review" finds %s, which "review" does not`, id)
				}
			}
			t.Logf(`"review" finds %d episodes, "PR review" %d`, len(review), len(pr))
		})
	}
}
