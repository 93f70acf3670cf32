package indexer

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/events"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/source"
)

// readEvents reads every events file (SPEC §2.5) and applies retention:
// kept are the events within days of ref, oldest first; expired are the
// older ones, which the output leaves out and engram prune deletes. Each
// file's expired lines are listed in one info diagnostic.
func readEvents(repo *source.Repo, ref time.Time, days int) (kept, expired []events.Execution, diags note.Diagnostics) {
	var all []events.Execution
	for _, f := range repo.Files {
		if !events.IsFile(f.Path) {
			continue
		}
		if f.Size > events.MaxFileBytes {
			diags.Report(f.Path, 1, 1, note.Error, "events-too-large", "events file is %d bytes, over the limit of %d; not read", f.Size, events.MaxFileBytes)
			continue
		}
		data, err := fs.ReadFile(repo.FS, f.Path)
		if err != nil {
			diags.Report(f.Path, 1, 1, note.Error, "read", "%s", err.Error())
			continue
		}
		evs, d := events.Parse(f.Path, data)
		all = append(all, evs...)
		diags = append(diags, d...)
	}
	diags = append(diags, events.RepeatedIDs(all)...)
	kept, expired = events.Retain(all, ref, days)
	diags = append(diags, events.ExpiredDiagnostics(expired, days)...)
	diags = append(diags, events.FutureDiagnostics(kept, ref)...)
	sort.SliceStable(kept, func(i, j int) bool { return events.Before(&kept[i], &kept[j]) })
	return kept, expired, diags
}

// PruneResult is what engram prune found, and did.
type PruneResult struct {
	ReferenceTime time.Time
	RetentionDays int
	// Files are the events files with expired events, by path.
	Files []PruneFile
	// Expired counts the expired events of all files.
	Expired int
	// Commit is the commit that removed them (with apply), else "".
	Commit string
}

// PruneFile is one events file's expired events.
type PruneFile struct {
	Path    string
	Lines   []int
	Deleted bool // nothing but the expired events was left: the file goes
}

// PruneOptions say how to commit the pruned files.
type PruneOptions struct {
	Apply bool
	// When is the commit's time: the command line passes the wall clock.
	When   time.Time
	Author string // default source.DefaultAuthor
}

// Prune finds the events past retention (SPEC §3), as a build would, and
// with Apply deletes their lines from the files and commits only those
// files, with go-git, on top of HEAD. It refuses (source.ErrNotGit,
// source.ErrUncommitted) when the repository is not a git repository
// with commits, or a file has uncommitted changes.
func Prune(ctx context.Context, opt Options, po PruneOptions) (*PruneResult, error) {
	l, err := Load(ctx, opt)
	if err != nil {
		return nil, err
	}
	res := &PruneResult{ReferenceTime: l.Export.ReferenceTime, RetentionDays: l.Export.RetentionDays, Expired: len(l.Expired)}
	paths, lines := events.ByFile(l.Expired)
	for _, p := range paths {
		res.Files = append(res.Files, PruneFile{Path: p, Lines: lines[p]})
	}
	if !po.Apply || len(res.Files) == 0 {
		return res, nil
	}
	files, err := pruned(opt.withDefaults().Repo, res)
	if err != nil {
		return res, err
	}
	res.Commit, err = source.CommitEdits(opt.withDefaults().Repo, source.Commit{Files: files, When: po.When, Author: po.Author, Message: pruneMessage(res)})
	return res, err
}

// pruned reads each file again and deletes the lines of its expired
// events, found again in what was read, so the lines deleted are the
// lines that were checked; a file left blank is deleted.
func pruned(repo string, res *PruneResult) (map[string][]byte, error) {
	files := map[string][]byte{}
	for i := range res.Files {
		f := &res.Files[i]
		src, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(f.Path)))
		if err != nil {
			return nil, fmt.Errorf("prune %s: %w", f.Path, err)
		}
		evs, _ := events.Parse(f.Path, src)
		_, expired := events.Retain(evs, res.ReferenceTime, res.RetentionDays)
		_, again := events.ByFile(expired)
		if !slices.Equal(again[f.Path], f.Lines) {
			return nil, fmt.Errorf("prune %s: the file changed while engram read it; run engram prune again", f.Path)
		}
		out := events.RemoveLines(src, f.Lines)
		if len(bytes.TrimSpace(out)) == 0 {
			out, f.Deleted = nil, true
		}
		files[f.Path] = out
	}
	return files, nil
}

func pruneMessage(res *PruneResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "engram prune: remove %d %s older than %d days\n\n", res.Expired, plural(res.Expired, "event"), res.RetentionDays)
	fmt.Fprintf(&b, "Retention is %d days before the reference time %s ([events] retention_days in engram.toml).\n\n",
		res.RetentionDays, res.ReferenceTime.UTC().Format(time.RFC3339))
	for _, f := range res.Files {
		fmt.Fprintf(&b, "%s: %s", f.Path, events.Lines(f.Lines))
		if f.Deleted {
			b.WriteString(" (file deleted: nothing else was left)")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return what
	}
	return what + "s"
}
