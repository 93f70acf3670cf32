package source

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// headCommit reads HEAD's commit back with go-git.
func headCommit(t *testing.T, dir string) *object.Commit {
	t.Helper()
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.CommitObject(ref.Hash())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func fileAt(t *testing.T, c *object.Commit, p string) (string, bool) {
	t.Helper()
	f, err := c.File(p)
	if errors.Is(err, object.ErrFileNotFound) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Contents()
	if err != nil {
		t.Fatal(err)
	}
	return s, true
}

func TestCommitEdits(t *testing.T) {
	dir := t.TempDir()
	err := WriteRepo(dir, []Commit{{When: day(1), Files: map[string][]byte{
		"mem/events/a.jsonl": []byte("1\n2\n"), "mem/events/b.jsonl": []byte("x\n"), "mem/note.md": []byte("n"), "other.md": []byte("o"),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	// The memory repository is a folder inside the git repository, as
	// the demo is; an unrelated file has uncommitted work that must stay.
	if err := os.WriteFile(filepath.Join(dir, "other.md"), []byte("work in progress"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := headCommit(t, dir)
	h, err := CommitEdits(filepath.Join(dir, "mem"), Commit{When: day(2), Message: "engram prune: remove 2 events", Files: map[string][]byte{
		"events/a.jsonl": []byte("2\n"), "events/b.jsonl": nil,
	}})
	if err != nil {
		t.Fatal(err)
	}
	c := headCommit(t, dir)
	if c.Hash.String() != h || c.Message != "engram prune: remove 2 events" || c.Author.Name != "engram" || !c.Author.When.Equal(day(2)) {
		t.Errorf("HEAD %s %q by %s at %s, want %s", c.Hash, c.Message, c.Author.Name, c.Author.When, h)
	}
	if len(c.ParentHashes) != 1 || c.ParentHashes[0] != before.Hash {
		t.Errorf("parents %v, want %s", c.ParentHashes, before.Hash)
	}
	if s, _ := fileAt(t, c, "mem/events/a.jsonl"); s != "2\n" {
		t.Errorf("a.jsonl in HEAD = %q", s)
	}
	if _, ok := fileAt(t, c, "mem/events/b.jsonl"); ok {
		t.Error("b.jsonl is still in HEAD")
	}
	if s, _ := fileAt(t, c, "other.md"); s != "o" {
		t.Errorf("other.md in HEAD = %q: uncommitted work was swept in", s)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "other.md")); string(data) != "work in progress" {
		t.Errorf("other.md on disk = %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "mem", "events", "a.jsonl")); string(data) != "2\n" {
		t.Errorf("a.jsonl on disk = %q", data)
	}
	// Put the work in progress back as committed: the tree is clean.
	if err := os.WriteFile(filepath.Join(dir, "other.md"), []byte("o"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkClean(t, dir)
}

func TestCommitEditsRefuses(t *testing.T) {
	edit := Commit{When: day(2), Message: "m", Files: map[string][]byte{"events/a.jsonl": []byte("2\n")}}
	setup := func(t *testing.T) string {
		dir := t.TempDir()
		if err := WriteRepo(dir, []Commit{{When: day(1), Files: map[string][]byte{"events/a.jsonl": []byte("1\n2\n")}}}); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T) string
		want    error
	}{
		{"plain directory", func(t *testing.T) string {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "events"), 0o755); err != nil {
				t.Fatal(err)
			}
			return dir
		}, ErrNotGit},
		{"repository without commits", func(t *testing.T) string {
			dir := t.TempDir()
			if _, err := git.PlainInit(dir, false); err != nil {
				t.Fatal(err)
			}
			return dir
		}, ErrNotGit},
		{"changed in the working tree", func(t *testing.T) string {
			dir := setup(t)
			if err := os.WriteFile(filepath.Join(dir, "events", "a.jsonl"), []byte("1\n2\n3\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		}, ErrUncommitted},
		{"staged", func(t *testing.T) string {
			dir := setup(t)
			if err := os.WriteFile(filepath.Join(dir, "events", "a.jsonl"), []byte("staged\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := git.PlainOpen(dir)
			if err != nil {
				t.Fatal(err)
			}
			wt, err := r.Worktree()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := wt.Add("events/a.jsonl"); err != nil {
				t.Fatal(err)
			}
			// The working tree matches HEAD again; the index does not.
			if err := os.WriteFile(filepath.Join(dir, "events", "a.jsonl"), []byte("1\n2\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		}, ErrUncommitted},
		{"untracked", func(t *testing.T) string {
			dir := t.TempDir()
			if err := WriteRepo(dir, []Commit{{When: day(1), Files: map[string][]byte{"x.md": []byte("x")}}}); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, "events"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "events", "a.jsonl"), []byte("1\n2\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		}, ErrUncommitted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.prepare(t)
			before, _ := os.ReadFile(filepath.Join(dir, "events", "a.jsonl"))
			_, err := CommitEdits(dir, edit)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			after, _ := os.ReadFile(filepath.Join(dir, "events", "a.jsonl"))
			if string(before) != string(after) {
				t.Errorf("the file changed: %q -> %q", before, after)
			}
		})
	}
}
