package source

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/note"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

func day(d int) time.Time { return time.Date(2026, 1, d, 10, 0, 0, 0, time.UTC) }

// commitHashes lists the commits of HEAD's first-parent chain, oldest first.
func commitHashes(t *testing.T, dir string) []string {
	t.Helper()
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	var hs []string
	for h := ref.Hash(); !h.IsZero(); {
		c, err := r.CommitObject(h)
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, c.Hash.String())
		h = plumbing.ZeroHash
		if len(c.ParentHashes) > 0 {
			h = c.ParentHashes[0]
		}
	}
	slices.Reverse(hs)
	return hs
}

func mustOpen(t *testing.T, dir string) (*Repo, []note.Diagnostic) {
	t.Helper()
	repo, diags, err := Open(dir)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	return repo, diags
}

func fileMap(repo *Repo) map[string]File {
	m := map[string]File{}
	for _, f := range repo.Files {
		m[f.Path] = f
	}
	return m
}

func paths(repo *Repo) []string {
	var ps []string
	for _, f := range repo.Files {
		ps = append(ps, f.Path)
	}
	return ps
}

func rules(diags []note.Diagnostic) []string {
	var rs []string
	for _, d := range diags {
		rs = append(rs, d.Path+" "+d.Rule)
	}
	return rs
}

// span is the expected history of a file: commit numbers (1-based into
// commitHashes) and days, 0 for none.
type wantSpan struct {
	created, updated int // commit numbers
	cday, uday       int
	complete         bool
}

func checkHistory(t *testing.T, repo *Repo, hashes []string, want map[string]wantSpan) {
	t.Helper()
	got := fileMap(repo)
	if !reflect.DeepEqual(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
		t.Fatalf("files = %v, want %v", paths(repo), slices.Sorted(maps.Keys(want)))
	}
	for p, w := range want {
		h := got[p].History
		if w.updated == 0 {
			if h != (History{}) {
				t.Errorf("%s: history %+v, want none", p, h)
			}
			continue
		}
		wantH := History{
			Created: day(w.cday), Updated: day(w.uday),
			CreatedCommit: hashes[w.created-1], UpdatedCommit: hashes[w.updated-1],
			Complete: w.complete,
		}
		if h != wantH {
			t.Errorf("%s: history\n got %+v\nwant %+v", p, h, wantH)
		}
		if h.Created.Location() != time.UTC || h.Updated.Location() != time.UTC {
			t.Errorf("%s: times not in UTC: %v %v", p, h.Created, h.Updated)
		}
	}
}

// threeCommits adds, modifies, deletes and renames; commit 2 is dated in
// another zone to check that times come back in UTC.
func threeCommits() []Commit {
	plus2 := time.FixedZone("+02", 2*3600)
	return []Commit{
		{Message: "add", When: day(1), Files: map[string][]byte{
			"a.md": []byte("a1"), "b.md": []byte("b1"), "old.md": []byte("o"), "dir/c.md": []byte("c"),
		}},
		{Message: "modify and delete", When: day(2).In(plus2), Files: map[string][]byte{
			"a.md": []byte("a2"), "b.md": nil,
		}},
		{Message: "rename", When: day(3), Files: map[string][]byte{
			"old.md": nil, "new.md": []byte("o"), "dir/d.md": []byte("d"),
		}},
	}
}

func TestOpenHistory(t *testing.T) {
	dir := t.TempDir()
	if err := WriteRepo(dir, threeCommits()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "untracked.md"), []byte("u"), 0o644); err != nil {
		t.Fatal(err)
	}
	hashes := commitHashes(t, dir)
	repo, diags := mustOpen(t, dir)
	t.Run("repo", func(t *testing.T) {
		if repo.Kind != "git" || repo.Head != hashes[2] || !repo.RefTime.Equal(day(3)) || repo.Shallow {
			t.Errorf("repo = %s %s %v shallow=%v", repo.Kind, repo.Head, repo.RefTime, repo.Shallow)
		}
		// A file git does not track is left out, and accounted for.
		if got := rules(diags); !slices.Equal(got, []string{"untracked.md source-untracked"}) {
			t.Errorf("diags = %v", diags)
		}
	})
	t.Run("history", func(t *testing.T) {
		checkHistory(t, repo, hashes, map[string]wantSpan{
			"a.md":     {1, 2, 1, 2, true},
			"dir/c.md": {1, 1, 1, 1, true},
			"dir/d.md": {3, 3, 3, 3, true},
			"new.md":   {3, 3, 3, 3, true},
		})
		if _, err := fs.ReadFile(repo.FS, "untracked.md"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("FS serves the untracked file: %v", err)
		}
	})
	t.Run("fs", func(t *testing.T) {
		b, err := fs.ReadFile(repo.FS, "a.md")
		if err != nil || string(b) != "a2" {
			t.Errorf("read a.md = %q, %v", b, err)
		}
		if f := fileMap(repo)["a.md"]; f.Size != 2 {
			t.Errorf("size = %d", f.Size)
		}
	})
}

