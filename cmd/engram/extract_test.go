package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/note"
)

// TestExtractRealLogs extracts the 15 real session logs of
// ai-agents@dccd2d8ba396 into a repository and loads it as a build does:
// 15 episodes, each with an outcome, and no warning about any of them.
func TestExtractRealLogs(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "real", "ai-agents@dccd2d8ba396", ".agents", "sessions")
	logs, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	if len(logs) == 0 {
		t.Skipf("real-data corpus not found at %s (it sits beside the project in CI)", dir)
	}
	repo := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := append([]string{"extract", "--repo", repo}, logs...)
	if code := run(context.Background(), args, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "extracted 15 of 15 session logs") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	l, err := indexer.Load(context.Background(), indexer.Options{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	episodes := 0
	for _, n := range l.Export.Notes {
		if n.Kind == note.KindEpisode && n.Episode.Outcome != "" && n.Episode.Task != "" {
			episodes++
		}
	}
	if episodes != 15 {
		t.Errorf("%d episodes loaded, want 15", episodes)
	}
	for _, d := range l.Diagnostics {
		if d.Severity >= note.Warning && strings.HasPrefix(d.Path, "episodes/") {
			t.Errorf("%s", d)
		}
	}

	// Again: every note exists, none is overwritten, exit 1.
	first, _ := os.ReadFile(filepath.Join(repo, "episodes", "EPISODE-2026-01-03-session-356.md"))
	os.WriteFile(filepath.Join(repo, "episodes", "EPISODE-2026-01-03-session-356.md"), []byte("edited by hand"), 0o644)
	stdout.Reset()
	stderr.Reset()
	if code := run(context.Background(), args, &stdout, &stderr); code != exitFail {
		t.Errorf("second run: exit %d, want %d", code, exitFail)
	}
	if n := strings.Count(stderr.String(), "[extract-exists]"); n != 15 {
		t.Errorf("%d extract-exists errors, want 15:\n%s", n, stderr.String())
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "episodes", "EPISODE-2026-01-03-session-356.md")); string(got) != "edited by hand" {
		t.Errorf("an existing note was overwritten without --force")
	}
	if code := run(context.Background(), append([]string{"extract", "--force", "--repo", repo}, logs...), &stdout, &stderr); code != exitOK {
		t.Errorf("--force: exit %d\n%s", code, stderr.String())
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "episodes", "EPISODE-2026-01-03-session-356.md")); !bytes.Equal(got, first) {
		t.Errorf("--force did not write the same note again")
	}
}

// TestExtractExitCodes: usage errors exit 2; a log that cannot be read,
// or is binary, 1.
func TestExtractExitCodes(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "2026-01-01-session-1.md")
	binary := filepath.Join(t.TempDir(), "2026-01-02-session-2.md")
	if err := os.WriteFile(binary, []byte("# Session 2\n- **Date**: 2026-01-02\n\x00\x01\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"no log", []string{"extract"}, exitUsage},
		{"unknown flag", []string{"extract", "--frob", missing}, exitUsage},
		{"missing log", []string{"extract", "--repo", t.TempDir(), missing}, exitFail},
		{"binary log", []string{"extract", "--repo", t.TempDir(), binary}, exitFail},
		{"--out outside the repository", []string{"extract", "--repo", t.TempDir(), "--out", t.TempDir(), binary}, exitFail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), tc.args, &stdout, &stderr); code != tc.want {
				t.Errorf("exit %d, want %d\n%s", code, tc.want, stderr.String())
			}
			if tc.name == "binary log" && !strings.Contains(stderr.String(), ":3:1: error: file holds a NUL byte, so it is binary, not a session log; not extracted [binary-file]") {
				t.Errorf("stderr:\n%s", stderr.String())
			}
		})
	}
}
