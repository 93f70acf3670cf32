package source

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/note"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Open reads the memory repository at dir: the root of a git repository, a
// directory inside one (only the history of paths under it is used, with
// the prefix stripped), or a plain directory (Kind "dir", no history).
//
// Files come from the working tree on disk, not from HEAD, so uncommitted
// edits are published too; in a git repository only the files git tracks
// (committed or staged) are listed, and FS serves only listed files.
// History comes from one walk of every commit reachable from HEAD; see
// [History] for what it means.
// Problems with the input are diagnostics, sorted, by rule:
//
//   - source-symlink (warning): a symlink, never followed nor listed;
//   - source-submodule (warning): a directory holding .git, or an empty
//     directory HEAD records as a gitlink; never entered;
//   - source-output (info): an engram build's output directory (public/
//     of an earlier build), never entered, in git or not;
//   - source-untracked (warning), source-ignored (info): files git does
//     not track, or that .gitignore names, left out (see keepTracked);
//   - source-special, source-unreadable (warning): a file that is not
//     regular, a directory that cannot be read;
//   - source-no-commits (warning, path "."): a repository without commits,
//     read as a plain directory;
//   - source-shallow (info, path "."): a shallow clone, or missing parent
//     commits; files first seen at the boundary have Complete false;
//   - source-missing-object (warning, path "."): commits whose trees could
//     not be read.
//
// The error is for a dir that cannot be read at all (it wraps
// fs.ErrNotExist when dir does not exist) or a repository that cannot be.
func Open(dir string) (*Repo, []note.Diagnostic, error) {
	root, err := resolveDir(dir)
	if err != nil {
		return nil, nil, err
	}
	t, err := walkTree(root)
	if err != nil {
		return nil, nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	r, prefix, err := openGit(root)
	if err != nil {
		return nil, nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	var untracked []note.Diagnostic
	if r != nil {
		if untracked, err = t.keepTracked(r, prefix); err != nil {
			return nil, nil, fmt.Errorf("open repository %s: %w", dir, err)
		}
	}
	repo := &Repo{FS: newListedFS(os.DirFS(root), t.files), Kind: "dir", Files: t.files, Prefix: prefix}
	diags := append(t.diags, untracked...)
	if r != nil {
		d, err := readGit(r, prefix, t, repo)
		if err != nil {
			return nil, nil, fmt.Errorf("open repository %s: %w", dir, err)
		}
		diags = append(diags, d...)
	}
	slices.SortFunc(repo.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	note.SortDiagnostics(diags)
	return repo, diags, nil
}

// resolveDir returns dir as an absolute path with symlinks resolved, so
// that it compares with the worktree root go-git finds.
func resolveDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("open repository %s: %w", dir, err)
	}
	root, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("open repository %s: %w", dir, unwrapPath(err))
	}
	info, err := os.Stat(root)
	if err != nil {
		return "", fmt.Errorf("open repository %s: %w", dir, unwrapPath(err))
	}
	if !info.IsDir() {
		return "", fmt.Errorf("open repository %s: not a directory", dir)
	}
	return root, nil
}

// openGit opens the repository holding root, if any, and returns root's
// slash path relative to its worktree ("" at the top).
func openGit(root string) (*git.Repository, string, error) {
	r, err := git.PlainOpenWithOptions(root, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	top, err := worktreeTop(r)
	if err != nil {
		return nil, "", err
	}
	rel, err := filepath.Rel(top, root)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, "", fmt.Errorf("%s is outside the worktree %s", root, top)
	}
	if rel == "." {
		rel = ""
	}
	return r, filepath.ToSlash(rel), nil
}

// readGit fills in repo's history from r. A repository without commits
// stays Kind "dir".
func readGit(r *git.Repository, prefix string, t *tree, repo *Repo) ([]note.Diagnostic, error) {
	ref, err := r.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return []note.Diagnostic{{Path: ".", Severity: note.Warning, Rule: "source-no-commits",
			Message: "git repository has no commits yet: files have no history"}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	shallow, err := r.Storer.Shallow()
	if err != nil {
		return nil, fmt.Errorf("read shallow file: %w", err)
	}
	s, done := readStorer(r, 1)
	defer done()
	g, err := collectCommits(s, ref.Hash(), hashSet(shallow))
	if err != nil {
		return nil, err
	}
	spans, bad, err := walkHistory(r, s, g, prefix, t, workerCount(r, len(g.nodes)))
	if err != nil {
		return nil, err
	}
	head := g.nodes[len(g.nodes)-1]
	repo.Kind, repo.Head, repo.RefTime = "git", head.hash.String(), head.when
	repo.Shallow = len(shallow) > 0 || len(g.missing) > 0
	fillHistory(repo.Files, spans)
	diags := historyDiags(len(shallow) > 0, len(g.missing), bad)
	return append(diags, gitlinkDiags(s, head, prefix, t.empty)...), nil
}

// fillHistory copies spans into files, in the order the walk was given.
func fillHistory(files []File, spans []span) {
	for i, s := range spans {
		if s.last == nil {
			continue
		}
		files[i].History = History{
			Created:       s.first.when,
			Updated:       s.last.when,
			CreatedCommit: s.first.hash.String(),
			UpdatedCommit: s.last.hash.String(),
			Complete:      !s.incomplete,
		}
	}
}

func historyDiags(shallow bool, missing int, unreadable []*commitNode) []note.Diagnostic {
	var ds note.Diagnostics
	switch {
	case shallow:
		ds.Report(".", 0, 0, note.Info, "source-shallow", "%s", "shallow clone: history before the shallow boundary is missing, so dates of files first seen there fall back to front matter")
	case missing > 0:
		ds.Report(".", 0, 0, note.Info, "source-shallow", "history is incomplete (%d parent commits missing): dates of files first seen at the boundary fall back to front matter", missing)
	}
	if len(unreadable) > 0 {
		ds.Report(".", 0, 0, note.Warning, "source-missing-object", "%d commits could not be read (missing objects, first %s): their changes are not in the history", len(unreadable), unreadable[0].hash)
	}
	return ds
}

// gitlinkDiags reports empty directories that HEAD records as submodules
// (a submodule that was never checked out). Empty directories are rare, so
// looking each up in HEAD costs little.
func gitlinkDiags(s storer.EncodedObjectStorer, head *commitNode, prefix string, empty []string) []note.Diagnostic {
	if len(empty) == 0 {
		return nil
	}
	root, err := object.GetTree(s, head.tree)
	if err != nil {
		return nil // the walk already reported unreadable history
	}
	var ds note.Diagnostics
	for _, dir := range empty {
		e, err := root.FindEntry(joinPrefix(prefix, dir))
		if err == nil && e.Mode == filemode.Submodule {
			ds.Report(dir, 0, 0, note.Warning, "source-submodule", "%s", "submodule is not entered")
		}
	}
	return ds
}

func joinPrefix(prefix, p string) string {
	if prefix == "" {
		return p
	}
	return prefix + "/" + p
}

func hashSet(hs []plumbing.Hash) map[plumbing.Hash]bool {
	m := make(map[plumbing.Hash]bool, len(hs))
	for _, h := range hs {
		m[h] = true
	}
	return m
}