func TestOpenSubdirectory(t *testing.T) {
	dir := t.TempDir()
	err := WriteTxtarRepo(dir, []byte(`
-- @commit 2026-01-01T10:00:00Z one --
-- content/a.md --
a
-- other/x.md --
x
-- @commit 2026-01-02T10:00:00Z two --
-- content/sub/b.md --
b
-- @commit 2026-01-03T10:00:00Z only other --
-- other/x.md --
x2
-- content.md --
not under content/
`))
	if err != nil {
		t.Fatal(err)
	}
	hashes := commitHashes(t, dir)
	repo, diags := mustOpen(t, filepath.Join(dir, "content"))
	if len(diags) != 0 {
		t.Errorf("diags = %v", diags)
	}
	if repo.Head != hashes[2] || !repo.RefTime.Equal(day(3)) {
		t.Errorf("head = %s %v", repo.Head, repo.RefTime)
	}
	checkHistory(t, repo, hashes, map[string]wantSpan{
		"a.md":     {1, 1, 1, 1, true},
		"sub/b.md": {2, 2, 2, 2, true},
	})
	t.Run("deeper", func(t *testing.T) {
		repo, _ := mustOpen(t, filepath.Join(dir, "content", "sub"))
		checkHistory(t, repo, hashes, map[string]wantSpan{"b.md": {2, 2, 2, 2, true}})
	})
	t.Run("untracked subdirectory", func(t *testing.T) {
		sub := filepath.Join(dir, "new")
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "n.md"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		repo, diags := mustOpen(t, sub)
		checkHistory(t, repo, hashes, map[string]wantSpan{})
		if got := rules(diags); !slices.Equal(got, []string{"n.md source-untracked"}) {
			t.Errorf("diags = %v", got)
		}
	})
}

func TestOpenPlainAndEmpty(t *testing.T) {
	// In a repository without commits, only staged files are tracked.
	untracked := []string{". source-no-commits", "d/ source-untracked", "x.md source-untracked"}
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		diags []string
		files map[string]wantSpan
	}{
		{"plain directory", func(t *testing.T, dir string) {}, nil, map[string]wantSpan{"x.md": {}, "d/y.md": {}}},
		{"repository without commits", func(t *testing.T, dir string) {
			if err := WriteRepo(dir, nil); err != nil {
				t.Fatal(err)
			}
		}, untracked, map[string]wantSpan{}},
		{"txtar without commits", func(t *testing.T, dir string) {
			if err := WriteTxtarRepo(dir, []byte("-- @untracked --\n")); err != nil {
				t.Fatal(err)
			}
		}, untracked, map[string]wantSpan{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.setup(t, dir)
			writeFiles(t, dir, "x.md", "d/y.md")
			repo, diags := mustOpen(t, dir)
			if repo.Kind != "dir" || repo.Head != "" || !repo.RefTime.IsZero() || repo.Shallow {
				t.Errorf("repo = %+v", repo)
			}
			if got := rules(diags); !slices.Equal(got, tt.diags) {
				t.Errorf("diags = %v, want %v", got, tt.diags)
			}
			checkHistory(t, repo, nil, tt.files)
		})
	}
}

func writeFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	writeFiles(t, dir, "file")
	tests := []struct {
		name, dir, want string
		is              error
	}{
		{"missing", filepath.Join(dir, "missing"), "open repository " + filepath.Join(dir, "missing") + ": no such file or directory", fs.ErrNotExist},
		{"not a directory", file, "open repository " + file + ": not a directory", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Open(tt.dir)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v, want %s", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("err %v is not %v", err, tt.is)
			}
		})
	}
}

