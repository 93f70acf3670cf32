package indexer

import (
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
	// files and pattern rows that made none (the diagnostics say why).
	Episodes, Patterns, Skipped int
	// Written counts the notes written; Kept the notes that existed and
	// were left as they were.
	Written, Kept int
	// Diagnostics name files under the imported directory and the
	// repository, sorted.
	Diagnostics []note.Diagnostic
}

// ImportAIAgents converts the ai-agents memory directory dir (episode
// files, causal graphs) into markdown notes in repo. A note that exists
// is kept, with a warning, unless force.
func ImportAIAgents(dir, repo string, force bool) (AIAgentsImport, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return AIAgentsImport{}, fmt.Errorf("import: %s is not a directory", dir)
	}
	imp, diags := aiagents.Import(os.DirFS(dir))
	for i := range diags {
		diags[i].Path = filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(diags[i].Path)))
	}
	res := AIAgentsImport{Episodes: imp.Episodes, Patterns: imp.Patterns, Skipped: imp.Skipped}
	written, kept, err := writeImported(repo, imp.Files, force)
	res.Written, res.Kept = written, len(kept)
	res.Diagnostics = append(diags, kept...)
	note.SortDiagnostics(res.Diagnostics)
	return res, err
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
