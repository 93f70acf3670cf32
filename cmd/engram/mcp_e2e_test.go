package main

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
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
	if err != nil || len(tools.Tools) != len(defaultTools) {
		t.Fatalf("tools/list: %v, %d tools, want the %d of the default", err, len(tools.Tools), len(defaultTools))
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
}

// inspectorPath is the MCP Inspector's launcher; outside CI, a test
// without it skips.
func inspectorPath(t *testing.T) string {
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
	return inspector
}

// inspectorOverStdio lists the tools with the Inspector CLI, which
// checks each schema's portability, and calls every tool of the all
// profile with arguments of each JSON type as a user types them
// (--tool-arg 'tags=["a"]'): the Inspector converts each by the tool's
// input schema, so a schema it cannot read would send a string. Every
// structured answer must hold to the tool's output schema.
func inspectorOverStdio(t *testing.T, bin, repo string, env []string) {
	inspector := inspectorPath(t)
	run := func(profile string, args ...string) (map[string]any, string) {
		t.Helper()
		ctx, cancel := context.WithCancel(testDeadline(t))
		defer cancel()
		cmd := exec.CommandContext(ctx, inspector, append([]string{"--cli", bin, "mcp", "--repo", repo, "--tools", profile}, args...)...)
		cmd.Env = env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var v map[string]any
		if jerr := json.Unmarshal(out, &v); err != nil || jerr != nil {
			t.Fatalf("inspector %v: %v %v\n%s\n%s", args, err, jerr, out, stderr.String())
		}
		return v, stderr.String()
	}
	def, _ := run("default", "--method", "tools/list")
	if n := len(def["tools"].([]any)); n != len(defaultTools) {
		t.Errorf("inspector tools/list, default: %d tools, want %d", n, len(defaultTools))
	}
	all, warnings := run("all", "--method", "tools/list", "--strict")
	if strings.Contains(strings.ToLower(warnings), "warning") || strings.Contains(warnings, "error") {
		t.Errorf("the inspector finds schemas it cannot port:\n%s", warnings)
	}
	schemas := outputSchemas(t, all["tools"].([]any))
	called := map[string]bool{}
	for _, c := range typedCalls(t, repo) {
		t.Run(c.tool, func(t *testing.T) {
			args := []string{"--method", "tools/call", "--tool-name", c.tool}
			for _, a := range c.args {
				args = append(args, "--tool-arg", a)
			}
			res, _ := run("all", args...)
			if res["isError"] == true {
				t.Fatalf("%s %v: %v", c.tool, c.args, res["content"])
			}
			out, ok := res["structuredContent"].(map[string]any)
			if !ok {
				t.Fatalf("%s: no structured content: %v", c.tool, res)
			}
			if err := schemas[c.tool].Validate(out); err != nil {
				t.Errorf("%s: the answer breaks its output schema: %v\n%v", c.tool, err, out)
			}
			if c.check != nil {
				c.check(t, out)
			}
		})
		called[c.tool] = true
	}
	for name := range schemas {
		if !called[name] {
			t.Errorf("the inspector never called %s", name)
		}
	}
}

// outputSchemas are the tools' output schemas, resolved for validation.
func outputSchemas(t *testing.T, tools []any) map[string]*jsonschema.Resolved {
	out := map[string]*jsonschema.Resolved{}
	for _, tool := range tools {
		m := tool.(map[string]any)
		b, err := json.Marshal(m["outputSchema"])
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: output schema %s: %v", m["name"], b, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: output schema: %v", m["name"], err)
		}
		out[m["name"].(string)] = r
	}
	return out
}

// typedCall is one tool call as a user gives it to the Inspector CLI:
// key=value, the value JSON (a number, a boolean, an array, an object)
// or a plain string; check looks at the answer further.
type typedCall struct {
	tool  string
	args  []string
	check func(t *testing.T, out map[string]any)
}

