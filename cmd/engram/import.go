package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/note"
)

// cmdImport is `engram import ai-agents DIR`: ai-agents episode JSON and
// causal-graph patterns → markdown notes in --repo.
func cmdImport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("import", flag.ContinueOnError)
	repo := flags.String("repo", "", "memory repository to write the notes into (default: . or ./content)")
	force := flags.Bool("force", false, "overwrite notes that already exist")
	verbose := flags.Bool("v", false, "print info diagnostics too")
	pos, err := parseArgs(flags, args, 2, "ai-agents DIR")
	if err != nil {
		return err
	}
	if pos[0] != "ai-agents" {
		return fmt.Errorf("%w: import: unknown format %q (the format is ai-agents)", errUsage, pos[0])
	}
	dir := pos[1]
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("import: %s is not a directory", dir)
	}
	if *repo == "" {
		*repo = defaultRepo()
	}
	imp, diags := aiagents.Import(os.DirFS(dir))
	for i := range diags {
		diags[i].Path = filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(diags[i].Path)))
	}
	written, kept, err := writeImported(*repo, imp.Files, *force)
	diags = append(diags, kept...)
	note.SortDiagnostics(diags)
	printDiagnostics(stderr, diags, *verbose)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %d episodes and %d patterns from %s into %s: %d notes written, %d kept as they were\n",
		imp.Episodes, imp.Patterns, dir, *repo, written, len(kept))
	if imp.Skipped > 0 {
		return fmt.Errorf("import: %d episode files or pattern rows could not be imported (see the errors above)", imp.Skipped)
	}
	return nil
}

// writeImported writes each note under repo; a note that exists is kept
// (a warning) unless force.
func writeImported(repo string, files []aiagents.File, force bool) (int, []note.Diagnostic, error) {
	var kept []note.Diagnostic
	written := 0
	for _, f := range files {
		dst := filepath.Join(repo, filepath.FromSlash(f.Path))
		if _, err := os.Lstat(dst); err == nil && !force {
			kept = append(kept, note.Diagnostic{Path: path.Join(filepath.ToSlash(repo), f.Path), Line: 1, Col: 1, Severity: note.Warning,
				Rule: "import-exists", Message: "note exists; not overwritten (--force overwrites it)"})
			continue
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return written, kept, fmt.Errorf("import: %w", err)
		}
		if err := replaceFile(dst, f.Data); err != nil {
			return written, kept, fmt.Errorf("import: %w", err)
		}
		written++
	}
	return written, kept, nil
}

// replaceFile writes data to a temporary file beside name and renames it
// over name, so that a reader never sees half a file.
func replaceFile(name string, data []byte) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".engram-*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}
