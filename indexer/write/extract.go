package write

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/engramhq/engram/indexer/extract"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// ExtractOptions are the inputs of one `engram extract` run: the write's
// options (the repository, Force to replace notes that exist, Commit),
// and the folder the notes go to.
type ExtractOptions struct {
	WriteOptions
	// Out is the folder the episode notes go to, inside the repository:
	// a path relative to it, or any path that resolves inside it; ""
	// is episodes/.
	Out string
}

// Extracted is what became of one session log.
type Extracted struct {
	Log         string
	Diagnostics []note.Diagnostic
	// Skipped is a file that is not a session log (a handoff, a README,
	// an empty file): nothing is written, and it is not a failure.
	Skipped bool
	// Failed is a log that could not be made a note: Err says why, or
	// when it is nil, the diagnostics do.
	Failed bool
	Err    error
	// Target is the episode note written (a slash path in the
	// repository), and Episode what it holds.
	Target  string
	Episode extract.Episode
	// Staged and Commit say how git knows the note written.
	Staged bool
	Commit string
}

// Extract turns ai-agents session logs into episode notes in the folder
// opt.Out of the repository, as one write (staged, or with Commit
// committed), then hands each log's result to each, in order. Every log
// is tried; one that fails does not stop the others. A note is written
// only when it parses cleanly and holds no secret, never beside a note
// of its title (anywhere in the repository) and never over one unless
// forced (then it is replaced where it is).
func Extract(ctx context.Context, opt ExtractOptions, logs []string, each func(Extracted)) error {
	t, err := beginMaking(ctx, opt.WriteOptions)
	if err != nil {
		return err
	}
	folder, err := t.folder(opt.Out)
	results := make([]Extracted, 0, len(logs))
	made := map[string]string{} // lower-case file name → the log it came from
	for _, p := range logs {
		if err != nil {
			break
		}
		if err = ctx.Err(); err == nil {
			var r Extracted
			r, err = t.extractOne(p, folder, made)
			results = append(results, r)
		}
	}
	w, err := t.end(err, fmt.Sprintf("extract: %d session logs", len(logs)))
	for _, r := range results {
		switch {
		case err != nil && r.Target != "":
			r.Failed, r.Err, r.Target = true, err, ""
		case r.Target != "":
			r.Staged, r.Commit = w.Staged, w.Commit
		}
		each(r)
	}
	return err
}

// folder is out as a slash path inside the repository; "" is episodes.
func (t *txn) folder(out string) (string, error) {
	if out == "" {
		return "episodes", nil
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	// A folder that does not exist yet resolves through its parent.
	dir, base := abs, ""
	for {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			abs = filepath.Join(real, base)
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir, base = parent, filepath.Join(filepath.Base(dir), base)
	}
	rel, err := filepath.Rel(t.root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("--out %s is not inside the repository %s: engram writes notes only inside the repository (give a folder in it, or --repo)", out, t.opt.Repo)
	}
	return filepath.ToSlash(rel), nil
}

// extractOne extracts one log and plans its note. The error is for a
// write that cannot go on (a folder that is a symbolic link).
func (t *txn) extractOne(p, folder string, made map[string]string) (Extracted, error) {
	r := Extracted{Log: p, Failed: true}
	src, err := os.ReadFile(p)
	if err != nil {
		r.Err = err
		return r, nil
	}
	ep, diags, err := extract.Extract(filepath.ToSlash(p), src)
	r.Diagnostics = diags
	switch {
	case errors.Is(err, extract.ErrNotSessionLog):
		r.Skipped, r.Failed = true, false
		return r, nil
	case err != nil:
		return r, nil
	}
	md := ep.Markdown()
	if r.Err = checkExtracted(p, ep, md, made); r.Err != nil {
		return r, nil
	}
	target, why, err := t.putExtracted(path.Join(folder, ep.FileName()), md)
	switch {
	case err != nil:
		return r, err
	case why != nil:
		ds := note.Diagnostics(r.Diagnostics)
		ds.Report(filepath.ToSlash(p), 0, 0, note.Error, why.rule, "%s", why.msg)
		r.Diagnostics = ds
		return r, nil
	}
	r.Target, r.Episode, r.Failed = target, ep, false
	return r, nil
}

// refusal is why one note of a batch is not written: a diagnostic's
// rule and message.
type refusal struct{ rule, msg string }

// putExtracted plans an extracted note, md, at p, or with Force over the
// note of its title where it is, and returns where it goes; or why it
// is not written (a note of its title or a file at p exists, it would be
// published at another note's place, it holds a secret). The error is
// for a write that cannot go on.
func (t *txn) putExtracted(p string, md []byte) (string, *refusal, error) {
	if err := t.inside(p); err != nil {
		return "", nil, err
	}
	x, err := t.index()
	if err != nil {
		return "", nil, err
	}
	n, err := checkNoteWith(x.parser, p, md)
	if err != nil {
		return "", &refusal{"extract-parse", err.Error()}, nil
	}
	shown := func(q string) string { return filepath.Join(t.opt.Repo, filepath.FromSlash(q)) }
	exists := func(q string) *refusal {
		return &refusal{"extract-exists", shown(q) + " already exists; not overwritten (use --force to replace it)"}
	}
	same, other := x.clashes(n)
	switch {
	case len(other) > 0:
		return "", &refusal{"extract-clash", fmt.Sprintf("its note %q would be published at the same place as %s (titled %q), which a build refuses; not written", n.Title, shown(other[0].Path), other[0].Note.Title)}, nil
	case len(same) > 0 && (same[0].Note.Private || same[0].json()):
		return "", &refusal{"extract-exists", fmt.Sprintf("a note titled %q is in the repository already; not written", n.Title)}, nil
	case len(same) > 0 && !t.opt.Force:
		return "", exists(same[0].Path), nil
	case len(same) > 0:
		p = same[0].Path
	default:
		if _, err := os.Lstat(t.abs(p)); err == nil && !t.opt.Force {
			return "", exists(p), nil
		}
		if err := checkFree(t.root, p); err != nil {
			return "", &refusal{"extract-exists", err.Error()}, nil
		}
	}
	if s, where, err := t.secretIn(p, md); err != nil || s != nil {
		if err != nil {
			return "", nil, err
		}
		return "", &refusal{"secret", secretAt(p, s, where) + "; not written: a build refuses it"}, nil
	}
	if t.opt.Force {
		t.replace(p, md)
	} else {
		t.create(p, md)
	}
	x.planned = append(x.planned, found{Path: p, Src: md, Note: n})
	return p, nil, nil
}

// checkExtracted refuses a note that another log of this run already
// made, and a note that would not parse cleanly (which would be a bug of
// extract).
func checkExtracted(p string, ep extract.Episode, md []byte, made map[string]string) error {
	key := strings.ToLower(ep.FileName())
	if other, ok := made[key]; ok {
		return fmt.Errorf("%s and %s both make %s; %s is not written", other, p, ep.FileName(), p)
	}
	made[key] = p
	_, diags, err := parse.New(parse.Roots{}).Parse("episodes/"+ep.FileName(), md)
	if err != nil {
		return fmt.Errorf("the note extracted from %s is not publishable: %v", p, err)
	}
	for _, d := range diags {
		if d.Severity >= note.Warning {
			return fmt.Errorf("the note extracted from %s does not parse cleanly (%s); please report this", p, d)
		}
	}
	return nil
}
