package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolSet is the profile `engram mcp --tools` names: which tools the
// server lists. Every definition a server lists costs tokens in each
// session of its clients, used or not; so the default is the few tools
// an agent at work calls, in at most defaultToolsBudget tokens
// (mcp_profile_test.go), and the rest stay a profile away.
type toolSet string

const (
	// toolsDefault is defaultTools (docs/mcp.md says why each).
	toolsDefault toolSet = "default"
	// toolsAll is every tool, under every name the seeds taught agents.
	toolsAll toolSet = "all"
	// toolsRead is every tool that only reads (readOnlyHint).
	toolsRead toolSet = "read"
	// toolsWrite is every tool that writes to the repository.
	toolsWrite toolSet = "write"
)

var toolSets = []toolSet{toolsDefault, toolsAll, toolsRead, toolsWrite}

// defaultTools: start a session, find and read what is remembered,
// store what was learned. Where two tools do one job, one name is here
// (query_episodes, not find_episodes; store_episode, not
// upsert_episode), the other in the all profile.
var defaultTools = []string{
	"bootstrap", "search", "get_episode", "get_pattern", "query_episodes", "similar_episodes", "store_episode",
}

// defaultToolsBudget is the most tokens the default tools/list answer
// may cost, counted as tokens.Count over its JSON.
const defaultToolsBudget = 2000

// parseToolSet reads --tools; a name it does not know is a usage error.
func parseToolSet(s string) (toolSet, error) {
	if slices.Contains(toolSets, toolSet(s)) {
		return toolSet(s), nil
	}
	names := make([]string, len(toolSets))
	for i, t := range toolSets {
		names[i] = string(t)
	}
	return "", fmt.Errorf("%w: mcp: --tools is %.40q: give %s", errUsage, s, strings.Join(names, ", "))
}

// has says whether the tool set lists t.
func (ts toolSet) has(t *mcp.Tool) bool {
	readOnly := t.Annotations != nil && t.Annotations.ReadOnlyHint
	switch ts {
	case toolsAll:
		return true
	case toolsRead:
		return readOnly
	case toolsWrite:
		return !readOnly
	default:
		return slices.Contains(defaultTools, t.Name)
	}
}
