package main

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/store"
)

// demoRepo is the demo memory, engram's own content/.
const demoRepo = "../../content"

// mcpClient connects an in-memory client to a server on repo.
func mcpClient(t testing.TB, repo string) *mcp.ClientSession {
	t.Helper()
	return mcpClientOn(t, newMCPServer(queryFlags{repo: repo}, io.Discard))
}

// newMCPServer is the server with every tool and resource; q names the
// repository (already defaulted) and the reference time.
func newMCPServer(q queryFlags, stderr io.Writer) *mcp.Server {
	return newCheckingMCPServer(q, stderr, freshFor, toolsAll)
}

// mcpClientOn connects an in-memory client to srv.
func mcpClientOn(t testing.TB, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// callTool calls a tool; a protocol error fails the test, a tool error
// is returned as the result.
func callTool(t testing.TB, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v", name, args, err)
	}
	return res
}

// answer calls a tool that must succeed and decodes its structured
// answer into out.
func answer(t testing.TB, cs *mcp.ClientSession, name string, args, out any) {
	t.Helper()
	res := callTool(t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s(%v): tool error %s", name, args, text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, b)
	}
}

func text(res *mcp.CallToolResult) string {
	var s []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			s = append(s, tc.Text)
		}
	}
	return strings.Join(s, "\n")
}

func TestMCPListsEveryTool(t *testing.T) {
	cs := mcpClient(t, demoRepo)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	writes := map[string]bool{"store_episode": true, "upsert_episode": true, "add_pattern": true, "record_feedback": true,
		"link_episode_to_concept": true, "mark_thread_status": true}
	var names []string
	for _, tool := range res.Tools {
		if writes[tool.Name] {
			if tool.Annotations == nil || tool.Annotations.ReadOnlyHint {
				t.Errorf("%s writes but is annotated read-only", tool.Name)
			}
			delete(writes, tool.Name)
			continue
		}
		names = append(names, tool.Name)
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s is not annotated read-only", tool.Name)
		}
		if tool.InputSchema == nil || tool.Description == "" {
			t.Errorf("%s has no input schema or description", tool.Name)
		}
	}
	want := []string{"bootstrap", "find_episodes", "get_antipatterns", "get_causal_path", "get_decision_sequence", "get_episode", "get_pattern",
		"get_pending_threads", "query_episodes", "query_patterns", "search", "similar_episodes", "what_if"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("read tools %v, want %v", names, want)
	}
	if len(writes) > 0 {
		t.Errorf("write tools missing: %v", writes)
	}
}

