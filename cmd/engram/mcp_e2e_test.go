package main

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/source"
)

// inspectorEnv names the MCP Inspector's launcher (mcp-inspector), which
// .ci/run installs from npm; without it the inspector's half of
// TestMCPProcess looks for mcp-inspector on PATH, and skips locally, but
// fails in CI (CI set), where it must run.
const inspectorEnv = "ENGRAM_MCP_INSPECTOR"

// TestMCPProcess starts `engram mcp --repo R` as a process and talks to
// it over stdio with two clients: the go-sdk's command transport, and the
// MCP Inspector's CLI mode, a client no one here wrote.
func TestMCPProcess(t *testing.T) {
	bin := engramOnPath(t)
	repo := demoCopy(t)
	env := append(os.Environ(), cacheEnv+"="+t.TempDir())
	t.Run("sdk", func(t *testing.T) { sdkOverStdio(t, bin, repo, env) })
	t.Run("inspector", func(t *testing.T) { inspectorOverStdio(t, bin, repo, env) })
}

func sdkOverStdio(t *testing.T, bin, repo string, env []string) {
	ctx, cancel := context.WithCancel(testDeadline(t))
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--repo", repo)
	cmd.Env = env
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 18 {
		t.Fatalf("tools/list: %v, %d tools", err, len(tools.Tools))
	}
	boot := callTool(t, cs, "bootstrap", map[string]any{})
	if boot.IsError || !strings.Contains(text(boot), "#") {
		t.Errorf("bootstrap: %s", text(boot))
	}
	var eps page[episodeItem]
	answer(t, cs, "query_episodes", map[string]any{"limit": 1}, &eps)
	var card episodeCard
	answer(t, cs, "get_episode", map[string]any{"id": eps.Items[0].ID}, &card)
	if card.ID != eps.Items[0].ID {
		t.Errorf("get_episode: %+v", card)
	}
	var w wrote
	answer(t, cs, "store_episode", map[string]any{"title": "EPISODE-2026-11-20-stdio", "task": "talk to engram over stdio", "outcome": "success"}, &w)
	answer(t, cs, "get_episode", map[string]any{"id": "EPISODE-2026-11-20-stdio"}, &card)
	if card.Task != "talk to engram over stdio" {
		t.Errorf("get_episode of the stored episode: %+v", card)
	}
	from, to := demoEdge(t, repo)
	var p pathCard
	answer(t, cs, "get_causal_path", map[string]any{"from": from, "to": to}, &p)
	if len(p.Nodes) < 2 {
		t.Errorf("get_causal_path: %+v", p)
	}
}

// demoEdge is the ends of one edge of the demo's graph.
func demoEdge(t *testing.T, repo string) (string, string) {
	snap, err := (&queryFlags{repo: repo}).snapshot(context.Background(), os.Stderr, indexer.PartGraph)
	if err != nil {
		t.Fatal(err)
	}
	return snap.Graph.Edges[0].Source, snap.Graph.Edges[0].Target
}

func inspectorOverStdio(t *testing.T, bin, repo string, env []string) {
	inspector := os.Getenv(inspectorEnv)
	if inspector == "" {
		inspector, _ = exec.LookPath("mcp-inspector")
	}
	if inspector == "" {
		msg := "the MCP Inspector is not installed: npm install @modelcontextprotocol/inspector@2.12.0 and set " + inspectorEnv + " to its node_modules/.bin/mcp-inspector (.ci/run does)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	run := func(args ...string) map[string]any {
		t.Helper()
		ctx, cancel := context.WithCancel(testDeadline(t))
		defer cancel()
		cmd := exec.CommandContext(ctx, inspector, append([]string{"--cli", bin, "mcp", "--repo", repo}, args...)...)
		cmd.Env = env
		out, err := cmd.Output()
		var v map[string]any
		if jerr := json.Unmarshal(out, &v); err != nil || jerr != nil {
			t.Fatalf("inspector %v: %v %v\n%s", args, err, jerr, out)
		}
		return v
	}
	tools := run("--method", "tools/list")["tools"].([]any)
	if len(tools) != 18 {
		t.Errorf("inspector tools/list: %d tools", len(tools))
	}
	boot := run("--method", "tools/call", "--tool-name", "bootstrap", "--tool-arg", "format=json")
	if boot["isError"] == true || boot["structuredContent"] == nil {
		t.Errorf("inspector bootstrap: %v", boot)
	}
	eps := run("--method", "tools/call", "--tool-name", "query_episodes", "--tool-arg", "limit=1")
	id := eps["structuredContent"].(map[string]any)["items"].([]any)[0].(map[string]any)["id"].(string)
	ep := run("--method", "tools/call", "--tool-name", "get_episode", "--tool-arg", "id="+id)
	if ep["structuredContent"].(map[string]any)["id"] != id {
		t.Errorf("inspector get_episode %s: %v", id, ep)
	}
	stored := run("--method", "tools/call", "--tool-name", "store_episode", "--tool-arg", "title=EPISODE-2026-11-21-inspector",
		"--tool-arg", "task=talk to engram from the inspector", "--tool-arg", "outcome=partial")
	if stored["isError"] == true {
		t.Errorf("inspector store_episode: %v", stored)
	}
	got := run("--method", "tools/call", "--tool-name", "get_episode", "--tool-arg", "id=EPISODE-2026-11-21-inspector")
	if got["structuredContent"].(map[string]any)["outcome"] != "partial" {
		t.Errorf("inspector get_episode of the stored episode: %v", got)
	}
	from, to := demoEdge(t, repo)
	path := run("--method", "tools/call", "--tool-name", "get_causal_path", "--tool-arg", "from="+from, "--tool-arg", "to="+to)
	if nodes, _ := path["structuredContent"].(map[string]any)["nodes"].([]any); len(nodes) < 2 {
		t.Errorf("inspector get_causal_path: %v", path)
	}
}

// demoCopy is the demo memory (content/) in a git repository of its own,
// for tests that write.
func demoCopy(t testing.TB) string {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(demoRepo, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(demoRepo, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := source.WriteRepo(dir, []source.Commit{{Files: files, When: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}}); err != nil {
		t.Fatal(err)
	}
	return dir
}
