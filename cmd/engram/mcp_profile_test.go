package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/tokens"
)

// listTools is the tools/list answer of a server with the tool set ts,
// and its size in tokens as a client reads it (its JSON).
func listTools(t *testing.T, ts toolSet) ([]*mcp.Tool, int) {
	t.Helper()
	cs := mcpClientOn(t, newCheckingMCPServer(queryFlags{repo: demoRepo}, io.Discard, freshFor, ts))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools, tokens.Count(string(b))
}

func toolNames(tools []*mcp.Tool) []string {
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// TestMCPToolSets: the default tools/list costs at most
// defaultToolsBudget tokens and lists one tool per job; read and write
// split all by the tools' annotations.
func TestMCPToolSets(t *testing.T) {
	all, allTokens := listTools(t, toolsAll)
	def, defTokens := listTools(t, toolsDefault)
	t.Logf("tools/list: default %d tools, %d tokens; all %d tools, %d tokens", len(def), defTokens, len(all), allTokens)
	if defTokens > defaultToolsBudget {
		t.Errorf("the default tools/list is %d tokens, over %d", defTokens, defaultToolsBudget)
	}
	want := slices.Clone(defaultTools)
	slices.Sort(want)
	if got := toolNames(def); !slices.Equal(got, want) {
		t.Errorf("default tools %v, want %v", got, want)
	}
	if got := toolNames(def); slices.Contains(got, "find_episodes") || slices.Contains(got, "upsert_episode") {
		t.Errorf("the default lists two tools for one job: %v", got)
	}
	read, _ := listTools(t, toolsRead)
	write, _ := listTools(t, toolsWrite)
	for _, tool := range read {
		if !tool.Annotations.ReadOnlyHint {
			t.Errorf("read lists %s, which writes", tool.Name)
		}
	}
	for _, tool := range write {
		if tool.Annotations.ReadOnlyHint {
			t.Errorf("write lists %s, which only reads", tool.Name)
		}
	}
	both := toolNames(append(slices.Clone(read), write...))
	if names := toolNames(all); !slices.Equal(both, names) || len(names) != 19 {
		t.Errorf("read and write %v, all %v (19 tools)", both, names)
	}
}

// TestMCPToolsFlag: --tools takes a profile's name; anything else is a
// usage error (exit 2) naming the profiles, before the server starts.
func TestMCPToolsFlag(t *testing.T) {
	for _, bad := range []string{"", "everything", "Default", "read,write"} {
		t.Run(bad, func(t *testing.T) {
			var stderr bytes.Buffer
			code := run(context.Background(), []string{"mcp", "--repo", demoRepo, "--tools", bad}, io.Discard, &stderr)
			if code != exitUsage || !strings.Contains(stderr.String(), "give default, all, read, write") {
				t.Errorf("--tools %q: exit %d, %s", bad, code, stderr.String())
			}
		})
	}
	var stderr bytes.Buffer
	run(context.Background(), []string{"mcp", "--help"}, io.Discard, &stderr)
	if !strings.Contains(stderr.String(), "--tools default|all|read|write") {
		t.Errorf("mcp --help: %s", stderr.String())
	}
}

// TestMCPSchemasPortable: every tool of every profile has an input and
// an output schema in which each property has one type (a string, never
// ["null", "array"]), and a required name is a property.
func TestMCPSchemasPortable(t *testing.T) {
	all, _ := listTools(t, toolsAll)
	for _, tool := range all {
		t.Run(tool.Name, func(t *testing.T) {
			if tool.OutputSchema == nil {
				t.Error("no output schema")
			}
			for _, s := range []struct {
				name   string
				schema any
			}{{"inputSchema", tool.InputSchema}, {"outputSchema", tool.OutputSchema}} {
				b, err := json.Marshal(s.schema)
				if err != nil {
					t.Fatal(err)
				}
				var v map[string]any
				if err := json.Unmarshal(b, &v); err != nil {
					t.Fatal(err)
				}
				if v["type"] != "object" {
					t.Errorf("%s: type %v, want object", s.name, v["type"])
				}
				for _, problem := range unportable(s.name, v) {
					t.Error(problem)
				}
			}
		})
	}
}

// unportable lists what in schema s, at path, a one-type client cannot
// read.
func unportable(path string, s map[string]any) []string {
	var out []string
	if ty, ok := s["type"]; ok {
		if _, one := ty.(string); !one || ty == "null" {
			out = append(out, path+": type "+jsonString(ty))
		}
	}
	props, _ := s["properties"].(map[string]any)
	if req, _ := s["required"].([]any); req != nil {
		for _, r := range req {
			if _, ok := props[r.(string)]; !ok {
				out = append(out, path+": requires "+jsonString(r)+", which is not a property")
			}
		}
	}
	for name, p := range props {
		if ps, ok := p.(map[string]any); ok {
			out = append(out, unportable(path+".properties."+name, ps)...)
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if sub, ok := s[key].(map[string]any); ok {
			out = append(out, unportable(path+"."+key, sub)...)
		}
	}
	return out
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
