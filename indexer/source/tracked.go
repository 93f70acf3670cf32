package source

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/note"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// keepTracked drops from t the files git does not track (in the index or
// in HEAD's tree: committed or staged), so that a note only on someone's disk, or one
// .gitignore names, is never published. Each dropped file is accounted
// for (SPEC §6), collapsed by directory as `git status` does:
//
//   - source-untracked (warning): not in the index; `git add` publishes it;
//   - source-ignored (info): .gitignore or .git/info/exclude names it.
func (t *tree) keepTracked(r *git.Repository, prefix string) ([]note.Diagnostic, error) {
	idx, err := r.Storer.Index()
	if err != nil {
		return nil, fmt.Errorf("read the git index: %w", err)
	}
	tracked := make(map[string]bool, len(idx.Entries))
	for _, e := range idx.Entries {
		if p, ok := strings.CutPrefix(e.Name, prefix); ok && (prefix == "" || strings.HasPrefix(p, "/")) {
			tracked[strings.TrimPrefix(p, "/")] = true
		}
	}
	inHead := inHeadTree(r)
	var dropped []string
	kept := &tree{want: map[string]int{}, dirs: map[string]bool{"": true}, empty: t.empty, diags: t.diags}
	for i, f := range t.files {
		if !tracked[f.Path] && !inHead(path.Join(prefix, f.Path)) {
			dropped = append(dropped, f.Path)
			continue
		}
		kept.want[f.Path] = len(kept.files)
		kept.files = append(kept.files, f)
		kept.mtime = append(kept.mtime, t.mtime[i])
		for d := path.Dir(f.Path); d != "." && !kept.dirs[d]; d = path.Dir(d) {
			kept.dirs[d] = true
		}
	}
	if len(dropped) == 0 {
		return nil, nil
	}
	ignored, err := ignoreMatcher(r, prefix)
	if err != nil {
		return nil, err
	}
	all := make([]string, len(t.files))
	for i, f := range t.files {
		all[i] = f.Path
	}
	*t = *kept
	return untrackedDiags(all, dropped, ignored), nil
}

// inHeadTree reports whether HEAD's tree holds a file at p (worktree
// relative). An index that lags HEAD (a checkout made without one) does
// not hide committed notes.
func inHeadTree(r *git.Repository) func(p string) bool {
	ref, err := r.Head()
	if err != nil {
		return func(string) bool { return false }
	}
	c, err := r.CommitObject(ref.Hash())
	if err != nil {
		return func(string) bool { return false }
	}
	t, err := c.Tree()
	if err != nil {
		return func(string) bool { return false }
	}
	return func(p string) bool {
		e, err := t.FindEntry(p)
		return err == nil && e.Mode.IsFile()
	}
}

// ignoreMatcher reads the repository's ignore rules: every .gitignore in
// the worktree and .git/info/exclude.
func ignoreMatcher(r *git.Repository, prefix string) (func(p string) bool, error) {
	wt, err := r.Worktree()
	if err != nil {
		return nil, err
	}
	ps, err := gitignore.ReadPatterns(wt.Filesystem, nil)
	if err != nil {
		return nil, fmt.Errorf("read .gitignore: %w", err)
	}
	ps = append(ps, wt.Excludes...)
	m := gitignore.NewMatcher(ps)
	return func(p string) bool {
		return m.Match(strings.Split(path.Join(prefix, p), "/"), false)
	}, nil
}

// untrackedDiags reports the dropped files, one diagnostic for the
// largest directory whose files are all dropped for the same reason.
func untrackedDiags(all, dropped []string, ignored func(string) bool) []note.Diagnostic {
	reason := make(map[string]string, len(dropped))
	for _, p := range dropped {
		reason[p] = "untracked"
		if ignored(p) {
			reason[p] = "ignored"
		}
	}
	// mixed[d] is true when d holds a kept file, or files dropped for
	// different reasons; such a directory is not collapsed.
	why := map[string]string{}
	mixed := map[string]bool{}
	for _, p := range all {
		r := reason[p]
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if w, seen := why[d]; r == "" || (seen && w != r) {
				mixed[d] = true
			} else if !seen {
				why[d] = r
			}
		}
	}
	groups := map[string][]string{}
	for _, p := range dropped {
		top := p
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if !mixed[d] {
				top = d + "/"
			}
		}
		groups[top] = append(groups[top], p)
	}
	var diags []note.Diagnostic
	for top, ps := range groups {
		diags = append(diags, untrackedDiag(top, len(ps), reason[ps[0]]))
	}
	slices.SortFunc(diags, func(a, b note.Diagnostic) int { return strings.Compare(a.Path, b.Path) })
	return diags
}

func untrackedDiag(p string, n int, reason string) note.Diagnostic {
	what, verb := "this file", "is"
	if strings.HasSuffix(p, "/") {
		what, verb = fmt.Sprintf("the %d files under this directory", n), "are"
		if n == 1 {
			what = "the 1 file under this directory"
		}
	}
	switch reason {
	case "ignored":
		return note.Diagnostic{Path: p, Severity: note.Info, Rule: "source-ignored",
			Message: fmt.Sprintf("%s %s ignored by git (.gitignore): not published", what, verb)}
	}
	return note.Diagnostic{Path: p, Severity: note.Warning, Rule: "source-untracked",
		Message: fmt.Sprintf("%s %s not tracked by git: not published (git add to publish)", what, verb)}
}

// listedFS serves only the files the source stage listed: a later stage
// can never read an untracked, ignored or unlisted file by name.
type listedFS struct {
	fsys  fs.FS
	files map[string]bool
}

func (l listedFS) Open(name string) (fs.File, error) {
	if !l.files[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return l.fsys.Open(name)
}

func newListedFS(fsys fs.FS, files []File) fs.FS {
	set := make(map[string]bool, len(files))
	for _, f := range files {
		set[f.Path] = true
	}
	return listedFS{fsys: fsys, files: set}
}
