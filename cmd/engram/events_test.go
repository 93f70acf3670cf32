package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/source"
)

// TestEventsExitCodes: a --context that is not a JSON object is a usage
// error (2); a prune that cannot commit fails (1).
func TestEventsExitCodes(t *testing.T) {
	repo := t.TempDir()
	err := source.WriteRepo(repo, []source.Commit{{When: time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), Files: map[string][]byte{
		"episodes/a.md":  []byte("---\ntitle: EPISODE-a\noutcome: success\ntask: t\ndate: 2026-08-30\n---\n"),
		"events/a.jsonl": []byte(`{"workflow_id":"w","event_type":"task_complete","timestamp":"2026-08-30T00:00:00Z","data":{"context":{"k":"v"}}}` + "\n"),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir()
	if err := os.Mkdir(filepath.Join(plain, "events"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := `{"workflow_id":"w","event_type":"x","timestamp":"2020-01-01T00:00:00Z"}` + "\n"
	if err := os.WriteFile(filepath.Join(plain, "events", "a.jsonl"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"similar", []string{"events", "similar", "--repo", repo, "--context", `{"k":"v"}`}, exitOK},
		{"similar --json", []string{"events", "similar", "--repo", repo, "--context", `{"k":1.5}`, "--json"}, exitOK},
		{"context is an array", []string{"events", "similar", "--repo", repo, "--context", `["k"]`}, exitUsage},
		{"context is a string", []string{"events", "similar", "--repo", repo, "--context", `"k"`}, exitUsage},
		{"context is not JSON", []string{"events", "similar", "--repo", repo, "--context", `k=v`}, exitUsage},
		{"context has trailing data", []string{"events", "similar", "--repo", repo, "--context", `{"k":"v"} {}`}, exitUsage},
		{"context is empty", []string{"events", "similar", "--repo", repo, "--context", `{}`}, exitUsage},
		{"no context", []string{"events", "similar", "--repo", repo}, exitUsage},
		{"limit 0", []string{"events", "similar", "--repo", repo, "--context", `{"k":"v"}`, "--limit", "0"}, exitUsage},
		{"no subcommand", []string{"events"}, exitUsage},
		{"unknown subcommand", []string{"events", "list"}, exitUsage},
		{"prune lists", []string{"prune", "--repo", repo}, exitOK},
		{"prune with an argument", []string{"prune", "--repo", repo, "now"}, exitUsage},
		{"prune --apply in a plain directory", []string{"prune", "--repo", plain, "--apply", "--now", "2026-09-01"}, exitFail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := run(context.Background(), tc.args, &stdout, &stderr); got != tc.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", got, tc.want, stdout.String(), stderr.String())
			}
		})
	}
}
