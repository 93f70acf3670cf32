package source

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// checkClean asserts that go-git (and git, when installed) see a clean
// working tree and a sound repository.
func checkClean(t *testing.T, dir string) {
	t.Helper()
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	st, err := wt.Status()
	if err != nil {
		t.Fatal(err)
	}
	if !st.IsClean() {
		t.Errorf("go-git status not clean:\n%s", st)
	}
	gitBin, err := exec.LookPath("git")
	if err != nil {
		return
	}
	for _, args := range [][]string{{"status", "--porcelain"}, {"fsck", "--strict", "--no-progress"}} {
		cmd := exec.Command(gitBin, append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil || len(out) != 0 {
			t.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

func TestWriteRepo(t *testing.T) {
	tests := []struct {
		name    string
		commits []Commit
		files   []string // the working tree afterwards
	}{
		{"add modify delete rename", threeCommits(), []string{"a.md", "dir/c.md", "dir/d.md", "new.md"}},
		{"directory replaced by file and back", []Commit{
			{When: day(1), Files: map[string][]byte{"x/y.md": []byte("1"), "keep.md": []byte("k")}},
			{When: day(2), Files: map[string][]byte{"x/y.md": nil, "x": []byte("file")}},
			{When: day(3), Files: map[string][]byte{"x": nil, "x/z/w.md": []byte("deep")}},
		}, []string{"keep.md", "x/z/w.md"}},
		{"empty file and empty commit", []Commit{
			{When: day(1), Files: map[string][]byte{"empty.md": {}}},
			{When: day(2), Message: "nothing"},
			{When: day(3), Files: map[string][]byte{"gone.md": nil}},
		}, []string{"empty.md"}},
		{"delete everything", []Commit{
			{When: day(1), Files: map[string][]byte{"d/a.md": []byte("a")}},
			{When: day(2), Files: map[string][]byte{"d/a.md": nil}},
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := WriteRepo(dir, tt.commits); err != nil {
				t.Fatal(err)
			}
			checkClean(t, dir)
			if n := len(commitHashes(t, dir)); n != len(tt.commits) {
				t.Errorf("%d commits, want %d", n, len(tt.commits))
			}
			repo, _ := mustOpen(t, dir)
			if got := paths(repo); !slices.Equal(got, tt.files) {
				t.Errorf("files = %v, want %v", got, tt.files)
			}
		})
	}
}

func TestWriteRepoReproducible(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := WriteRepo(dir, threeCommits()); err != nil {
			t.Fatal(err)
		}
	}
	ha, hb := commitHashes(t, a), commitHashes(t, b)
	if !slices.Equal(ha, hb) {
		t.Errorf("hashes differ: %v %v", ha, hb)
	}
}

func TestWriteRepoAppends(t *testing.T) {
	dir := t.TempDir()
	cs := threeCommits()
	for _, c := range cs {
		if err := WriteRepo(dir, []Commit{c}); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, dir, "user.md") // an unrelated untracked file stays so
	if err := WriteRepo(dir, []Commit{{When: day(4), Author: "Ada <ada@example.com>", Message: "four",
		Files: map[string][]byte{"four.md": []byte("4")}}}); err != nil {
		t.Fatal(err)
	}
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.CommitObject(head(t, r))
	if err != nil {
		t.Fatal(err)
	}
	if c.Author.Name != "Ada" || c.Author.Email != "ada@example.com" || c.Committer != c.Author || c.Message != "four" {
		t.Errorf("commit = %+v", c)
	}
	if n := len(commitHashes(t, dir)); n != 4 {
		t.Errorf("%d commits, want 4", n)
	}
	repo, _ := mustOpen(t, dir)
	if h := fileMap(repo)["user.md"].History; h.Known() {
		t.Errorf("untracked file has history %+v", h)
	}
	ref, _ := r.Head()
	if ref.Name() != "refs/heads/main" {
		t.Errorf("branch = %s", ref.Name())
	}
}

func TestWriteRepoErrors(t *testing.T) {
	tests := []struct {
		name   string
		commit Commit
		want   string
	}{
		{"parent path", Commit{When: day(1), Files: map[string][]byte{"../x": {}}}, `invalid path "../x"`},
		{"absolute", Commit{When: day(1), Files: map[string][]byte{"/x": {}}}, `invalid path "/x"`},
		{"unclean", Commit{When: day(1), Files: map[string][]byte{"a//b": {}}}, `invalid path "a//b"`},
		{"git dir", Commit{When: day(1), Files: map[string][]byte{".git/config": {}}}, `invalid path ".git/config"`},
		{"git dir case", Commit{When: day(1), Files: map[string][]byte{"a/.GIT/x": {}}}, `invalid path "a/.GIT/x"`},
		{"empty", Commit{When: day(1), Files: map[string][]byte{"": {}}}, `invalid path ""`},
		{"no time", Commit{Files: map[string][]byte{"a": {}}}, "no commit time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			err := WriteRepo(dir, []Commit{tt.commit})
			want := "write repository " + dir + ": commit 1: " + tt.want
			if err == nil || err.Error() != want {
				t.Errorf("err = %v, want %s", err, want)
			}
		})
	}
	t.Run("delete directory", func(t *testing.T) {
		dir := t.TempDir()
		err := WriteRepo(dir, []Commit{
			{When: day(1), Files: map[string][]byte{"d/a": {}}},
			{When: day(2), Files: map[string][]byte{"d": nil}},
		})
		if err == nil || !strings.HasSuffix(err.Error(), "commit 2: delete d: is a directory") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestSignature(t *testing.T) {
	tests := []struct {
		in   string
		want object.Signature
	}{
		{"", object.Signature{Name: "engram", Email: "engram@example.invalid"}},
		{"Ada Lovelace <ada@example.com>", object.Signature{Name: "Ada Lovelace", Email: "ada@example.com"}},
		{"just a name", object.Signature{Name: "just a name"}},
		{"broken <mail", object.Signature{Name: "broken <mail"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := signature(tt.in); got != tt.want {
				t.Errorf("signature(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestWriteRepoInsideAnotherRepository(t *testing.T) {
	outer := t.TempDir()
	if err := WriteRepo(outer, threeCommits()); err != nil {
		t.Fatal(err)
	}
	inner := filepath.Join(outer, "inner")
	if err := WriteRepo(inner, []Commit{{When: day(5), Files: map[string][]byte{"i.md": []byte("i")}}}); err != nil {
		t.Fatal(err)
	}
	if n := len(commitHashes(t, outer)); n != 3 {
		t.Errorf("outer repository has %d commits, want 3", n)
	}
	if n := len(commitHashes(t, inner)); n != 1 {
		t.Errorf("inner repository has %d commits, want 1", n)
	}
}

// TestWriteRepoNeverThroughSymlinks checks that WriteRepo replaces a
// symlink in the way, as git checkout does, instead of writing or deleting
// through it.
func TestWriteRepoNeverThroughSymlinks(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, "a.md", "x.md")
	dir := t.TempDir()
	if err := WriteRepo(dir, nil); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"notes": outside, "x.md": filepath.Join(outside, "x.md"), "gone": outside} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("symlinks not supported: %v", err)
		}
	}
	err := WriteRepo(dir, []Commit{{When: day(1), Files: map[string][]byte{
		"notes/a.md": []byte("inside"), "x.md": []byte("inside"), "gone/a.md": nil,
	}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a.md", "x.md"} {
		if b, err := os.ReadFile(filepath.Join(outside, n)); err != nil || string(b) != n {
			t.Errorf("outside %s = %q, %v", n, b, err)
		}
	}
	if info, err := os.Lstat(filepath.Join(dir, "notes")); err != nil || !info.IsDir() {
		t.Errorf("notes is not a directory: %v %v", info, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "x.md")); err != nil || string(b) != "inside" {
		t.Errorf("x.md = %q, %v", b, err)
	}
}

// TestWriteRepoImplicitReplace checks a file that replaces a directory
// without deleting its files first.
func TestWriteRepoImplicitReplace(t *testing.T) {
	dir := t.TempDir()
	err := WriteRepo(dir, []Commit{
		{When: day(1), Files: map[string][]byte{"x/y/z.md": []byte("z"), "x/w.md": []byte("w")}},
		{When: day(2), Files: map[string][]byte{"x": []byte("file")}},
		{When: day(3), Files: map[string][]byte{"x/again.md": []byte("a")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkClean(t, dir)
	repo, _ := mustOpen(t, dir)
	if got := paths(repo); !slices.Equal(got, []string{"x/again.md"}) {
		t.Errorf("files = %v", got)
	}
}

// TestStoreCommitsFlushes checks a history written as several packs, as
// WriteRepo does when a generated history outgrows memory.
func TestStoreCommitsFlushes(t *testing.T) {
	dir := t.TempDir()
	if err := WriteRepo(dir, nil); err != nil {
		t.Fatal(err)
	}
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	commits := threeCommits()
	changes := make([][]string, len(commits))
	for i, c := range commits {
		if changes[i], err = commitPaths(c); err != nil {
			t.Fatal(err)
		}
	}
	h, err := storeCommits(r, commits, changes, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := updateHead(r, h); err != nil {
		t.Fatal(err)
	}
	packs, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if err != nil || len(packs) != 3 {
		t.Errorf("packs = %v, %v; want 3", packs, err)
	}
	ref := t.TempDir()
	if err := WriteRepo(ref, commits); err != nil {
		t.Fatal(err)
	}
	if got, want := commitHashes(t, dir), commitHashes(t, ref); !slices.Equal(got, want) {
		t.Errorf("hashes = %v, want %v", got, want)
	}
}
