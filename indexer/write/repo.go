package write

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/secrets"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
)

// WriteOptions are what every write command takes (SPEC §5 "Commands
// that write"); the CLI and the MCP server fill the same struct.
type WriteOptions struct {
	// Repo is the memory repository; every file written is inside it.
	Repo string
	// Commit makes one git commit of exactly the files written. Without
	// it, in a git repository, the files are staged: engram reads only
	// tracked files, so an unstaged note would be invisible to queries.
	Commit bool
	// Force lets new and upsert replace a note engram did not write.
	Force bool
	// Author signs the commit ("Name <email>"); empty is
	// source.DefaultAuthor.
	Author string
	// Now is the time of the commit, of a feedback line without one, and
	// of the month file an append goes to; zero is the clock.
	Now time.Time
	// CacheDir is where the repository's cache is (Options.CacheDir): a
	// write keeps there what it read of every note's title, to read only
	// the notes changed since.
	CacheDir string
}

func (o WriteOptions) now() time.Time {
	if o.Now.IsZero() {
		return time.Now().UTC()
	}
	return o.Now.UTC()
}

// Written is what a write did: the files it wrote, and how git knows them.
type Written struct {
	// Paths are the files written, slash-separated, relative to Repo;
	// empty when there was nothing to change (a link that existed).
	Paths []string
	// Staged is true when the files were added to the git index.
	Staged bool
	// Commit is the hash of the commit made with WriteOptions.Commit.
	Commit string
}

// ErrNoteExists is a new note whose file exists, or an upsert over a note
// engram did not write, without Force. Callers may branch on it.
var ErrNoteExists = errors.New("note exists")

// writtenByKey marks the notes engram wrote (front matter "written_by:
// engram"): upsert replaces only those without Force.
const writtenByKey, writtenByValue = "written_by", "engram"

// txn is one write: the lock that serialises writers of a repository,
// what the write will change (plan), and, once applied, the files
// written and how to put them back if a later step fails.
type txn struct {
	opt WriteOptions
	// root is the repository's real path: the repository may be a
	// symbolic link (the user's choice), a folder inside it may not.
	root   string
	gitDir string
	lock   *os.File
	plan   []change
	paths  []string
	undo   []func()
	// notes are the repository's notes as a build reads them, and scan
	// its secret scanner, each made when first needed (find.go,
	// check.go).
	notes *noteIndex
	scan  *secrets.Scanner
}

// change is one file a write will write: created (refused if it exists
// by then) or replaced.
type change struct {
	path   string
	data   []byte
	create bool
}

// begin checks the repository and takes the writers' lock. The lock is
// in the git directory (shared by every writer of the index) or, for a
// plain directory, in the temporary directory, named by its path.
func begin(ctx context.Context, opt WriteOptions) (*txn, error) {
	if st, err := os.Stat(opt.Repo); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory: give the memory repository with --repo", opt.Repo)
	}
	root, err := realDir(opt.Repo)
	if err != nil {
		return nil, err
	}
	gitDir, err := source.GitDir(root)
	if err != nil {
		return nil, err
	}
	if opt.Commit && gitDir == "" {
		return nil, fmt.Errorf("--commit needs a git repository, and %s is in none: run git init there, or leave out --commit", opt.Repo)
	}
	lockPath := filepath.Join(gitDir, "engram-write.lock")
	if gitDir == "" {
		sum := sha256.Sum256([]byte(root))
		lockPath = filepath.Join(os.TempDir(), "engram-write-"+hex.EncodeToString(sum[:8])+".lock")
	}
	lock, err := store.LockFile(ctx, lockPath, func() {})
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", lockPath, err)
	}
	return &txn{opt: opt, root: root, gitDir: gitDir, lock: lock}, nil
}

// realDir is dir's absolute path with symbolic links resolved.
func realDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return "", fmt.Errorf("%s is not a directory: give the memory repository with --repo", dir)
	}
	return abs, nil
}

