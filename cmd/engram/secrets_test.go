package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/engramhq/engram/indexer/secrets/secretstest"
)

// TestNoSecretPrinted: with a token in a note's file name, a folder's
// name and a symlink's, nothing engram build, check or a query prints
// holds the token in any form (issue 29): each refuses, naming the files
// by their paths with the token redacted; build --redact publishes.
func TestNoSecretPrinted(t *testing.T) {
	k := secretstest.Kinds(36)[0]
	repo := t.TempDir()
	files := map[string]string{
		"episodes/good.md":                     "---\ntitle: EPISODE-2026-03-01-session-01\noutcome: success\ntask: Deploy\n---\n\n## Context\n\nText.\n",
		"notes/" + k.Secret + ".md":            "Plain [[missing-note]].\n",
		"episodes/" + k.Secret + "/episode.md": "---\ntitle: EPISODE-2026-03-02-session-01\noutcome: success\ntask: T\n---\n\n## Context\n\nSee [[nowhere]].\n",
	}
	for p, data := range files {
		full := filepath.Join(repo, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../episodes/good.md", filepath.Join(repo, "notes", "link-"+k.Secret+".md")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"build", "--repo", repo, "--out", out, "-v"}, 1},
		{[]string{"check", "--repo", repo}, 1},
		{[]string{"check", "--repo", repo, "--format", "json"}, 1},
		{[]string{"check", "--repo", repo, "--format", "github"}, 1},
		{[]string{"episodes", "--repo", repo}, 1},
		{[]string{"build", "--repo", repo, "--out", out, "-v", "--redact"}, 0},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), c.args, &stdout, &stderr)
		if code != c.code {
			t.Errorf("engram %v exits %d, want %d:\n%s", c.args, code, c.code, stderr.String())
		}
		for name, text := range map[string][]byte{"stdout": stdout.Bytes(), "stderr": stderr.Bytes()} {
			if secretstest.Holds(text, k.Secret) {
				t.Errorf("engram %v prints the token on %s:\n%s", c.args, name, text)
			}
		}
	}
}
