package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/export"
)

// aiAgentsMemory is the last ai-agents snapshot with a causal graph: 287
// episodes and the causal-graph.json made from them.
const aiAgentsMemory = "../../../shared/corpus/real/ai-agents@316ed2f2d41c/.agents/memory"

// TestImportExportRealSnapshot: the real snapshot imported to markdown
// loads again with the same episodes and the same outcomes, and its
// export holds every episode, and a graph with nodes, edges and patterns.
func TestImportExportRealSnapshot(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(aiAgentsMemory, "episodes", "episode-*.json"))
	if len(files) == 0 {
		t.Skip("the real-data corpus (../shared/corpus/real) is not here; skipping the ai-agents import")
	}
	want := map[string]string{} // id -> outcome, as the JSON says
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n, _, err := aiagents.Decode(filepath.Base(f), data)
		if err != nil {
			t.Fatal(err)
		}
		want[n.Title] = string(n.Episode.Outcome)
	}
	ctx := context.Background()
	repo, out := filepath.Join(t.TempDir(), "repo"), filepath.Join(t.TempDir(), "out")
	mustRun(t, "import", "ai-agents", aiAgentsMemory, "--repo", repo)

	l, err := indexer.Load(ctx, indexer.Options{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	site := export.Documents(l.Export)
	got := map[string]string{}
	for _, e := range site.Episodes {
		got[e.ID] = string(e.Outcome)
	}
	if len(got) != 287 || len(want) != 287 {
		t.Fatalf("%d episodes published, %d in the JSON; want 287", len(got), len(want))
	}
	for id, o := range want {
		if got[id] != o {
			t.Errorf("%s: published outcome %q, the JSON says %q", id, got[id], o)
		}
	}
	if len(site.Patterns) != 6 {
		t.Errorf("%d patterns published, want the graph's 6", len(site.Patterns))
	}

	mustRun(t, "export", "--format", "ai-agents", "--out", out, "--repo", repo)
	exported, _ := filepath.Glob(filepath.Join(out, "episodes", "episode-*.json"))
	if len(exported) != 287 {
		t.Errorf("%d episode files exported, want 287", len(exported))
	}
	data, err := os.ReadFile(filepath.Join(out, "causality", "causal-graph.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Version, Updated       string
		Nodes, Edges, Patterns []json.RawMessage
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if g.Version != "1.0" || g.Updated == "" || len(g.Nodes) == 0 || len(g.Edges) == 0 || len(g.Patterns) != 6 {
		t.Errorf("causal-graph.json: version %q updated %q, %d nodes, %d edges, %d patterns", g.Version, g.Updated, len(g.Nodes), len(g.Edges), len(g.Patterns))
	}
	t.Logf("exported %d episodes, a graph of %d nodes, %d edges, %d patterns", len(exported), len(g.Nodes), len(g.Edges), len(g.Patterns))
}

func mustRun(t *testing.T, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, &stdout, &stderr); code != exitOK {
		t.Fatalf("engram %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	}
}

// TestImportExportExitCodes: usage errors exit 2, a file that cannot be
// imported 1 (after the others are written).
func TestImportExportExitCodes(t *testing.T) {
	dir := t.TempDir()
	eps := filepath.Join(dir, "mem", "episodes")
	if err := os.MkdirAll(eps, 0o755); err != nil {
		t.Fatal(err)
	}
	good := `{"id": "episode-ok", "session": "s", "timestamp": "2026-08-01T09:00:00Z", "outcome": "success", "task": "t", "decisions": [], "events": [], "metrics": {}}`
	for name, data := range map[string]string{"episode-ok.json": good, "episode-bad.json": "{\"id\": "} {
		if err := os.WriteFile(filepath.Join(eps, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	repo := filepath.Join(dir, "repo")
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"import"}, exitUsage, "import takes ai-agents DIR"},
		{[]string{"import", "csv", "x"}, exitUsage, `unknown format "csv"`},
		{[]string{"import", "ai-agents", "x", "--nope"}, exitUsage, "flag provided but not defined"},
		{[]string{"export", "--out", "x"}, exitUsage, "--format must be ai-agents"},
		{[]string{"export", "--format", "ai-agents"}, exitUsage, "--out DIR is required"},
		{[]string{"export", "--format", "ai-agents", "--out", "x", "extra"}, exitUsage, "unexpected argument"},
		{[]string{"import", "ai-agents", filepath.Join(dir, "none"), "--repo", repo}, exitFail, "is not a directory"},
		{[]string{"import", "ai-agents", filepath.Join(dir, "mem"), "--repo", repo}, exitFail, "episode-bad.json:1:7: error: not valid JSON"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, &stdout, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.err) {
			t.Errorf("engram %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), code, stderr.String(), tc.code, tc.err)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, "episodes", "episode-ok.md")); err != nil {
		t.Errorf("the good file was not imported beside the bad one: %v", err)
	}
}