// typedCalls call each tool on the demo copy in repo, reads first, then
// the writes and a read of what was written.
func typedCalls(t *testing.T, repo string) []typedCall {
	snap, err := (&queryFlags{repo: repo}).snapshot(context.Background(), io.Discard, store.PartEpisodes|store.PartGraph|store.PartPatterns)
	if err != nil {
		t.Fatal(err)
	}
	ep, pattern := snap.Episodes[0].ID, snap.Patterns[0].ID
	from, to := snap.Graph.Edges[0].Source, snap.Graph.Edges[0].Target
	var optEp, optDec string
	for _, x := range snap.Episodes {
		for _, d := range x.Decisions {
			if len(d.Options) > 1 && optEp == "" {
				optEp, optDec = x.ID, d.ID
			}
		}
	}
	const stored = "EPISODE-2026-11-21-inspector"
	items := func(min int) func(*testing.T, map[string]any) {
		return func(t *testing.T, out map[string]any) {
			if n := len(out["items"].([]any)); n < min || n > 2 {
				t.Errorf("%d items, want %d to 2 (limit=2 must arrive as a number)", n, min)
			}
		}
	}
	return []typedCall{
		{"bootstrap", []string{"budget=800", "format=json"}, func(t *testing.T, out map[string]any) {
			if out["budget_tokens"] != 800.0 {
				t.Errorf("budget_tokens %v, want 800", out["budget_tokens"])
			}
		}},
		{"bootstrap", []string{"budget=600"}, func(t *testing.T, out map[string]any) {
			if md, _ := out["markdown"].(string); !strings.Contains(md, "#") || out["budget_tokens"] != 600.0 {
				t.Errorf("bootstrap md: %v", out)
			}
		}},
		{"search", []string{"query=idempotency retries", "type=episode", "limit=2"}, items(1)},
		{"get_episode", []string{"id=" + ep}, nil},
		{"get_pattern", []string{"id=" + pattern}, nil},
		{"query_episodes", []string{"outcome=failure", "since=2026-01-01", "limit=2"}, items(1)},
		{"find_episodes", []string{"tag=payouts", "limit=2"}, items(1)},
		{"similar_episodes", []string{"episode=" + ep, "limit=2"}, nil},
		{"get_decision_sequence", []string{"episode=" + optEp, "limit=1"}, nil},
		{"query_patterns", []string{"min_success=0.5", "min_occurrences=1", "limit=2"}, items(1)},
		{"get_antipatterns", []string{"max_success=0.5", "min_occurrences=1", "limit=2"}, items(1)},
		{"get_causal_path", []string{"from=" + from, "to=" + to, "max_depth=3"}, nil},
		{"what_if", []string{"episode=" + optEp, "decision=" + optDec}, nil},
		{"get_pending_threads", []string{"limit=5"}, nil},
		{"store_episode", []string{"title=" + stored, "task=talk to engram from the inspector", "outcome=partial",
			`tags=["e2e","inspector"]`, "duration_minutes=12.5", `lessons=["typed arguments arrive typed"]`,
			`decisions=[{"title":"Client","options":["go-sdk","inspector"],"chosen":"inspector","outcome":"success"}]`,
			`events=[{"text":"listed the tools"}]`, `metrics={"calls":19}`, "commit=true"}, func(t *testing.T, out map[string]any) {
			if c, _ := out["commit"].(string); c == "" {
				t.Errorf("commit=true made no commit: %v", out)
			}
		}},
		{"get_episode", []string{"id=" + stored}, func(t *testing.T, out map[string]any) {
			tags, _ := json.Marshal(out["tags"])
			if out["outcome"] != "partial" || string(tags) != `["e2e","inspector"]` || out["decisions_total"] != 1.0 {
				t.Errorf("the stored episode: %v", out)
			}
		}},
		{"upsert_episode", []string{"title=" + stored, "task=talk to engram from the inspector, again", "outcome=success", `tags=["e2e"]`}, nil},
		{"add_pattern", []string{"title=PATTERN-typed-arguments", "trigger=a client reads the tool schema", "action=send each argument in its JSON type",
			"success_rate=0.75", "occurrences=4", `tags=["e2e"]`, `causal=[{"type":"enables","target":"` + stored + `","weight":0.5}]`,
			`evidence=[{"episode":"` + stored + `","outcome":"success"}]`}, nil},
		{"record_feedback", []string{"note=" + pattern, "kind=echo", "session=e2e", "commit=false"}, nil},
		{"link_episode_to_concept", []string{"episode=" + ep, "concept=Idempotency Keys"}, nil},
		{"mark_thread_status", []string{"thread=Thread: Ledger amount migration", "status=processing"}, nil},
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
