package indexer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/engramhq/engram/indexer/extract"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// ExtractOptions are the inputs of one `engram extract` run.
type ExtractOptions struct {
	// Out is the folder the episode notes go to.
	Out string
	// Force overwrites episode notes that exist.
	Force bool
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
	// Target is the episode note written, and Episode what it holds.
	Target  string
	Episode extract.Episode
}

// Extract turns ai-agents session logs into episode notes in opt.Out,
// handing each log's result to each as it is done. Every log is tried;
// one that fails does not stop the others. A note is written only when it
// parses cleanly, and never over a note that exists unless forced.
func Extract(ctx context.Context, opt ExtractOptions, logs []string, each func(Extracted)) error {
	made := map[string]string{} // lower-case file name → the log it came from
	for _, p := range logs {
		if err := ctx.Err(); err != nil {
			return err
		}
		each(extractOne(p, opt, made))
	}
	return nil
}

func extractOne(p string, opt ExtractOptions, made map[string]string) Extracted {
	r := Extracted{Log: p}
	r.Failed = true
	src, err := os.ReadFile(p)
	if err != nil {
		r.Err = err
		return r
	}
	ep, diags, err := extract.Extract(filepath.ToSlash(p), src)
	r.Diagnostics = diags
	switch {
	case errors.Is(err, extract.ErrNotSessionLog):
		r.Skipped, r.Failed = true, false
		return r
	case err != nil:
		return r
	}
	md := ep.Markdown()
	if r.Err = checkExtracted(p, ep, md, made); r.Err != nil {
		return r
	}
	target := filepath.Join(opt.Out, ep.FileName())
	err = writeNote(target, md, opt.Force)
	switch {
	case errors.Is(err, errExists):
		ds := note.Diagnostics(r.Diagnostics)
		ds.Report(filepath.ToSlash(p), 0, 0, note.Error, "extract-exists", "%s already exists; not overwritten (use --force to replace it)", target)
		r.Diagnostics = ds
	case err != nil:
		r.Err = err
	default:
		r.Target, r.Episode, r.Failed = target, ep, false
	}
	return r
}

// errExists is an episode note that is already there without Force.
var errExists = errors.New("already exists")

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

// writeNote writes a note atomically: into a temporary file beside it,
// then linked into place, which fails when the note exists, or renamed
// over it with force.
func writeNote(target string, data []byte, force bool) error {
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if !force {
		if _, err := os.Lstat(target); err == nil {
			return errExists
		}
	}
	tmp, err := os.CreateTemp(dir, ".extract-*.md")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if force {
		return os.Rename(tmp.Name(), target)
	}
	if err := os.Link(tmp.Name(), target); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errExists
		}
		// A file system without hard links: the Lstat above is the
		// check, and the rename the write.
		return os.Rename(tmp.Name(), target)
	}
	return nil
}
