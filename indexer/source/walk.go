package source

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/engramhq/engram/indexer/note"
)

// tree is what a walk of the working tree finds: the regular files, the
// directories that hold at least one of them (so the history walk can skip
// the rest), the empty directories (an uninitialised submodule looks like
// one) and the problems.
type tree struct {
	files []File
	mtime []int64        // modification time of each file, Unix nanoseconds
	want  map[string]int // path -> index into files
	dirs  map[string]bool
	empty []string
	diags note.Diagnostics
}

// walkTree lists the regular files under root. It reads directories itself
// rather than using filepath.WalkDir so that it sees a directory's entries
// before descending: a directory holding .git is a submodule and an
// engram build's output is not notes (isOutput), and neither is entered.
// Symlinks are never followed.
func walkTree(root string) (*tree, error) {
	t := &tree{want: map[string]int{}, dirs: map[string]bool{"": true}}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, unwrapPath(err)
	}
	t.walkEntries(root, "", entries)
	return t, nil
}

// walkDir visits the directory rel (slash-separated, relative to root).
func (t *tree) walkDir(root, rel string) {
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.warn(rel, "source-unreadable", fmt.Sprintf("cannot read directory: %v", unwrapPath(err)))
		return
	}
	if hasGit(entries) {
		t.warn(rel, "source-submodule", "submodule or nested repository is not entered")
		return
	}
	if isOutput(filepath.Join(root, filepath.FromSlash(rel)), entries) {
		t.diags = append(t.diags, outputDiag(rel))
		return
	}
	if len(entries) == 0 {
		t.empty = append(t.empty, rel)
		return
	}
	t.walkEntries(root, rel, entries)
}

func (t *tree) walkEntries(root, rel string, entries []fs.DirEntry) {
	for _, e := range entries {
		name := e.Name()
		p := path.Join(rel, name)
		switch typ := e.Type(); {
		case rel == "" && name == ".git":
			// The repository's own metadata.
		case typ&fs.ModeSymlink != 0:
			t.warn(p, "source-symlink", "symlink is not followed")
		case typ.IsDir():
			t.walkDir(root, p)
		case typ.IsRegular():
			t.addFile(p, e)
		default:
			t.warn(p, "source-special", fmt.Sprintf("not a regular file (%s)", typ.Type()))
		}
	}
}

func (t *tree) addFile(p string, e fs.DirEntry) {
	info, err := e.Info()
	if err != nil {
		t.warn(p, "source-unreadable", fmt.Sprintf("cannot stat file: %v", unwrapPath(err)))
		return
	}
	t.want[p] = len(t.files)
	t.files = append(t.files, File{Path: p, Size: info.Size()})
	t.mtime = append(t.mtime, info.ModTime().UnixNano())
	for d := path.Dir(p); d != "." && !t.dirs[d]; d = path.Dir(d) {
		t.dirs[d] = true
	}
}

func (t *tree) warn(p, rule, msg string) {
	t.diags.Report(p, 0, 0, note.Warning, rule, "%s", msg)
}

func hasGit(entries []fs.DirEntry) bool {
	for _, e := range entries {
		if e.Name() == ".git" {
			return true
		}
	}
	return false
}

// unwrapPath drops the absolute path from an *fs.PathError: diagnostics
// name the file relative to the repository already.
func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
