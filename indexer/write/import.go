package write

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/note"
)

// AIAgentsImport is what ImportAIAgents made and wrote.
type AIAgentsImport struct {
	// Episodes and Patterns count the notes made; Skipped the episode
	// files and pattern rows that made none, or whose note was refused
	// (a secret, another note's place: the diagnostics say why).
	Episodes, Patterns, Skipped int
	// Written counts the notes written; Kept the notes that existed and
	// were left as they were.
	Written, Kept int
	// Staged and Commit say how git knows the notes written, as for
	// every write (Written).
	Staged bool
	Commit string
	// Diagnostics name files under the imported directory and the
	// repository, sorted.
	Diagnostics []note.Diagnostic
}

// ImportAIAgents converts the ai-agents memory directory dir (episode
// files, causal graphs) into markdown notes in opt.Repo, written as one
// write (staged, or with opt.Commit committed). A note whose title a
// note of the repository has already, anywhere, is kept as it is, with a
// warning, unless opt.Force (then it is replaced where it is); a note
// that would hold a secret, or be published where another note is, is
// not written, with an error.
func ImportAIAgents(ctx context.Context, opt WriteOptions, dir string) (AIAgentsImport, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return AIAgentsImport{}, fmt.Errorf("import: %s is not a directory", dir)
	}
	imp, diags := aiagents.Import(os.DirFS(dir))
	for i := range diags {
		diags[i].Path = inDir(dir, diags[i].Path)
	}
	res := AIAgentsImport{Episodes: imp.Episodes, Patterns: imp.Patterns, Skipped: imp.Skipped}
	t, err := beginMaking(ctx, opt)
	if err != nil {
		res.Diagnostics = diags
		return res, err
	}
	for _, f := range imp.Files {
		var d *note.Diagnostic
		if d, err = t.importNote(f, dir); err != nil {
			break
		}
		if d != nil {
			diags = append(diags, *d)
			if d.Severity == note.Error {
				res.Skipped++
			} else {
				res.Kept++
			}
		}
	}
	w, err := t.end(err, fmt.Sprintf("import: ai-agents %s", filepath.ToSlash(dir)))
	res.Written, res.Staged, res.Commit = len(w.Paths), w.Staged, w.Commit
	res.Diagnostics = diags
	note.SortDiagnostics(res.Diagnostics)
	if err != nil {
		return res, fmt.Errorf("import: %w", err)
	}
	return res, nil
}

// beginMaking begins a write into a repository that it makes when it
// is missing: an import or an extract may fill a new one.
func beginMaking(ctx context.Context, opt WriteOptions) (*txn, error) {
	if _, err := os.Stat(opt.Repo); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(opt.Repo, 0o755); err != nil {
			return nil, fmt.Errorf("make the repository %s: %w", opt.Repo, err)
		}
	}
	return begin(ctx, opt)
}

// inDir is a path under dir, slash-separated.
func inDir(dir, p string) string { return filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(p))) }

// importNote plans one imported note, or says with a diagnostic why it
// is kept or left out. The error is for a write that cannot go on at all
// (a folder that is a symbolic link).
func (t *txn) importNote(f aiagents.File, dir string) (*note.Diagnostic, error) {
	x, err := t.index()
	if err != nil {
		return nil, err
	}
	from := inDir(dir, f.From)
	diag := func(p string, sev note.Severity, rule, format string, args ...any) *note.Diagnostic {
		return &note.Diagnostic{Path: p, Line: 1, Col: 1, Severity: sev, Rule: rule, Message: fmt.Sprintf(format, args...)}
	}
	n, err := checkNoteWith(x.parser, f.Path, f.Data)
	if err != nil {
		return diag(from, note.Error, "aiagents-import", "%v", err), nil
	}
	target, create := f.Path, !t.opt.Force
	same, other := x.clashes(n)
	switch {
	case len(other) > 0:
		return diag(from, note.Error, "import-clash", "its note %q would be published at the same place as %s (titled %q), which a build refuses; not imported", n.Title, other[0].Path, other[0].Note.Title), nil
	case len(same) > 0 && (same[0].Note.Private || same[0].json()):
		return diag(from, note.Warning, "import-exists", "a note titled %q is in the repository already; not imported", n.Title), nil
	case len(same) > 0 && !t.opt.Force:
		return diag(path.Join(filepath.ToSlash(t.opt.Repo), same[0].Path), note.Warning, "import-exists", "note exists; not overwritten (--force overwrites it)"), nil
	case len(same) > 0:
		target = same[0].Path
	default:
		if _, err := os.Lstat(t.abs(target)); err == nil && !t.opt.Force {
			return diag(path.Join(filepath.ToSlash(t.opt.Repo), target), note.Warning, "import-exists", "note exists; not overwritten (--force overwrites it)"), nil
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if err := checkFree(t.root, target); err != nil {
			return diag(from, note.Error, "import-clash", "%v; not imported", err), nil
		}
	}
	if err := t.inside(target); err != nil {
		return nil, err
	}
	if s, where, err := t.secretIn(target, f.Data); err != nil || s != nil {
		if err != nil {
			return nil, err
		}
		return diag(from, note.Error, "secret", "%s; not imported: a build refuses it", secretAt(target, s, where)), nil
	}
	if create && target == f.Path {
		t.create(target, f.Data)
	} else {
		t.replace(target, f.Data)
	}
	x.planned = append(x.planned, found{Path: target, Src: f.Data, Note: n})
	return nil, nil
}