// end applies the plan unless err, then stages or commits what was
// written and releases the lock; on any failure (err, or its own) the
// files written are put back as they were, and the git index is left
// as it was.
func (t *txn) end(err error, message string) (Written, error) {
	defer store.UnlockFile(t.lock)
	if err == nil {
		err = t.apply()
	}
	w := Written{Paths: t.paths}
	if err == nil && len(t.paths) > 0 && t.gitDir != "" {
		if t.opt.Commit {
			w.Commit, err = source.CommitFiles(t.root, t.paths, message, t.opt.Author, t.opt.now())
		} else {
			err = source.AddFiles(t.root, t.paths...)
		}
		w.Staged = err == nil
	}
	if err != nil {
		for i := len(t.undo) - 1; i >= 0; i-- {
			t.undo[i]()
		}
		t.paths = nil
	}
	if t.notes != nil {
		t.notes.save(t.paths)
	}
	if err != nil {
		return Written{}, err
	}
	return w, nil
}

// abs is the file of a repository path.
func (t *txn) abs(p string) string { return filepath.Join(t.root, filepath.FromSlash(p)) }

// create plans a new file: written beside it, then linked into place,
// which fails with ErrNoteExists when it exists by then, and which no
// other writer can win twice.
func (t *txn) create(p string, data []byte) { t.plan = append(t.plan, change{p, data, true}) }

// replace plans a file written over what is there (or nothing),
// atomically.
func (t *txn) replace(p string, data []byte) { t.plan = append(t.plan, change{p, data, false}) }

// apply checks every file of the plan (inside the repository, no secret:
// check.go) before it writes any, then writes them.
func (t *txn) apply() error {
	for _, c := range t.plan {
		if err := t.check(c.path, c.data); err != nil {
			return err
		}
	}
	for _, c := range t.plan {
		write := t.writeNew
		if !c.create {
			write = t.writeOver
		}
		if err := write(c.path, c.data); err != nil {
			return err
		}
	}
	return nil
}

// writeNew writes a new file, failing with ErrNoteExists when it exists.
func (t *txn) writeNew(p string, data []byte) error {
	target := t.abs(p)
	tmp, err := store.TempBeside(target, data, 0o644)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, target); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s exists; not overwritten (--force replaces it): %w", p, ErrNoteExists)
		}
		return fmt.Errorf("write %s: %w", p, err)
	}
	t.paths = append(t.paths, p)
	t.undo = append(t.undo, func() { os.Remove(target) })
	return nil
}

// writeOver writes a file over what is there (or nothing), atomically;
// undo puts the old bytes back.
func (t *txn) writeOver(p string, data []byte) error {
	target := t.abs(p)
	old, oldErr := os.ReadFile(target)
	if oldErr != nil && !errors.Is(oldErr, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", p, oldErr)
	}
	tmp, err := store.TempBeside(target, data, 0o644)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", p, err)
	}
	t.paths = append(t.paths, p)
	t.undo = append(t.undo, func() {
		if oldErr != nil {
			os.Remove(target)
			return
		}
		if tmp, err := store.TempBeside(target, old, 0o644); err == nil {
			os.Rename(tmp, target)
		}
	})
	return nil
}

// checkNote parses a note about to be written, as a build will: it must
// be publishable with no error diagnostic, or nothing is written.
func checkNote(p string, data []byte) (note.Note, error) {
	return checkNoteWith(parse.New(parse.Roots{}), p, data)
}

// checkNoteWith is checkNote with the repository's parser (its folders
// for episodes and patterns, engram.toml [paths]).
func checkNoteWith(parser *parse.Parser, p string, data []byte) (note.Note, error) {
	n, diags, err := parser.Parse(p, data)
	for _, d := range diags {
		if d.Severity >= note.Error {
			return n, fmt.Errorf("%s would not parse cleanly, so nothing was written: %s", p, d.String())
		}
	}
	if err != nil {
		return n, fmt.Errorf("%s would not be publishable, so nothing was written: %w", p, err)
	}
	return n, nil
}
