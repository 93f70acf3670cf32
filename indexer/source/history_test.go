package source

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// rawCommit writes a commit with the given parents whose tree is base's
// tree edited by edit, without touching HEAD or the working tree.
func rawCommit(t *testing.T, r *git.Repository, parents []plumbing.Hash, when time.Time, edit func(*treeBuilder)) plumbing.Hash {
	t.Helper()
	var base plumbing.Hash
	if len(parents) > 0 {
		c, err := object.GetCommit(r.Storer, parents[0])
		if err != nil {
			t.Fatal(err)
		}
		base = c.TreeHash
	}
	b, err := newTreeBuilder(r.Storer, base)
	if err != nil {
		t.Fatal(err)
	}
	edit(b)
	tree, err := b.write()
	if err != nil {
		t.Fatal(err)
	}
	sig := signature("")
	sig.When = when
	obj := &object.Commit{Author: sig, Committer: sig, Message: "raw", TreeHash: tree, ParentHashes: parents}
	enc := r.Storer.NewEncodedObject()
	if err := obj.Encode(enc); err != nil {
		t.Fatal(err)
	}
	h, err := r.Storer.SetEncodedObject(enc)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func setFile(t *testing.T, r *git.Repository, p, data string) func(*treeBuilder) {
	return func(b *treeBuilder) {
		if err := setBlob(r.Storer, b, p, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
}

func head(t *testing.T, r *git.Repository) plumbing.Hash {
	t.Helper()
	ref, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	return ref.Hash()
}

// addGitlink commits a submodule entry (a gitlink) at name.
func addGitlink(t *testing.T, dir, name string) {
	t.Helper()
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	parent := head(t, r)
	h := rawCommit(t, r, []plumbing.Hash{parent}, day(2), func(b *treeBuilder) {
		b.root.entries[name] = object.TreeEntry{Name: name, Mode: filemode.Submodule, Hash: parent}
	})
	if err := updateHead(r, h); err != nil {
		t.Fatal(err)
	}
}

// TestOpenMerge checks that a merge dates only what it changed itself:
// a file brought in from a side branch keeps the side commit's date.
func TestOpenMerge(t *testing.T) {
	dir := t.TempDir()
	err := WriteRepo(dir, []Commit{
		{When: day(1), Files: map[string][]byte{"a.md": []byte("a"), "both.md": []byte("1")}},
		{When: day(2), Files: map[string][]byte{"main.md": []byte("m"), "both.md": []byte("main")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	hashes := commitHashes(t, dir)
	side := rawCommit(t, r, []plumbing.Hash{plumbing.NewHash(hashes[0])}, day(3), func(b *treeBuilder) {
		setFile(t, r, "side.md", "s")(b)
		setFile(t, r, "both.md", "side")(b)
	})
	merge := rawCommit(t, r, []plumbing.Hash{plumbing.NewHash(hashes[1]), side}, day(4), func(b *treeBuilder) {
		setFile(t, r, "side.md", "s")(b)
		setFile(t, r, "both.md", "merged")(b)
	})
	if err := updateHead(r, merge); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, "side.md")
	all := append(hashes, side.String(), merge.String())
	repo, diags := mustOpen(t, dir)
	if len(diags) != 0 {
		t.Errorf("diags = %v", diags)
	}
	checkHistory(t, repo, all, map[string]wantSpan{
		"a.md":    {1, 1, 1, 1, true},
		"main.md": {2, 2, 2, 2, true},
		"side.md": {3, 3, 3, 3, true},
		"both.md": {1, 4, 1, 4, true},
	})
}

// TestOpenEqualTimes checks that commits with one committer time are
// ordered ancestors first.
func TestOpenEqualTimes(t *testing.T) {
	dir := t.TempDir()
	err := WriteRepo(dir, []Commit{
		{When: day(1), Files: map[string][]byte{"a.md": []byte("1")}},
		{When: day(1), Files: map[string][]byte{"a.md": []byte("2")}},
		{When: day(1), Files: map[string][]byte{"a.md": []byte("3")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	repo, _ := mustOpen(t, dir)
	checkHistory(t, repo, commitHashes(t, dir), map[string]wantSpan{"a.md": {1, 3, 1, 1, true}})
}

func TestCompareEntries(t *testing.T) {
	names := []object.TreeEntry{
		{Name: "a", Mode: filemode.Regular}, {Name: "a", Mode: filemode.Dir},
		{Name: "a-b", Mode: filemode.Regular}, {Name: "a.b", Mode: filemode.Dir},
		{Name: "a0", Mode: filemode.Regular}, {Name: "ab", Mode: filemode.Dir},
		{Name: "sub", Mode: filemode.Submodule}, {Name: "", Mode: filemode.Regular},
	}
	for _, a := range names {
		for _, b := range names {
			t.Run(a.Name+"|"+b.Name, func(t *testing.T) {
				checkCompare(t, a, b)
			})
		}
	}
}

func checkCompare(t *testing.T, a, b object.TreeEntry) {
	t.Helper()
	s := object.TreeEntrySorter{a, b}
	want := 0
	switch {
	case s.Less(0, 1):
		want = -1
	case s.Less(1, 0):
		want = 1
	}
	ea, eb := entry{name: []byte(a.Name), mode: a.Mode}, entry{name: []byte(b.Name), mode: b.Mode}
	if got := compareEntries(&ea, &eb); got != want {
		t.Errorf("compareEntries(%q %v, %q %v) = %d, want %d", a.Name, a.Mode, b.Name, b.Mode, got, want)
	}
}

// FuzzCompareEntries checks the merge join's order against go-git's sort.
func FuzzCompareEntries(f *testing.F) {
	f.Add("a", true, "a-b", false)
	f.Add("a", false, "a", true)
	f.Fuzz(func(t *testing.T, a string, aDir bool, b string, bDir bool) {
		checkCompare(t, treeEntry(a, aDir), treeEntry(b, bDir))
	})
}

func treeEntry(name string, dir bool) object.TreeEntry {
	if dir {
		return object.TreeEntry{Name: name, Mode: filemode.Dir}
	}
	return object.TreeEntry{Name: name, Mode: filemode.Regular}
}

// TestTreeCacheBounded checks that the cache rotates its generations.
func TestTreeCacheBounded(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{}
	for _, n := range []string{"a/1", "b/2", "c/3", "d/4"} {
		files[n] = []byte(n)
	}
	if err := WriteRepo(dir, []Commit{{When: day(1), Files: files}}); err != nil {
		t.Fatal(err)
	}
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := object.GetCommit(r.Storer, head(t, r))
	if err != nil {
		t.Fatal(err)
	}
	root, err := object.GetTree(r.Storer, c.TreeHash)
	if err != nil {
		t.Fatal(err)
	}
	cache := newTreeCache(r.Storer, 3)
	for range 3 {
		for _, e := range root.Entries {
			got, err := cache.get(e.Hash)
			if err != nil || len(got) != 1 {
				t.Fatalf("get %s = %v, %v", e.Name, got, err)
			}
			if cache.size > 3 || len(cache.young)+len(cache.old) > 2 {
				t.Fatalf("cache holds %d entries in %d+%d trees", cache.size, len(cache.young), len(cache.old))
			}
		}
	}
}

// FuzzParseTree checks that parseTree never panics and reads every tree
// go-git reads the same way.
func FuzzParseTree(f *testing.F) {
	for _, es := range [][]object.TreeEntry{
		nil,
		{{Name: "a.md", Mode: filemode.Regular}, {Name: "dir", Mode: filemode.Dir}},
		{{Name: "run", Mode: filemode.Executable}, {Name: "sub", Mode: filemode.Submodule}, {Name: "x", Mode: filemode.Symlink}},
	} {
		obj := &plumbing.MemoryObject{}
		if err := (&object.Tree{Entries: es}).Encode(obj); err != nil {
			f.Fatal(err)
		}
		r, _ := obj.Reader()
		b, err := io.ReadAll(r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("40000 \x00"))
	f.Add([]byte("100644 a\x00short"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := parseTree(b)
		obj := &plumbing.MemoryObject{}
		obj.SetType(plumbing.TreeObject)
		if _, werr := obj.Write(b); werr != nil {
			t.Fatal(werr)
		}
		var want object.Tree
		if want.Decode(obj) != nil {
			return
		}
		if err != nil || len(got) != len(want.Entries) {
			t.Fatalf("parseTree = %d entries, %v; go-git read %d", len(got), err, len(want.Entries))
		}
		for i, w := range want.Entries {
			g := got[i]
			if string(g.name) != w.Name || g.mode != w.Mode || g.hash != w.Hash {
				t.Errorf("entry %d = %q %v %s, want %q %v %s", i, g.name, g.mode, g.hash, w.Name, w.Mode, w.Hash)
			}
		}
	})
}

// TestOpenLongHistory checks a history long enough for parallel workers
// against dates computed from the generator, and checks that the number
// of workers does not change the result.
func TestOpenLongHistory(t *testing.T) {
	dir := t.TempDir()
	commits := corpus(300, 100)
	if err := WriteRepo(dir, commits); err != nil {
		t.Fatal(err)
	}
	hashes := commitHashes(t, dir)
	want := map[string]History{}
	for i, c := range commits {
		for p := range c.Files {
			h := want[p]
			if !h.Known() {
				h.Created, h.CreatedCommit, h.Complete = c.When, hashes[i], true
			}
			h.Updated, h.UpdatedCommit = c.When, hashes[i]
			want[p] = h
		}
	}
	repo, _ := mustOpen(t, dir)
	if len(repo.Files) != len(want) {
		t.Fatalf("%d files, want %d", len(repo.Files), len(want))
	}
	for _, f := range repo.Files {
		if f.History != want[f.Path] {
			t.Errorf("%s: history %+v, want %+v", f.Path, f.History, want[f.Path])
		}
	}
	t.Run("workers", func(t *testing.T) {
		root, err := resolveDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := walkTree(root)
		if err != nil {
			t.Fatal(err)
		}
		r, _, err := openGit(root)
		if err != nil {
			t.Fatal(err)
		}
		s, done := readStorer(r, 1)
		defer done()
		var first []span
		for _, n := range []int{1, 2, 3, 7} {
			g, err := collectCommits(s, plumbing.NewHash(hashes[len(hashes)-1]), nil)
			if err != nil {
				t.Fatal(err)
			}
			spans, bad, err := walkHistory(r, s, g, "", tr, n)
			if err != nil || len(bad) != 0 {
				t.Fatalf("%d workers: %v, %d unreadable", n, err, len(bad))
			}
			got := fmt.Sprint(spanHashes(spans))
			if first == nil {
				first = spans
			} else if want := fmt.Sprint(spanHashes(first)); got != want {
				t.Errorf("%d workers differ from 1", n)
			}
		}
	})
}

func spanHashes(spans []span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.first.hash.String()+s.last.hash.String()+fmt.Sprint(s.incomplete))
	}
	return out
}
