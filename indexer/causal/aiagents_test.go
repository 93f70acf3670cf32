package causal

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/note"
)

// aiAgentsSnapshot is the last commit of rjmurillo/ai-agents that still
// has its causal-graph.json, with all 287 episodes that graph was made
// from (see ../shared/corpus/real/SOURCES.md).
const aiAgentsSnapshot = "../../../shared/corpus/real/ai-agents@316ed2f2d41c/.agents/memory"

// TestAIAgentsGraphHealth builds engram's graph from the real ai-agents
// episodes and measures it next to the causal-graph.json ai-agents
// committed from the same episodes, the file its owners deleted because
// 96% of its nodes were isolated. The numbers are in BENCHMARKS.md.
func TestAIAgentsGraphHealth(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(aiAgentsSnapshot, "episodes", "episode-*.json"))
	if len(files) == 0 {
		t.Skip("the real-data corpus (../shared/corpus/real) is not here; skipping the ai-agents graph")
	}
	sort.Strings(files)
	var notes []note.Note
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n, _, err := aiagents.Decode(filepath.Base(f), data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		notes = append(notes, n)
	}
	res := Build(notes, DefaultOptions())
	h := res.Health
	types := map[string]int{}
	for _, n := range res.Nodes {
		types[n.Type]++
	}
	t.Logf("engram: %d nodes %v, %d edges %v, isolated %d (%.1f%%)", h.Nodes, types, len(res.Edges), h.EdgeTypes, h.Isolated, 100*h.IsolatedShare)
	events := 0
	for _, n := range notes {
		events += len(n.Episode.Events)
	}
	all := h.Nodes - types[TypeEvent] + events
	t.Logf("engram, counting every event as a node: %d nodes, isolated %d (%.1f%%)", all, all-(h.Nodes-h.Isolated), 100*float64(all-(h.Nodes-h.Isolated))/float64(all))

	var committed struct {
		Nodes []struct{ ID, Type string }
		Edges []struct{ Source, Target, Type string }
	}
	data, err := os.ReadFile(filepath.Join(aiAgentsSnapshot, "causality", "causal-graph.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &committed); err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	ctypes := map[string]int{}
	for _, e := range committed.Edges {
		linked[e.Source], linked[e.Target] = true, true
		ctypes[e.Type]++
	}
	isolated := 0
	for _, n := range committed.Nodes {
		if !linked[n.ID] {
			isolated++
		}
	}
	share := float64(isolated) / float64(len(committed.Nodes))
	t.Logf("ai-agents causal-graph.json: %d nodes, %d edges %v, isolated %d (%.1f%%)", len(committed.Nodes), len(committed.Edges), ctypes, isolated, 100*share)

	if len(notes) != 287 {
		t.Errorf("%d episodes, want 287", len(notes))
	}
	if share < 0.95 {
		t.Errorf("the committed graph's isolated share is %.3f; the corpus is not the one SOURCES.md describes", share)
	}
	// Every event that takes part in a caused_by/leads_to link is a node
	// and is linked; episodes and decisions are nodes whether linked or
	// not, so the share measures the episodes and decisions that no causal
	// claim touches.
	if h.IsolatedShare >= share {
		t.Errorf("engram's graph is as isolated as the one ai-agents deleted: %.3f", h.IsolatedShare)
	}
	if len(h.EdgeTypes) < 1 || h.EdgeTypes[note.EdgeLeadsTo] == 0 {
		t.Errorf("edge types %v", h.EdgeTypes)
	}
}
