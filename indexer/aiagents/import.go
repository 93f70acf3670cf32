package aiagents

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// Imported is what Import makes of an ai-agents memory directory: the
// notes to write, at slash-separated paths relative to the memory
// repository (episodes/<id>.md, patterns/PATTERN-<name>.md).
type Imported struct {
	Files []File
	// Episodes and Patterns count the notes made; Skipped the episode
	// files and pattern rows that made none (the diagnostics say why).
	Episodes, Patterns, Skipped int
}

// maxInput is the largest file Import reads: an episode note over
// parse.MaxNoteBytes cannot be published anyway, and a causal graph is
// rarely over a few megabytes.
const maxInput = 64 << 20

// Import converts every episode file (**/episodes/episode-*.json) of fsys
// into an episode note, and every pattern row of every
// **/causality/causal-graph.json into a pattern note. A file that cannot
// be read is an error diagnostic and the others go on. Diagnostics name
// paths in fsys.
//
// Each note is parsed back before it is returned: it has no error
// diagnostic, and what its markdown cannot hold exactly is kept in its
// ai_agents front matter (see EpisodeOf), so that Export gives back the
// episode that was imported.
func Import(fsys fs.FS) (Imported, []note.Diagnostic) {
	var imp Imported
	episodes, graphs, diags := findInputs(fsys)
	p := parse.New(parse.Roots{})
	titles := map[string]string{} // lower-case title -> file
	outcomes := map[string]string{}
	names := map[string]bool{}
	for _, f := range episodes {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			diags = append(diags, fileDiag(f, note.Error, "read", err.Error()))
			imp.Skipped++
			continue
		}
		md, n, ds, err := episodeMarkdown(p, f, data)
		diags = append(diags, ds...)
		if err != nil {
			imp.Skipped++
			continue
		}
		key := strings.ToLower(n.Title)
		if first, dup := titles[key]; dup {
			diags = append(diags, fileDiag(f, note.Error, "aiagents-import", fmt.Sprintf("episode id %q is also the id of %s; not imported, as note titles must be unique", n.Title, first)))
			imp.Skipped++
			continue
		}
		titles[key] = f
		outcomes[key] = string(n.Episode.Outcome)
		imp.Files = append(imp.Files, File{Path: "episodes/" + UniqueName(names, safeName(n.Title, 120)) + ".md", Data: md, From: f})
		imp.Episodes++
	}
	for _, f := range graphs {
		files, skipped, ds := importGraph(p, fsys, f, outcomes, names)
		diags = append(diags, ds...)
		imp.Files = append(imp.Files, files...)
		imp.Patterns += len(files)
		imp.Skipped += skipped
	}
	note.SortDiagnostics(diags)
	return imp, diags
}

func fileDiag(p string, sev note.Severity, rule, msg string) note.Diagnostic {
	return note.Diagnostic{Path: p, Line: 1, Col: 1, Severity: sev, Rule: rule, Message: msg}
}

// findInputs lists the episode and graph files of fsys in lexical order,
// never following symbolic links.
func findInputs(fsys fs.FS) (episodes, graphs []string, diags []note.Diagnostic) {
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			diags = append(diags, fileDiag(p, note.Error, "read", err.Error()))
			return nil
		}
		isGraph := path.Base(p) == "causal-graph.json" && path.Base(path.Dir(p)) == "causality"
		switch {
		case d.IsDir() && d.Name() == ".git":
			return fs.SkipDir
		case d.IsDir() || !IsEpisodeFile(p) && !isGraph:
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			diags = append(diags, fileDiag(p, note.Warning, "aiagents-import", "symbolic link; not followed"))
			return nil
		}
		if info, err := d.Info(); err == nil && info.Size() > maxInput {
			diags = append(diags, fileDiag(p, note.Error, "aiagents-import", fmt.Sprintf("file is %d bytes, over the limit of %d; not imported", info.Size(), maxInput)))
			return nil
		}
		if isGraph {
			graphs = append(graphs, p)
		} else {
			episodes = append(episodes, p)
		}
		return nil
	})
	if err != nil {
		diags = append(diags, fileDiag(".", note.Error, "read", err.Error()))
	}
	return episodes, graphs, diags
}

func episodeMarkdown(p *parse.Parser, filePath string, data []byte) ([]byte, note.Note, []note.Diagnostic, error) {
	n, diags, err := Decode(filePath, data)
	if err != nil {
		return nil, n, diags, err
	}
	if !n.Episode.Outcome.Valid() {
		d := fileDiag(filePath, note.Error, "aiagents-import", fmt.Sprintf("episode outcome %q is not %s; a markdown episode needs one, so it is not imported", n.Episode.Outcome, note.OutcomeList))
		return nil, n, append(diags, d), errorOf(d)
	}
	c := newConversion(filePath, data, &n)
	md, ds, err := c.markdown(p)
	diags = append(diags, ds...)
	return md, n, diags, err
}

// File is a file to write, at a slash-separated path under the export
// directory (or, imported, the repository).
type File struct {
	Path string
	Data []byte
	// From is the file an imported note was made from, which a
	// diagnostic about the note names.
	From string
}

// EpisodeFileName is "episode-<name>" for IsEpisodeFile, from a title:
// "EPISODE-2026-08-03-session-01" gives "episode-2026-08-03-session-01".
func EpisodeFileName(title string) string {
	name := safeName(title, 120)
	if len(name) >= len("episode-") && strings.EqualFold(name[:len("episode-")], "episode-") {
		name = name[len("episode-"):]
	}
	return "episode-" + name
}

// UniqueName returns name, or name-2, name-3, ... when a name that
// differs only by case was given before (file systems that ignore case).
func UniqueName(taken map[string]bool, name string) string {
	out := name
	for k := 2; taken[strings.ToLower(out)]; k++ {
		out = fmt.Sprintf("%s-%d", name, k)
	}
	taken[strings.ToLower(out)] = true
	return out
}