func TestMCPEpisodes(t *testing.T) {
	cs := mcpClient(t, demoRepo)
	var all page[episodeItem]
	answer(t, cs, "query_episodes", map[string]any{"limit": 50}, &all)
	if all.Total < 3 || len(all.Items) == 0 || all.ReferenceTime == "" {
		t.Fatalf("query_episodes: %+v", all)
	}
	// Paging with the cursor walks the same list.
	var walked []string
	cursor := ""
	for range 100 {
		var p page[episodeItem]
		answer(t, cs, "find_episodes", map[string]any{"limit": 2, "cursor": cursor}, &p)
		for _, it := range p.Items {
			walked = append(walked, it.ID)
		}
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	if len(walked) != all.Total {
		t.Errorf("pages of 2 gave %d episodes, want %d", len(walked), all.Total)
	}
	var failed page[episodeItem]
	answer(t, cs, "query_episodes", map[string]any{"outcome": "failure"}, &failed)
	for _, it := range failed.Items {
		if it.Outcome != "failure" {
			t.Errorf("outcome failure gave %+v", it)
		}
	}
	ep := all.Items[0]
	var card episodeCard
	answer(t, cs, "get_episode", map[string]any{"id": ep.ID}, &card)
	if card.ID != ep.ID || card.JSONURL == "" || card.Outcome == "" {
		t.Errorf("get_episode: %+v", card)
	}
	var ds decisionsPage
	answer(t, cs, "get_decision_sequence", map[string]any{"episode": ep.ID}, &ds)
	if ds.Episode != ep.ID || ds.Total != card.DecisionsTotal {
		t.Errorf("get_decision_sequence: %+v, episode has %d decisions", ds, card.DecisionsTotal)
	}
}

func TestMCPPatterns(t *testing.T) {
	cs := mcpClient(t, demoRepo)
	var best page[patternCard]
	answer(t, cs, "query_patterns", map[string]any{"min_success": 0, "min_occurrences": 0, "limit": 50}, &best)
	if best.Total == 0 {
		t.Fatal("query_patterns found no pattern in the demo")
	}
	for _, p := range best.Items {
		if p.Antipattern || p.ID == "" {
			t.Errorf("query_patterns: %+v", p)
		}
	}
	var anti page[patternCard]
	answer(t, cs, "get_antipatterns", map[string]any{}, &anti)
	if anti.Total == 0 || !anti.Items[0].Antipattern {
		t.Errorf("get_antipatterns: %+v", anti)
	}
	var strict page[patternCard]
	answer(t, cs, "get_antipatterns", map[string]any{"max_success": 0, "min_occurrences": 1000}, &strict)
	var none page[patternCard]
	answer(t, cs, "query_patterns", map[string]any{"trigger": "no trigger says this"}, &none)
	if none.Total != 0 {
		t.Errorf("a trigger no pattern has matched %d", none.Total)
	}
}

func TestMCPSearchPathWhatIf(t *testing.T) {
	cs := mcpClient(t, demoRepo)
	var hits struct {
		page[struct{ ID, Type, URL string }]
	}
	answer(t, cs, "search", map[string]any{"query": "deploy", "limit": 3}, &hits)
	if len(hits.Items) == 0 || hits.Items[0].ID == "" {
		t.Fatalf("search deploy: %+v", hits)
	}
	var sim page[struct{ ID string }]
	answer(t, cs, "similar_episodes", map[string]any{"text": "a flaky test blocked the release"}, &sim)
	if len(sim.Items) == 0 {
		t.Error("similar_episodes found nothing")
	}
	from, to, ep, dec := demoPath(t, cs)
	var p pathCard
	answer(t, cs, "get_causal_path", map[string]any{"from": from, "to": to}, &p)
	if len(p.Nodes) != len(p.Links)+1 || p.Nodes[0] != from || p.Strength <= 0 {
		t.Errorf("get_causal_path %s → %s: %+v", from, to, p)
	}
	var w whatIfCard
	answer(t, cs, "what_if", map[string]any{"episode": ep, "decision": dec}, &w)
	if w.Episode != ep || w.Decision.ID == "" {
		t.Errorf("what_if: %+v", w)
	}
	var pending page[struct{ ID, Type string }]
	answer(t, cs, "get_pending_threads", map[string]any{}, &pending)
	for _, it := range pending.Items {
		if it.Type != "thread" && it.Type != "session" {
			t.Errorf("pending %+v", it)
		}
	}
}

// demoPath finds, in the demo, an edge's ends and an episode decision
// with options not chosen.
func demoPath(t *testing.T, cs *mcp.ClientSession) (from, to, episode, decision string) {
	t.Helper()
	snap, err := (&queryFlags{repo: demoRepo}).snapshot(context.Background(), io.Discard, store.PartEpisodes|store.PartGraph)
	if err != nil {
		t.Fatal(err)
	}
	e := snap.Graph.Edges[0]
	for _, x := range snap.Episodes {
		for _, d := range x.Decisions {
			if len(d.Options) > 1 && episode == "" {
				episode, decision = x.ID, d.ID
			}
		}
	}
	if episode == "" {
		t.Fatal("no demo decision has options")
	}
	return e.Source, e.Target, episode, decision
}

func TestMCPBootstrapAndResources(t *testing.T) {
	cs := mcpClient(t, demoRepo)
	ctx := context.Background()
	md := callTool(t, cs, "bootstrap", map[string]any{})
	if md.IsError || !strings.Contains(text(md), "#") {
		t.Errorf("bootstrap md: %s", text(md))
	}
	var js struct {
		BudgetTokens int `json:"budget_tokens"`
		Tokens       int `json:"tokens"`
	}
	answer(t, cs, "bootstrap", map[string]any{"format": "json", "budget": 500}, &js)
	if js.BudgetTokens != 500 || js.Tokens > 500 {
		t.Errorf("bootstrap json at 500: %+v", js)
	}
	r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "engram://bootstrap"})
	if err != nil || r.Contents[0].Text != text(md) {
		t.Errorf("engram://bootstrap: %v; differs from the bootstrap tool", err)
	}
	var eps page[episodeItem]
	answer(t, cs, "query_episodes", map[string]any{}, &eps)
	id := eps.Items[0].ID
	r, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "engram://episode/" + url.PathEscape(id)})
	if err != nil {
		t.Fatal(err)
	}
	var card episodeCard
	if err := json.Unmarshal([]byte(r.Contents[0].Text), &card); err != nil || card.ID != id {
		t.Errorf("engram://episode/%s: %v %+v", id, err, card)
	}
	var pats page[patternCard]
	answer(t, cs, "get_antipatterns", map[string]any{}, &pats)
	r, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "engram://pattern/" + url.PathEscape(pats.Items[0].ID)})
	if err != nil || !strings.Contains(r.Contents[0].Text, `"antipattern":true`) {
		t.Errorf("engram://pattern: %v %v", err, r)
	}
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "engram://pattern/no%20such%20pattern"})
	if err == nil || !strings.Contains(err.Error(), `no pattern named "no such pattern"`) {
		t.Errorf("an unknown pattern: %v", err)
	}
	list, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(list.ResourceTemplates) != 2 {
		t.Errorf("resource templates: %v %v", err, list)
	}
}
