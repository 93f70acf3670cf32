package source

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFindHooks(t *testing.T) {
	dir := t.TempDir()
	if err := WriteRepo(dir, []Commit{{When: day(1), Files: map[string][]byte{"content/a.md": []byte("a")}}}); err != nil {
		t.Fatal(err)
	}
	top, _ := filepath.EvalSymlinks(dir)
	h, err := FindHooks(filepath.Join(dir, "content"))
	if err != nil {
		t.Fatal(err)
	}
	if h.Dir != filepath.Join(top, ".git", "hooks") || h.Top != top || h.Prefix != "content" || h.HooksPath != "" {
		t.Errorf("FindHooks = %+v", h)
	}

	cfg := filepath.Join(dir, ".git", "config")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(data, "[core]\n\thooksPath = .githooks\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if h, err = FindHooks(dir); err != nil || h.Dir != filepath.Join(top, ".githooks") || h.Prefix != "" {
		t.Errorf("with core.hooksPath: %+v, %v", h, err)
	}

	if _, err := FindHooks(t.TempDir()); !errors.Is(err, ErrNotGit) {
		t.Errorf("plain directory: %v, want ErrNotGit", err)
	}
}

// TestCommonDir: a linked worktree's git directory names the main one
// in its commondir file, where the hooks are.
func TestCommonDir(t *testing.T) {
	main := t.TempDir()
	own := filepath.Join(main, "worktrees", "wt")
	if err := os.MkdirAll(own, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := commonDir(own); got != own {
		t.Errorf("without commondir: %s", got)
	}
	if err := os.WriteFile(filepath.Join(own, "commondir"), []byte("../..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := commonDir(own); got != main {
		t.Errorf("commondir ../..: %s, want %s", got, main)
	}
}

func TestInit(t *testing.T) {
	dir := t.TempDir()
	made, err := Init(dir)
	if err != nil || !made {
		t.Fatalf("Init of a plain directory: %v, %v", made, err)
	}
	head, err := os.ReadFile(filepath.Join(dir, ".git", "HEAD"))
	if err != nil || string(head) != "ref: refs/heads/main\n" {
		t.Errorf("HEAD %q, %v", head, err)
	}
	sub := filepath.Join(dir, "memory")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if made, err := Init(sub); err != nil || made {
		t.Errorf("Init inside a repository: %v, %v; want nothing made", made, err)
	}
	if _, err := os.Stat(filepath.Join(sub, ".git")); err == nil {
		t.Error("Init made a repository inside a repository")
	}
}
