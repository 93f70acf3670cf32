package source

import (
	"fmt"
	"strings"
	"time"

	"golang.org/x/tools/txtar"
)

// WriteTxtarRepo turns a txtar archive into a git repository at dir (see
// [WriteRepo]), for tests of this and other packages.
//
// The archive's files are committed in order. A file whose name starts
// with "@" is a directive, not a file:
//
//	-- @commit 2026-01-02T10:00:00Z add the first episode --
//	    starts a commit with that time (RFC 3339) and message; the files
//	    that follow, up to the next directive, are in it.
//	-- @delete episodes/old.md --
//	    deletes a file in the current commit (a rename is a @delete plus
//	    the file under its new name).
//	-- @untracked --
//	    the files that follow are written to the working tree and never
//	    committed.
//
// Directive bodies are ignored. Files before the first directive form a
// commit at 2026-01-01T00:00:00Z with message "fixture", so an archive
// without directives is one commit. An archive with no committed files
// gives a repository without commits.
func WriteTxtarRepo(dir string, archive []byte) error {
	a := txtar.Parse(archive)
	commits, untracked, err := txtarCommits(a)
	if err != nil {
		return fmt.Errorf("write repository %s: %w", dir, err)
	}
	if err := WriteRepo(dir, commits); err != nil {
		return err
	}
	w := &worktree{root: dir, dirs: map[string]bool{".": true}}
	for _, f := range untracked {
		if err := w.write(f.Name, f.Data); err != nil {
			return fmt.Errorf("write repository %s: %w", dir, err)
		}
	}
	return nil
}

// txtarCommits splits an archive into commits and untracked files.
func txtarCommits(a *txtar.Archive) ([]Commit, []txtar.File, error) {
	var (
		commits   []Commit
		untracked []txtar.File
		// cur is the commit being filled, nil in an @untracked section.
		cur = &Commit{Files: map[string][]byte{}, Message: "fixture", When: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		// explicit is set when cur comes from an @commit directive: it is
		// committed even when empty.
		explicit bool
	)
	flush := func() {
		if cur != nil && (explicit || len(cur.Files) > 0) {
			commits = append(commits, *cur)
		}
	}
	for _, f := range a.Files {
		name := strings.TrimSpace(f.Name)
		switch {
		case strings.HasPrefix(name, "@commit"):
			c, err := parseCommitDirective(name)
			if err != nil {
				return nil, nil, err
			}
			flush()
			cur, explicit = c, true
		case name == "@untracked":
			flush()
			cur, explicit = nil, false
		case strings.HasPrefix(name, "@delete "):
			if cur == nil {
				return nil, nil, fmt.Errorf("%s: not in a commit", name)
			}
			cur.Files[strings.TrimSpace(strings.TrimPrefix(name, "@delete "))] = nil
		case strings.HasPrefix(name, "@"):
			return nil, nil, fmt.Errorf("unknown directive %q", name)
		case cur == nil:
			if err := checkPath(name); err != nil {
				return nil, nil, err
			}
			untracked = append(untracked, txtar.File{Name: name, Data: f.Data})
		default:
			// An empty file has nil Data, which WriteRepo reads as a deletion.
			cur.Files[name] = append([]byte{}, f.Data...)
		}
	}
	flush()
	return commits, untracked, nil
}

// parseCommitDirective reads "@commit TIME [MESSAGE]".
func parseCommitDirective(name string) (*Commit, error) {
	fields := strings.Fields(strings.TrimPrefix(name, "@commit"))
	if len(fields) == 0 {
		return nil, fmt.Errorf("%s: want @commit TIME [MESSAGE]", name)
	}
	when, err := time.Parse(time.RFC3339, fields[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	msg := strings.Join(fields[1:], " ")
	if msg == "" {
		msg = "commit"
	}
	return &Commit{Files: map[string][]byte{}, Message: msg, When: when}, nil
}
