package main

import (
	"context"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/write"
)

// The write tools go through the write commands' own functions (package
// indexer, write_*.go): the same checks, the same atomic writes and
// locks, the same staging or commit. Each is one file, mcp_<tool>.go.

// writeArgs are what every write tool takes besides its note.
type writeArgs struct {
	Commit bool `json:"commit,omitempty" jsonschema:"commit the files written (default: stage them)"`
}

// wrote is a write tool's answer: the files written, relative to the
// repository, and how git knows them.
type wrote struct {
	Paths  []string `json:"paths"`
	Staged bool     `json:"staged"`
	Commit string   `json:"commit,omitempty"`
}

// writeTool describes a tool that writes into the repository:
// destructive when it may replace what is there, idempotent when calling
// it twice leaves the same files.
func writeTool(name, title, desc string, destructive, idempotent bool) *mcp.Tool {
	return &mcp.Tool{Name: name, Title: title, Description: desc, Annotations: &mcp.ToolAnnotations{
		DestructiveHint: &destructive, IdempotentHint: idempotent,
	}}
}

// write runs one write with the server's repository, then makes the next
// read check the repository again, so that an agent finds what it wrote.
func (e *mcpEngine) write(ctx context.Context, a writeArgs, do func(write.WriteOptions) (write.Written, error)) (wrote, error) {
	w, err := do(write.WriteOptions{Repo: e.q.repo, Commit: a.Commit, CacheDir: os.Getenv(cacheEnv)})
	e.mu.Lock()
	e.checked = time.Time{}
	e.mu.Unlock()
	if err != nil {
		return wrote{}, err
	}
	paths := w.Paths
	if paths == nil {
		paths = []string{}
	}
	return wrote{Paths: paths, Staged: w.Staged, Commit: w.Commit}, nil
}
