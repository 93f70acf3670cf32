package main

import (
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/gen"
)

// The MCP benchmarks call a tool of a running server (started once, an
// in-memory client) on a warm cache of 10,000 notes: each call checks
// the repository's fingerprint, reads the cache parts the tool needs and
// answers, as a query command does minus the process start.

func benchMCP(b *testing.B, tool string, args func(cs *mcp.ClientSession) map[string]any) {
	benchMCPChecking(b, freshFor, tool, args)
}

// benchMCPChecking is benchMCP with a server that checks the
// repository's fingerprint once fresh has passed (0: at every call, as
// the first call after a pause of a second does).
func benchMCPChecking(b *testing.B, fresh time.Duration, tool string, args func(cs *mcp.ClientSession) map[string]any) {
	repo, cache := benchRepo(b, gen.Sized(10_000))
	b.Setenv(cacheEnv, cache)
	cs := mcpClientOn(b, newCheckingMCPServer(queryFlags{repo: repo}, io.Discard, fresh, toolsAll))
	a := args(cs)
	callTool(b, cs, tool, a) // warms the parts this tool reads
	for b.Loop() {
		if res := callTool(b, cs, tool, a); res.IsError {
			b.Fatalf("%s: %s", tool, text(res))
		}
	}
}

func BenchmarkMCPGetEpisode10k(b *testing.B) {
	benchMCP(b, "get_episode", func(cs *mcp.ClientSession) map[string]any {
		var p page[episodeItem]
		answer(b, cs, "query_episodes", map[string]any{"limit": 1}, &p)
		return map[string]any{"id": p.Items[0].ID}
	})
}

func BenchmarkMCPQueryEpisodes10k(b *testing.B) {
	benchMCP(b, "query_episodes", func(*mcp.ClientSession) map[string]any { return map[string]any{"outcome": "failure"} })
}

func BenchmarkMCPGetAntipatterns10k(b *testing.B) {
	benchMCP(b, "get_antipatterns", func(*mcp.ClientSession) map[string]any { return map[string]any{} })
}

func BenchmarkMCPSearch10k(b *testing.B) {
	benchMCP(b, "search", func(*mcp.ClientSession) map[string]any { return map[string]any{"query": "deploy rollback"} })
}

// BenchmarkMCPGetEpisode10kChecked is get_episode when every call checks
// whether the repository moved on (it did not): the cost of a call after
// a pause.
func BenchmarkMCPGetEpisode10kChecked(b *testing.B) {
	benchMCPChecking(b, 0, "get_episode", func(cs *mcp.ClientSession) map[string]any {
		var p page[episodeItem]
		answer(b, cs, "query_episodes", map[string]any{"limit": 1}, &p)
		return map[string]any{"id": p.Items[0].ID}
	})
}
