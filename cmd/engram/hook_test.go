package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer"
)

// TestSessionStartHook runs docs/hooks/session-start.sh, the hook
// docs/agents.md tells agents to install, as a coding agent would: against
// the built demo site served over HTTP (with curl), and against the demo
// repository with the engram binary when there is no site.
func TestSessionStartHook(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine; skipping the session-start hook")
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: "../../content", Out: out, CacheDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(out, "api", "v1", "bootstrap.md"))
	if err != nil {
		t.Fatal(err)
	}
	hook, err := filepath.Abs("../../docs/hooks/session-start.sh")
	if err != nil {
		t.Fatal(err)
	}
	run := func(env ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(sh, hook)
		cmd.Env = append(os.Environ(), env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("hook: %v\n%s", err, stderr.String())
		}
		return stdout.String(), stderr.String()
	}

	t.Run("from the published site", func(t *testing.T) {
		if _, err := exec.LookPath("curl"); err != nil {
			t.Skip("curl is not installed (.ci/run installs it); skipping the fetch")
		}
		srv := httptest.NewServer(http.FileServer(http.Dir(out)))
		defer srv.Close()
		got, stderr := run("ENGRAM_URL="+srv.URL+"/", "PATH="+os.Getenv("PATH"))
		if strings.TrimSpace(got) != strings.TrimSpace(string(want)) || stderr != "" {
			t.Errorf("hook printed:\n%s\nstderr: %s\nwant bootstrap.md:\n%s", got, stderr, want)
		}
	})

	// A session in an area's folder reads the area's slice; an area with
	// no slice reads the whole bootstrap (this test runs in cmd/engram,
	// an area the demo site has no slice for).
	t.Run("the slice of the area", func(t *testing.T) {
		if _, err := exec.LookPath("curl"); err != nil {
			t.Skip("curl is not installed (.ci/run installs it); skipping the fetch")
		}
		site := t.TempDir()
		slice := "# Demo memory: scripts: session start\n"
		if err := os.MkdirAll(filepath.Join(site, "api", "v1", "bootstrap"), 0o755); err != nil {
			t.Fatal(err)
		}
		for name, data := range map[string]string{"bootstrap.md": string(want), "bootstrap/scripts.md": slice} {
			if err := os.WriteFile(filepath.Join(site, "api", "v1", name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		srv := httptest.NewServer(http.FileServer(http.Dir(site)))
		defer srv.Close()
		for area, wantOut := range map[string]string{"scripts": slice, "": string(want), "-": string(want), "nowhere": string(want)} {
			got, stderr := run("ENGRAM_URL="+srv.URL+"/", "ENGRAM_AREA="+area, "PATH="+os.Getenv("PATH"))
			if strings.TrimSpace(got) != strings.TrimSpace(wantOut) || stderr != "" {
				t.Errorf("ENGRAM_AREA=%q: hook printed:\n%s\nstderr: %s\nwant:\n%s", area, got, stderr, wantOut)
			}
		}
	})

	t.Run("from the repository with engram", func(t *testing.T) {
		bin := buildEngram(t)
		repo, _ := filepath.Abs("../../content")
		got, _ := run("ENGRAM_URL=", "ENGRAM_REPO="+repo, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		// The same items; the reference time is the repository's commit,
		// as for the build.
		if !strings.Contains(got, "## Warnings: what to avoid") || !strings.Contains(got, "Avoid “") {
			t.Errorf("hook printed:\n%s", got)
		}
		got, _ = run("ENGRAM_URL=", "ENGRAM_REPO="+repo, "ENGRAM_BUDGET=300", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		if len(got) >= len(want) || !strings.Contains(got, "# ") {
			t.Errorf("a 300-token budget printed %d bytes:\n%s", len(got), got)
		}
	})

	t.Run("nothing to read never fails the session", func(t *testing.T) {
		got, stderr := run("ENGRAM_URL=http://127.0.0.1:9/", "PATH=/nonexistent")
		if got != "" || !strings.Contains(stderr, "could not fetch") {
			t.Errorf("stdout %q stderr %q", got, stderr)
		}
	})
}
