package main

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestMCPBadCalls: each bad call is a tool error saying what to fix,
// and the server answers the next call as before.
func TestMCPBadCalls(t *testing.T) {
	cs := mcpClient(t, demoRepo)
	huge := strings.Repeat("x", 10<<20)
	for _, c := range []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"missing argument", "get_episode", map[string]any{}, `missing properties: ["id"]`},
		{"empty argument", "get_episode", map[string]any{"id": " "}, "id is empty: give a note id"},
		{"wrong type", "get_episode", map[string]any{"id": 5}, "id"},
		{"wrong type of number", "query_patterns", map[string]any{"min_success": "high"}, "min_success"},
		{"unknown episode", "get_episode", map[string]any{"id": "session-0"}, `no episode named "session-0"; did you mean`},
		{"unknown node", "get_causal_path", map[string]any{"from": "no such note", "to": "x"}, `no note or graph node named "no such note"`},
		{"unknown decision", "what_if", map[string]any{"episode": "", "decision": "d1"}, "episode is empty"},
		{"huge id", "get_episode", map[string]any{"id": huge}, "id is 10485760 bytes, more than the 1024 allowed"},
		{"huge query", "search", map[string]any{"query": huge}, "query is 10485760 bytes"},
		{"bad cursor", "query_episodes", map[string]any{"cursor": "page2"}, "is not one this server returned"},
		{"bad limit", "query_episodes", map[string]any{"limit": 500}, "give 1 to 50 items per page"},
		{"bad outcome", "query_episodes", map[string]any{"outcome": "won"}, `outcome is "won": give success`},
		{"bad since", "find_episodes", map[string]any{"since": "last year"}, "neither a duration"},
		{"both or neither", "similar_episodes", map[string]any{}, "give episode (an episode id) or text"},
		{"bad format", "bootstrap", map[string]any{"format": "html"}, "give md or json"},
		{"bad depth", "get_causal_path", map[string]any{"from": "a", "to": "b", "max_depth": 99}, "give 1 to 10 edges"},
		{"bad type", "search", map[string]any{"query": "x", "type": "page"}, "give episode, pattern or note"},
		{"negative budget", "search", map[string]any{"query": "x", "budget_tokens": -1}, "budget_tokens is -1: give the most tokens"},
		{"negative budget of a list", "get_pending_threads", map[string]any{"budget_tokens": -500}, "budget_tokens is -500"},
		{"wrong type of budget", "query_episodes", map[string]any{"budget_tokens": "lots"}, "budget_tokens"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := callTool(t, cs, c.tool, c.args)
			if !res.IsError || !strings.Contains(text(res), c.want) {
				t.Errorf("%s: error %v %q, want one saying %q", c.tool, res.IsError, cutTail(text(res)), c.want)
			}
			var p page[episodeItem]
			answer(t, cs, "query_episodes", map[string]any{"limit": 1}, &p)
			if len(p.Items) != 1 {
				t.Errorf("after a bad call the server answers %+v", p)
			}
		})
	}
}

func cutTail(s string) string { return s[:min(len(s), 300)] }

// TestMCPWrongTypes: for every tool and each argument its input schema
// declares, a call that gives that argument a value of another JSON
// type is a tool error naming the argument and the type wanted; nothing
// is written, and the server answers the next call.
func TestMCPWrongTypes(t *testing.T) {
	cs := mcpClientOn(t, newMCPServer(queryFlags{repo: demoCopy(t)}, io.Discard))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wrong := map[string]any{"string": 5, "integer": "5", "number": "0.5", "boolean": "true", "array": "a", "object": []any{}}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Properties map[string]struct {
				Type string `json:"type"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		for name, p := range schema.Properties {
			t.Run(tool.Name+"/"+name, func(t *testing.T) {
				res := callTool(t, cs, tool.Name, map[string]any{name: wrong[p.Type]})
				msg := text(res)
				if !res.IsError || !strings.Contains(msg, name) || !strings.Contains(msg, `want "`+p.Type+`"`) {
					t.Errorf("%s %s=%v: error %v %q, want one naming %s and %s", tool.Name, name, wrong[p.Type], res.IsError, cutTail(msg), name, p.Type)
				}
			})
		}
	}
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"store_episode", map[string]any{"title": "EPISODE-x", "task": "t", "outcome": "success", "decisions": []any{map[string]any{"options": "a"}}}, "options"},
		{"store_episode", map[string]any{"title": "EPISODE-x", "task": "t", "outcome": "success", "tags": []any{1}}, "tags"},
		{"store_episode", map[string]any{"title": "EPISODE-x", "task": "t", "outcome": "success", "tags": nil}, "tags"},
		{"add_pattern", map[string]any{"title": "PATTERN-x", "trigger": "t", "action": "a", "causal": []any{map[string]any{"type": "causes", "target": "x", "weight": "high"}}}, "weight"},
	} {
		t.Run(c.tool+"/nested/"+c.want, func(t *testing.T) {
			res := callTool(t, cs, c.tool, c.args)
			if !res.IsError || !strings.Contains(text(res), c.want) {
				t.Errorf("%s %v: error %v %q, want one naming %s", c.tool, c.args, res.IsError, cutTail(text(res)), c.want)
			}
		})
	}
	var p page[episodeItem]
	answer(t, cs, "query_episodes", map[string]any{"since": "2000-01-01", "limit": 50}, &p)
	for _, it := range p.Items {
		if it.ID == "EPISODE-x" {
			t.Errorf("a refused call wrote %s", it.ID)
		}
	}
}
