// Package source is engram's first stage: it turns a memory repository (a
// git repository, a directory inside one, or a plain directory) into a file
// system plus the history of every file, found in one walk of the commit
// graph ([Open]). It is the only package that imports go-git; later stages
// never see go-git types.
//
// It also writes repositories ([WriteRepo]) for test fixtures, the corpus
// generator and the commands that change a memory repository, and has two
// helpers for other packages' tests: [WriteTxtarRepo] and [ShallowClone].
package source

import (
	"io/fs"
	"time"
)

// Repo is what the source stage hands to the rest of the pipeline.
type Repo struct {
	// FS holds the repository's files, rooted at the memory repository.
	FS fs.FS
	// Files lists every regular file under the root that engram may read,
	// sorted by path (slash-separated, relative to the root). Symlinks,
	// submodules and the .git directory are never listed: they are reported.
	Files []File
	// Kind is "git" for a repository with commits and "dir" otherwise.
	Kind string
	// Head is the hash of the commit that was built; empty for a plain directory.
	Head string
	// RefTime is the committer time of Head (UTC); zero for a plain directory.
	RefTime time.Time
	// Prefix is the memory repository's slash path inside its git
	// repository's worktree ("" at its top, or for a plain directory): a
	// file's path in the git repository is Prefix joined with its Path.
	Prefix string
	// Shallow reports a shallow clone: history is incomplete, so dates
	// before the shallow boundary are unknown.
	Shallow bool
}

// File is one file of the repository with what history says about it.
type File struct {
	Path string
	Size int64
	// History is the zero value when the file has no history (plain
	// directory, untracked file, or first seen at a shallow boundary).
	History History
}

// History is the first and last commit that added or changed a file.
//
// Every commit reachable from HEAD counts, once: each is diffed against its
// parent (a root commit against the empty tree), and a merge counts only
// for the paths that differ from all of its parents, so a change made on a
// side branch is dated by the side branch's commit. Deleting a file does
// not count: a renamed file starts a new history (there is no rename
// detection), and a path deleted and added again keeps its first Created.
// Commits are ordered by committer time, ties broken ancestors first.
// Times are UTC.
type History struct {
	Created       time.Time
	Updated       time.Time
	CreatedCommit string
	UpdatedCommit string
	// Complete is false when the file was seen at a shallow boundary (or
	// below a commit that could not be read), so Created may be later than
	// the file's real creation.
	Complete bool
}

// Known reports whether the file has any history at all.
func (h History) Known() bool { return h.UpdatedCommit != "" }

// Commit is one commit for WriteRepo: test fixtures, the corpus generator,
// and commands that change the repository (prune, import) use it.
type Commit struct {
	// Files maps slash-separated paths to contents; a nil value deletes.
	Files   map[string][]byte
	Message string
	Author  string
	When    time.Time
}
