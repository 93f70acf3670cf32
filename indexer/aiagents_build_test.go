package indexer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
)

// TestBuildRealAIAgents builds the real ai-agents snapshot (287 episode
// JSON files as the repository keeps them) and checks that every episode
// is published, with each quirk a diagnostic and never a failure.
func TestBuildRealAIAgents(t *testing.T) {
	repo := "../../shared/corpus/real/ai-agents@316ed2f2d41c/.agents/memory"
	files, _ := filepath.Glob(filepath.Join(repo, "episodes", "episode-*.json"))
	if len(files) == 0 {
		t.Skip("the real-data corpus (../shared/corpus/real) is not here; skipping the ai-agents build")
	}
	out := filepath.Join(t.TempDir(), "public")
	r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	published := 0
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".json")
		if _, err := os.Stat(filepath.Join(out, "api", "v1", "episodes", export.Slug(id)+".json")); err == nil {
			published++
		} else {
			t.Errorf("%s is not published", id)
		}
	}
	if published != 287 || r.Counts["episodes"] != 288 { // and episodes/CLAUDE.md
		t.Errorf("%d of %d episode files published, %d episodes counted", published, len(files), r.Counts["episodes"])
	}
	rules := map[string]int{}
	for _, d := range r.Diagnostics {
		rules[d.Rule]++
		// episodes/CLAUDE.md, ai-agents' instructions beside the JSON, is
		// read as an episode note and has no outcome or task: an error for
		// it, never for the JSON.
		if d.Severity.String() == "error" && strings.HasSuffix(d.Path, ".json") {
			t.Errorf("error diagnostic: %v", d)
		}
	}
	if rules["aiagents-causal-order"] == 0 || rules["aiagents-causal-graph"] != 1 {
		t.Errorf("diagnostics by rule: %v", rules)
	}
}

// TestLoadBadAIAgentsJSON: JSON episodes that are not objects, have
// trailing data or are truncated are each an error at their line and
// column, and the good one beside them is published; duplicate keys and a
// repeated id are warnings.
func TestLoadBadAIAgentsJSON(t *testing.T) {
	good := `{"id": "episode-good", "session": "s1", "timestamp": "2026-01-01T00:00:00Z", "outcome": "success", "task": "t", "decisions": [], "events": [], "metrics": {}, "lessons": []}`
	repo := writeFiles(t, map[string]string{
		"episodes/episode-good.json":      good,
		"episodes/episode-again.json":     good,
		"episodes/episode-list.json":      "[1, 2]",
		"episodes/episode-trailing.json":  good + "\n{}",
		"episodes/episode-truncated.json": "{\n  \"id\": \"x\",\n  \"task\": ",
		"episodes/episode-dupkey.json":    strings.Replace(strings.Replace(good, "episode-good", "episode-dupkey", 1), `"task": "t"`, `"task": "t", "task": "u"`, 1),
		"episodes/.gitkeep":               "",
	})
	l, err := indexer.Load(context.Background(), indexer.Options{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]string{}
	for _, d := range l.Diagnostics {
		byPath[d.Path] = append(byPath[d.Path], d.Severity.String()+" "+d.Rule)
		if d.Line < 1 || d.Col < 1 {
			t.Errorf("%v has no position", d)
		}
	}
	for _, p := range []string{"episodes/episode-list.json", "episodes/episode-trailing.json", "episodes/episode-truncated.json"} {
		if len(byPath[p]) == 0 || !strings.HasPrefix(byPath[p][0], "error aiagents-syntax") {
			t.Errorf("%s: %v, want an aiagents-syntax error", p, byPath[p])
		}
	}
	if !strings.Contains(strings.Join(byPath["episodes/episode-dupkey.json"], " "), "warning aiagents-duplicate-key") {
		t.Errorf("duplicate key: %v", byPath["episodes/episode-dupkey.json"])
	}
	if !strings.Contains(strings.Join(byPath["episodes/episode-good.json"], " ")+strings.Join(byPath["episodes/episode-again.json"], " "), "aiagents-repeated-id") {
		t.Errorf("repeated id not reported: %v", byPath)
	}
	var ids []string
	for _, n := range l.Export.Notes {
		ids = append(ids, n.Title)
	}
	if strings.Join(ids, " ") != "episode-dupkey episode-good" && strings.Join(ids, " ") != "episode-good episode-dupkey" {
		t.Errorf("published %q", ids)
	}
}
