package source

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/engramhq/engram/indexer/note"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

func TestOpenShallow(t *testing.T) {
	src := t.TempDir()
	if err := WriteRepo(src, threeCommits()); err != nil {
		t.Fatal(err)
	}
	hashes := commitHashes(t, src)
	tests := []struct {
		depth   int
		shallow bool
		want    map[string]wantSpan
	}{
		{1, true, map[string]wantSpan{
			"a.md": {3, 3, 3, 3, false}, "dir/c.md": {3, 3, 3, 3, false},
			"dir/d.md": {3, 3, 3, 3, false}, "new.md": {3, 3, 3, 3, false},
		}},
		{2, true, map[string]wantSpan{
			"a.md": {2, 2, 2, 2, false}, "dir/c.md": {2, 2, 2, 2, false},
			"dir/d.md": {3, 3, 3, 3, true}, "new.md": {3, 3, 3, 3, true},
		}},
		{3, false, map[string]wantSpan{
			"a.md": {1, 2, 1, 2, true}, "dir/c.md": {1, 1, 1, 1, true},
			"dir/d.md": {3, 3, 3, 3, true}, "new.md": {3, 3, 3, 3, true},
		}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("depth %d", tt.depth), func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "clone")
			if err := ShallowClone(src, dst, tt.depth); err != nil {
				t.Fatal(err)
			}
			repo, diags := mustOpen(t, dst)
			if repo.Shallow != tt.shallow || repo.Head != hashes[2] || repo.Kind != "git" {
				t.Errorf("repo = %s %s shallow=%v", repo.Kind, repo.Head, repo.Shallow)
			}
			checkShallowDiags(t, diags, tt.shallow)
			checkHistory(t, repo, hashes, tt.want)
		})
	}
}

func checkShallowDiags(t *testing.T, diags []note.Diagnostic, shallow bool) {
	t.Helper()
	var want []string
	if shallow {
		want = []string{". source-shallow"}
	}
	if got := rules(diags); !slices.Equal(got, want) {
		t.Fatalf("diags = %v, want %v", got, want)
	}
	if shallow && diags[0].Severity != note.Info {
		t.Errorf("severity = %v", diags[0].Severity)
	}
}

// TestShallowCloneMissesObjects checks that the clone really lacks the
// commits beyond its depth, so Open is tested against missing objects.
func TestShallowCloneMissesObjects(t *testing.T) {
	src := t.TempDir()
	if err := WriteRepo(src, threeCommits()); err != nil {
		t.Fatal(err)
	}
	hashes := commitHashes(t, src)
	dst := t.TempDir()
	if err := ShallowClone(src, dst, 1); err != nil {
		t.Fatal(err)
	}
	r, err := git.PlainOpen(dst)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Storer.HasEncodedObject(plumbing.NewHash(hashes[1])); !errors.Is(err, plumbing.ErrObjectNotFound) {
		t.Errorf("parent of the shallow commit: %v, want not found", err)
	}
	b, err := os.ReadFile(filepath.Join(dst, "a.md"))
	if err != nil || string(b) != "a2" {
		t.Errorf("checkout a.md = %q, %v", b, err)
	}
	t.Run("no shallow file", func(t *testing.T) {
		// Missing parents that .git/shallow does not list (a damaged or
		// partial clone) are treated as a boundary too.
		if err := os.Remove(filepath.Join(dst, ".git", "shallow")); err != nil {
			t.Fatal(err)
		}
		repo, diags := mustOpen(t, dst)
		if !repo.Shallow {
			t.Error("Shallow = false")
		}
		checkShallowDiags(t, diags, true)
		checkHistory(t, repo, hashes, map[string]wantSpan{
			"a.md": {3, 3, 3, 3, false}, "dir/c.md": {3, 3, 3, 3, false},
			"dir/d.md": {3, 3, 3, 3, false}, "new.md": {3, 3, 3, 3, false},
		})
	})
	if err := ShallowClone(src, t.TempDir(), 0); err == nil {
		t.Error("depth 0: no error")
	}
}

// TestOpenGitShallowClone checks Open against a clone made by git itself,
// when git is installed.
func TestOpenGitShallowClone(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	src := t.TempDir()
	if err := WriteRepo(src, threeCommits()); err != nil {
		t.Fatal(err)
	}
	hashes := commitHashes(t, src)
	dst := filepath.Join(t.TempDir(), "clone")
	cmd := exec.Command(gitBin, "clone", "--quiet", "--depth", "2", "file://"+src, dst)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	repo, diags := mustOpen(t, dst)
	if !repo.Shallow {
		t.Error("Shallow = false")
	}
	checkShallowDiags(t, diags, true)
	checkHistory(t, repo, hashes, map[string]wantSpan{
		"a.md": {2, 2, 2, 2, false}, "dir/c.md": {2, 2, 2, 2, false},
		"dir/d.md": {3, 3, 3, 3, true}, "new.md": {3, 3, 3, 3, true},
	})
}

// TestOpenLinkedWorktree checks a worktree made by git worktree add, whose
// .git is a file pointing into the main repository.
func TestOpenLinkedWorktree(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	src := t.TempDir()
	if err := WriteRepo(src, threeCommits()); err != nil {
		t.Fatal(err)
	}
	hashes := commitHashes(t, src)
	wt := filepath.Join(t.TempDir(), "wt")
	cmd := exec.Command(gitBin, "-C", src, "worktree", "add", "--quiet", "--detach", wt, hashes[1])
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git worktree add: %v\n%s", err, out)
	}
	repo, diags := mustOpen(t, wt)
	if len(diags) != 0 || repo.Head != hashes[1] {
		t.Errorf("head %s, diags %v", repo.Head, diags)
	}
	checkHistory(t, repo, hashes, map[string]wantSpan{
		"a.md": {1, 2, 1, 2, true}, "dir/c.md": {1, 1, 1, 1, true}, "old.md": {1, 1, 1, 1, true},
	})
}
