package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// listCalls are a call of each list and search tool on the demo.
var listCalls = []struct {
	tool string
	args map[string]any
}{
	{"search", map[string]any{"query": "payouts retries ledger"}},
	{"query_episodes", map[string]any{}},
	{"find_episodes", map[string]any{"task": "payouts"}},
	{"query_patterns", map[string]any{"min_success": 0, "min_occurrences": 0}},
	{"get_antipatterns", map[string]any{}},
	{"similar_episodes", map[string]any{"text": "duplicate payouts after a bank timeout"}},
	{"get_pending_threads", map[string]any{}},
	{"get_decision_sequence", map[string]any{"episode": "EPISODE-2026-11-17-session-26"}},
}

// listAnswer is a page as a client reads it.
type listAnswer struct {
	Total      int               `json:"total"`
	Items      []json.RawMessage `json:"items"`
	NextCursor string            `json:"next_cursor"`
	Truncated  bool              `json:"truncated"`
}

func withArgs(base map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// TestMCPBudgetTokens: every list and search tool takes budget_tokens
// (issue 32) and answers within it, with at least one item, saying
// truncated and where to go on when it cut; 0 and a huge budget answer
// as no budget does.
func TestMCPBudgetTokens(t *testing.T) {
	cs := mcpClient(t, demoRepo)
	for _, c := range listCalls {
		t.Run(c.tool, func(t *testing.T) {
			var whole listAnswer
			answer(t, cs, c.tool, withArgs(c.args, "limit", 50), &whole)
			size := countJSON(callTool(t, cs, c.tool, withArgs(c.args, "limit", 50)).StructuredContent)
			for _, huge := range []any{0, 1 << 40} {
				var same listAnswer
				answer(t, cs, c.tool, withArgs(c.args, "limit", 50, "budget_tokens", huge), &same)
				if len(same.Items) != len(whole.Items) || same.Truncated {
					t.Errorf("budget %v: %d items, truncated %v; without a budget %d", huge, len(same.Items), same.Truncated, len(whole.Items))
				}
			}
			if len(whole.Items) < 2 {
				t.Skipf("%s answers %d items on the demo: nothing to cut", c.tool, len(whole.Items))
			}
			for _, budget := range []int{size - 1, size / 2, 1} {
				res := callTool(t, cs, c.tool, withArgs(c.args, "limit", 50, "budget_tokens", budget))
				var cut listAnswer
				answer(t, cs, c.tool, withArgs(c.args, "limit", 50, "budget_tokens", budget), &cut)
				got := countJSON(res.StructuredContent)
				switch {
				case len(cut.Items) == 0:
					t.Errorf("budget %d: no items", budget)
				case got > budget && len(cut.Items) > 1:
					t.Errorf("budget %d: %d tokens in %d items", budget, got, len(cut.Items))
				case !cut.Truncated || cut.NextCursor == "":
					t.Errorf("budget %d: %d of %d items, truncated %v, next_cursor %q", budget, len(cut.Items), len(whole.Items), cut.Truncated, cut.NextCursor)
				}
				// The next page goes on from the first item left out.
				var next listAnswer
				answer(t, cs, c.tool, withArgs(c.args, "limit", 50, "cursor", cut.NextCursor), &next)
				if len(next.Items) == 0 || string(next.Items[0]) != string(whole.Items[len(cut.Items)]) {
					t.Errorf("budget %d: the next page does not start at item %d", budget, len(cut.Items))
				}
			}
		})
	}
}

// TestMCPHitsCarryBrief: a search or list hit says what the note is
// (issue 32): its headline, outcome and date, without a second call.
func TestMCPHitsCarryBrief(t *testing.T) {
	cs := mcpClient(t, demoRepo)
	for _, c := range listCalls[:3] {
		t.Run(c.tool, func(t *testing.T) {
			var p struct {
				Items []struct{ ID, Type, Headline, Outcome, Date, URL string }
			}
			answer(t, cs, c.tool, c.args, &p)
			if len(p.Items) == 0 {
				t.Fatal("no items")
			}
			for _, it := range p.Items {
				if it.Headline == "" || it.Date == "" || (it.Type == "episode" || c.tool != "search") && it.Outcome == "" {
					t.Errorf("%s: %+v", it.ID, it)
				}
			}
		})
	}
}

// TestMCPBaseURL: with --base-url the answers link to the published
// site, not to site paths; a base URL that is not an http(s) URL with a
// host is refused.
func TestMCPBaseURL(t *testing.T) {
	const base = "https://memory.example/acme/"
	cs := mcpClientOn(t, newMCPServer(queryFlags{repo: demoRepo, base: base}, io.Discard))
	for _, c := range append(listCalls[:6:6], struct {
		tool string
		args map[string]any
	}{"get_episode", map[string]any{"id": "EPISODE-2026-11-17-session-26"}}) {
		res := callTool(t, cs, c.tool, c.args)
		b, _ := json.Marshal(res.StructuredContent)
		var urls []string
		collectURLs(res.StructuredContent, &urls)
		if res.IsError || len(urls) == 0 {
			t.Errorf("%s: no URLs in %s", c.tool, b)
		}
		for _, u := range urls {
			if !strings.HasPrefix(u, base) {
				t.Errorf("%s: url %q is not under %s", c.tool, u, base)
			}
		}
	}
	for _, bad := range []string{"/memory/", "ftp://host/", "https://user:pw@host/", "not a url"} {
		err := cmdMCP(context.Background(), []string{"--repo", demoRepo, "--base-url", bad}, io.Discard, io.Discard)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--base-url") {
			t.Errorf("--base-url %q: %v, want a usage error", bad, err)
		}
	}
}

// collectURLs gathers the values of "url" and "json_url" in v.
func collectURLs(v any, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && (k == "url" || k == "json_url") && s != "" {
				*out = append(*out, s)
			}
			collectURLs(x, out)
		}
	case []any:
		for _, x := range v {
			collectURLs(x, out)
		}
	}
}
