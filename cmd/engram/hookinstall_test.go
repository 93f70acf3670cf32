package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// needGit skips a test that runs git when git is not installed, and
// fails it in CI (CI set), where it must run.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is not installed, and CI must run this test")
		}
		t.Skip("git is not installed; skipping")
	}
}

// buildEngram is the directory of the engram on PATH (to put on a
// PATH of its own): this test binary, which testscript.Main installs
// there under the name engram (TestMain), and which runs as engram's
// main. A go build of the command for each test that needs a binary
// cost a minute of linking each.
func buildEngram(t *testing.T) string {
	t.Helper()
	return filepath.Dir(engramOnPath(t))
}

// gitIn runs git in dir, away from the user's and the system's git
// configuration, with env added; it returns the combined output.
func gitIn(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitIn(dir, nil, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// engram runs the command in-process.
func engram(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func writeFile(t *testing.T, file, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

const badEpisode = `---
title: EPISODE-2026-05-01-session-01
type: episode
date: 2026-05-01T10:00:00Z
outcome: maybe
task: Retry webhook deliveries with backoff
---

## Lessons Learned

- Back off before retrying a webhook
`

// TestHookInstallStopsPush installs the hook in a new repository and
// pushes for real to a local bare remote: a note with an error stops the
// push, with its diagnostic in git's output; once fixed, the push goes
// through.
func TestHookInstallStopsPush(t *testing.T) {
	needGit(t)
	bin := buildEngram(t)
	remote, repo := filepath.Join(t.TempDir(), "remote.git"), t.TempDir()
	mustGit(t, ".", "init", "-q", "--bare", remote)
	mustGit(t, repo, "init", "-q", "-b", "main")
	mustGit(t, repo, "remote", "add", "origin", remote)
	note := filepath.Join(repo, "episodes", "EPISODE-2026-05-01-session-01.md")
	writeFile(t, note, badEpisode)
	mustGit(t, repo, "add", "-A")
	mustGit(t, repo, "commit", "-q", "-m", "a note with an invalid outcome")

	if code, stdout, stderr := engram(t, "hook", "install", "--repo", repo); code != exitOK || !strings.Contains(stdout, "wrote ") {
		t.Fatalf("hook install: exit %d\n%s%s", code, stdout, stderr)
	}
	path := "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")
	out, err := gitIn(repo, []string{path}, "push", "origin", "main")
	if err == nil {
		t.Fatalf("the push of a note with an error went through:\n%s", out)
	}
	diag := regexp.MustCompile(`episodes/EPISODE-2026-05-01-session-01\.md:\d+:\d+: error: .*\[episode-outcome\]`)
	if !diag.MatchString(out) || !strings.Contains(out, "git push --no-verify") {
		t.Errorf("the stopped push does not show the diagnostic and how to skip the check:\n%s", out)
	}
	if _, err := gitIn(remote, nil, "rev-parse", "--verify", "-q", "refs/heads/main"); err == nil {
		t.Error("the remote has main after a stopped push")
	}

	writeFile(t, note, strings.Replace(badEpisode, "outcome: maybe", "outcome: success", 1))
	mustGit(t, repo, "commit", "-q", "-am", "fix the outcome")
	if out, err := gitIn(repo, []string{path}, "push", "origin", "main"); err != nil {
		t.Fatalf("the push of fixed notes was stopped: %v\n%s", err, out)
	}
	head := mustGit(t, repo, "rev-parse", "HEAD")
	if got := mustGit(t, remote, "rev-parse", "refs/heads/main"); got != head {
		t.Errorf("the remote's main is %s, want %s", got, head)
	}
}

// TestHookInstallNoEngram runs the hook where no engram can be found: it
// says how to install engram and how to skip the check, and fails.
func TestHookInstallNoEngram(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine")
	}
	hook := filepath.Join(t.TempDir(), "pre-push")
	writeFile(t, hook, string(hookScript("content", "", "v1.2.3")))
	cmd := exec.Command(sh, hook)
	cmd.Env = []string{"PATH=" + filepath.Dir(sh)}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "go install github.com/engramhq/engram/cmd/engram@v1.2.3") ||
		!strings.Contains(string(out), "git push --no-verify") {
		t.Errorf("hook without engram: %v\n%s", err, out)
	}
}

// TestHookInstall covers what install refuses, replaces and finds.
func TestHookInstall(t *testing.T) {
	needGit(t)
	newRepo := func(t *testing.T) string {
		dir := t.TempDir()
		mustGit(t, dir, "init", "-q", "-b", "main")
		return dir
	}
	hookOf := func(repo string) string { return filepath.Join(repo, ".git", "hooks", "pre-push") }

	t.Run("a foreign hook is refused, then replaced with --force", func(t *testing.T) {
		repo := newRepo(t)
		foreign := "#!/bin/sh\nmake lint\n"
		writeFile(t, hookOf(repo), foreign)
		code, _, stderr := engram(t, "hook", "install", "--repo", repo)
		if code != exitFail || !strings.Contains(stderr, "engram did not write it") ||
			!strings.Contains(stderr, "engram check --strict --repo '.' || exit 1") || !strings.Contains(stderr, "--force") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
		if got, _ := os.ReadFile(hookOf(repo)); string(got) != foreign {
			t.Errorf("the foreign hook changed:\n%s", got)
		}
		if code, _, stderr := engram(t, "hook", "install", "--force", "--repo", repo); code != exitOK {
			t.Fatalf("--force: exit %d\n%s", code, stderr)
		}
		got, _ := os.ReadFile(hookOf(repo))
		if !hasMarker(got) {
			t.Errorf("--force left:\n%s", got)
		}
	})

	t.Run("a second install is idempotent", func(t *testing.T) {
		repo := newRepo(t)
		for i := range 2 {
			if code, _, stderr := engram(t, "hook", "install", "--repo", repo); code != exitOK {
				t.Fatalf("install %d: exit %d\n%s", i+1, code, stderr)
			}
		}
		st, err := os.Stat(hookOf(repo))
		if err != nil || st.Mode().Perm() != 0o755 {
			t.Fatalf("hook: %v, mode %v", err, st.Mode())
		}
		got, _ := os.ReadFile(hookOf(repo))
		version, _ := installVersion(mainVersion())
		if want := hookScript("", stableExecutable(), version); !bytes.Equal(got, want) {
			t.Errorf("hook:\n%s\nwant:\n%s", got, want)
		}
		// An older hook of engram's (the marker, other lines) is replaced.
		writeFile(t, hookOf(repo), "#!/bin/sh\n"+hookMarker+"\nexit 0\n")
		if code, _, stderr := engram(t, "hook", "install", "--repo", repo); code != exitOK {
			t.Fatalf("over engram's older hook: exit %d\n%s", code, stderr)
		}
		if again, _ := os.ReadFile(hookOf(repo)); !bytes.Equal(again, got) {
			t.Errorf("engram's older hook was not replaced:\n%s", again)
		}
	})

	t.Run("a plain directory is an error", func(t *testing.T) {
		dir := t.TempDir()
		code, _, stderr := engram(t, "hook", "install", "--repo", dir)
		if code != exitFail || !strings.Contains(stderr, "is in no git repository") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			t.Error("hook install made a .git")
		}
	})

	t.Run("core.hooksPath and a memory repository in a folder", func(t *testing.T) {
		repo := newRepo(t)
		mustGit(t, repo, "config", "core.hooksPath", ".githooks")
		memory := filepath.Join(repo, "content")
		writeFile(t, filepath.Join(memory, "engram.toml"), "title = \"m\"\n")
		if code, _, stderr := engram(t, "hook", "install", "--repo", memory); code != exitOK {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		got, err := os.ReadFile(filepath.Join(repo, ".githooks", "pre-push"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(got), "repo='content'\n") {
			t.Errorf("the hook does not check content/ from the top level:\n%s", got)
		}
		if _, err := os.Stat(hookOf(repo)); err == nil {
			t.Error("the hook went to .git/hooks despite core.hooksPath")
		}
	})

	t.Run("core.hooksPath outside the repository is refused", func(t *testing.T) {
		repo, shared := newRepo(t), t.TempDir()
		mustGit(t, repo, "config", "core.hooksPath", shared)
		code, _, stderr := engram(t, "hook", "install", "--repo", repo)
		if code != exitFail || !strings.Contains(stderr, "outside this repository") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(shared, "pre-push")); err == nil {
			t.Error("a hook was written outside the repository")
		}
	})
}

func TestStablePath(t *testing.T) {
	for _, tc := range []struct{ exe, want string }{
		{"/home/u/go/bin/engram", "/home/u/go/bin/engram"},
		{"/usr/local/bin/engram", "/usr/local/bin/engram"},
		{"/tmp/go-build123/b001/exe/engram", ""},
		{"/home/u/.cache/go-build/ab/abcdef-d/engram", ""},
		{"/var/tmp/x/engram", ""},
		{"/scratch/go-build42/engram", ""},
	} {
		if got := stablePath(tc.exe, "/var/tmp", "", "/home/u/.cache/go-build"); got != tc.want {
			t.Errorf("stablePath(%s) = %q, want %q", tc.exe, got, tc.want)
		}
	}
}
