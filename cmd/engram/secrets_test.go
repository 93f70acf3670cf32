package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// TestSecretsCLI: engram build and engram check, as a user runs them,
// refuse a repository holding a secret of each kind and name it by rule
// and fingerprint on stderr, never printing it; build --redact publishes
// none of them. (It ran in package indexer and built the binary with
// `go build` there, a link of Hugo that took minutes on a loaded CI
// machine; run is what the binary runs.)
func TestSecretsCLI(t *testing.T) {
	kinds := secretstest.Kinds(16)
	repo := t.TempDir()
	files := map[string]string{
		"episodes/good.md": "---\ntitle: EPISODE-2026-02-03-session-01\noutcome: success\ntask: A task\n---\n\n## Lessons Learned\n\n- One lesson.\n",
	}
	for _, k := range kinds {
		title := "EPISODE-2026-03-01-" + k.Name + "-body"
		files["episodes/"+title+".md"] = "---\ntitle: " + title + "\noutcome: success\ntask: Deploy the service\n---\n\n## Context\n\nWe used " + k.Line + " for the deploy.\n"
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
	out := filepath.Join(t.TempDir(), "public")
	// leaks names the texts that hold a line of k's secret, as it is or
	// lower-cased (a private key is checked line by line: JSON escapes
	// its newlines).
	leaks := func(k secretstest.Kind, texts map[string][]byte) []string {
		var where []string
		for name, text := range texts {
			for _, line := range strings.Split(k.Secret, "\n") {
				if bytes.Contains(text, []byte(line)) || bytes.Contains(text, []byte(strings.ToLower(line))) {
					where = append(where, name)
					break
				}
			}
		}
		slices.Sort(where)
		return where
	}
	cli := func(args ...string) (string, int) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, &stdout, &stderr)
		texts := map[string][]byte{"stdout": stdout.Bytes(), "stderr": stderr.Bytes()}
		for _, k := range kinds {
			if where := leaks(k, texts); len(where) > 0 {
				t.Errorf("engram %s prints the %s secret on %v", args[0], k.Name, where)
			}
		}
		return stdout.String() + stderr.String(), code
	}
	for _, args := range [][]string{{"build", "--repo", repo, "--out", out}, {"check", "--repo", repo}} {
		text, code := cli(args...)
		if code == 0 {
			t.Errorf("engram %s exits 0 on a repository with secrets", args[0])
		}
		for _, k := range kinds {
			if !strings.Contains(text, "secret found (rule "+k.Rule+", fingerprint ") {
				t.Errorf("engram %s does not name the %s secret:\n%s", args[0], k.Rule, text)
			}
		}
	}
	if text, code := cli("build", "--repo", repo, "--out", out, "--redact"); code != 0 {
		t.Errorf("engram build --redact exits %d:\n%s", code, text)
	}
	published := snapshot(t, out)
	if len(published) == 0 {
		t.Fatal("build --redact published nothing")
	}
	for _, k := range kinds {
		if where := leaks(k, published); len(where) > 0 {
			t.Errorf("build --redact publishes the %s secret in %v", k.Name, where)
		}
	}
}