func TestOpenSymlinks(t *testing.T) {
	dir := t.TempDir()
	if err := WriteRepo(dir, []Commit{{When: day(1), Files: map[string][]byte{"real/a.md": []byte("a")}}}); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"file-link.md": "real/a.md",
		"dir-link":     "real",
		"self":         ".",
		"loop-a":       "loop-b",
		"loop-b":       "loop-a",
		"real/up":      "..",
		"dangling":     "nowhere",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("symlinks not supported: %v", err)
		}
	}
	repo, diags := mustOpen(t, dir)
	if got := paths(repo); !slices.Equal(got, []string{"real/a.md"}) {
		t.Errorf("files = %v", got)
	}
	want := []string{"dangling source-symlink", "dir-link source-symlink", "file-link.md source-symlink",
		"loop-a source-symlink", "loop-b source-symlink", "real/up source-symlink", "self source-symlink"}
	if got := rules(diags); !slices.Equal(got, want) {
		t.Errorf("diags = %v, want %v", got, want)
	}
	for _, d := range diags {
		if d.Severity != note.Warning {
			t.Errorf("%v: severity %v", d, d.Severity)
		}
	}
}

func TestOpenSubmodules(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  []string
	}{
		{"nested repository", func(t *testing.T, dir string) {
			if err := WriteRepo(filepath.Join(dir, "vendor", "sub"), []Commit{{When: day(1), Files: map[string][]byte{"t.md": []byte("t")}}}); err != nil {
				t.Fatal(err)
			}
		}, []string{"vendor/sub source-submodule"}},
		{".git file", func(t *testing.T, dir string) {
			writeFiles(t, dir, "mod/.git", "mod/m.md")
		}, []string{"mod source-submodule"}},
		{"gitlink without checkout", func(t *testing.T, dir string) {
			addGitlink(t, dir, "link")
			if err := os.Mkdir(filepath.Join(dir, "link"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, []string{"link source-submodule"}},
		{"plain empty directory", func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := WriteRepo(dir, []Commit{{When: day(1), Files: map[string][]byte{"a.md": []byte("a")}}}); err != nil {
				t.Fatal(err)
			}
			tt.setup(t, dir)
			repo, diags := mustOpen(t, dir)
			if got := paths(repo); !slices.Equal(got, []string{"a.md"}) {
				t.Errorf("files = %v", got)
			}
			if got := rules(diags); !slices.Equal(got, tt.want) {
				t.Errorf("diags = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOpenDeterministic(t *testing.T) {
	dir := t.TempDir()
	odd := Commit{When: day(4), Files: map[string][]byte{}}
	for _, p := range []string{"a-b.md", "a/b.md", "a.b", "A.md", "z/y/x.md"} {
		odd.Files[p] = []byte("x")
	}
	if err := WriteRepo(dir, append(threeCommits(), odd)); err != nil {
		t.Fatal(err)
	}
	r1, d1 := mustOpen(t, dir)
	r2, d2 := mustOpen(t, dir)
	if !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(d1, d2) {
		t.Errorf("two opens differ:\n%+v\n%+v", r1, r2)
	}
	got := paths(r1)
	if !slices.IsSorted(got) {
		t.Errorf("files not sorted: %v", got)
	}
	if strings.Join(got, " ") != "A.md a-b.md a.b a.md a/b.md dir/c.md dir/d.md new.md z/y/x.md" {
		t.Errorf("files = %v", got)
	}
}

func TestOpenRelativePath(t *testing.T) {
	parent := t.TempDir()
	if err := WriteRepo(filepath.Join(parent, "repo"), threeCommits()); err != nil {
		t.Fatal(err)
	}
	t.Chdir(parent)
	for _, dir := range []string{"repo", "repo/dir", "./repo/../repo/dir"} {
		t.Run(dir, func(t *testing.T) {
			repo, _ := mustOpen(t, dir)
			if repo.Kind != "git" || len(repo.Files) == 0 || !repo.Files[0].History.Known() {
				t.Errorf("repo = %+v", repo)
			}
			if _, err := fs.Stat(repo.FS, repo.Files[0].Path); err != nil {
				t.Error(err)
			}
		})
	}
}
