package source

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAddFilesThenCommitFiles stages a new note without committing (Open
// then reads it), then commits it: the commit holds exactly that file,
// never another file the user staged meanwhile.
func TestAddFilesThenCommitFiles(t *testing.T) {
	dir := t.TempDir()
	if err := WriteRepo(dir, []Commit{{When: day(1), Files: map[string][]byte{"a.md": []byte("a")}}}); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, "episodes/new.md", "other.md")
	if err := AddFiles(dir, "episodes/new.md"); err != nil {
		t.Fatal(err)
	}
	repo, _ := mustOpen(t, dir)
	if got := paths(repo); !slices.Equal(got, []string{"a.md", "episodes/new.md"}) {
		t.Errorf("after AddFiles Open reads %v", got)
	}
	if err := Stage(dir, "other.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := CommitFiles(dir, []string{"episodes/new.md"}, "write: new", "", day(2)); err != nil {
		t.Fatal(err)
	}
	c := headCommit(t, dir)
	if _, ok := fileAt(t, c, "episodes/new.md"); !ok {
		t.Error("the commit lacks episodes/new.md")
	}
	if _, ok := fileAt(t, c, "other.md"); ok {
		t.Error("the commit swept in other.md, which the user staged")
	}
	repo, _ = mustOpen(t, dir)
	if got := paths(repo); !slices.Equal(got, []string{"a.md", "episodes/new.md", "other.md"}) {
		t.Errorf("after CommitFiles Open reads %v (other.md must stay staged)", got)
	}
}

func TestCommitFilesRefuses(t *testing.T) {
	plain := t.TempDir()
	writeFiles(t, plain, "a.md")
	if _, err := CommitFiles(plain, []string{"a.md"}, "m", "", day(1)); !errors.Is(err, ErrNotGit) {
		t.Errorf("plain directory: %v, want ErrNotGit", err)
	}
	if err := AddFiles(plain, "a.md"); !errors.Is(err, ErrNotGit) {
		t.Errorf("plain directory: %v, want ErrNotGit", err)
	}
	dir := t.TempDir()
	if err := WriteRepo(dir, nil); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, "a.md")
	if err := os.WriteFile(filepath.Join(dir, ".git", "index.lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AddFiles(dir, "a.md"); err == nil || !strings.Contains(err.Error(), "index.lock exists") {
		t.Errorf("with index.lock: %v", err)
	}
	if err := AddFiles(dir, "../x.md"); err == nil {
		t.Error("a path outside the repository was accepted")
	}
}

// TestWriteRepoKeepsUntrackedDirectory checks that a commit whose file
// stands where a directory holds untracked work is refused, the work
// kept.
func TestWriteRepoKeepsUntrackedDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, "x/mine.md")
	err := WriteRepo(dir, []Commit{{When: day(1), Files: map[string][]byte{"x": []byte("file")}}})
	if err == nil || !strings.Contains(err.Error(), "x/mine.md, which git does not track") {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x", "mine.md")); err != nil {
		t.Errorf("the untracked file is gone: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "heads", "main")); err == nil {
		t.Error("the refused commit moved the branch")
	}
}
