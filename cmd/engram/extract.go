package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/engramhq/engram/indexer/extract"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// errExists is an episode note that is already there without --force.
var errExists = errors.New("already exists")

// cmdExtract turns ai-agents session logs into episode notes:
// engram extract [--repo DIR] [--out DIR] [--force] [-v] SESSION.md…
// Every log is tried; one that fails does not stop the others, and the
// command exits 1 when any failed. Logs that are not session logs
// (handoffs, READMEs, empty files) are skipped with a warning.
func cmdExtract(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("extract", flag.ContinueOnError)
	repo := flags.String("repo", ".", "memory repository")
	out := flags.String("out", "", "folder for the episode notes (default: episodes under --repo)")
	force := flags.Bool("force", false, "overwrite episode notes that already exist")
	verbose := flags.Bool("v", false, "print info diagnostics too (how each outcome was decided)")
	logs, err := parsePositional(flags, args)
	if err != nil {
		return err
	}
	if len(logs) == 0 {
		return fmt.Errorf("%w: extract takes one or more session logs: engram extract [--out DIR] SESSION.md…", errUsage)
	}
	if *out == "" {
		*out = filepath.Join(*repo, "episodes")
	}
	x := extractor{out: *out, force: *force, verbose: *verbose, stdout: stdout, stderr: stderr, made: map[string]string{}}
	for _, p := range logs {
		if err := ctx.Err(); err != nil {
			return err
		}
		x.one(p)
	}
	fmt.Fprintf(stdout, "extracted %d of %d session logs to %s (%d skipped, %d failed)\n", x.written, len(logs), *out, x.skipped, x.failed)
	if x.failed > 0 {
		return fmt.Errorf("extract: %d of %d session logs could not be extracted (see above)", x.failed, len(logs))
	}
	return nil
}

// parsePositional parses flags that may come before, between or after
// any number of positional arguments.
func parsePositional(flags *flag.FlagSet, args []string) ([]string, error) {
	flags.SetOutput(io.Discard)
	var pos []string
	for {
		if err := flags.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, fmt.Errorf("%w: %s SESSION.md… takes:%s", errUsage, flags.Name(), flagList(flags))
			}
			return nil, fmt.Errorf("%w: %s: %v", errUsage, flags.Name(), err)
		}
		if flags.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, flags.Arg(0))
		args = flags.Args()[1:]
	}
}

// extractor is the state of one engram extract run.
type extractor struct {
	out                      string
	force, verbose           bool
	stdout, stderr           io.Writer
	made                     map[string]string // lower-case file name → the log it came from
	written, skipped, failed int
}

func (x *extractor) one(p string) {
	src, err := os.ReadFile(p)
	if err != nil {
		x.failed++
		fmt.Fprintf(x.stderr, "engram: extract: %v\n", err)
		return
	}
	ep, diags, err := extract.Extract(filepath.ToSlash(p), src)
	x.print(diags)
	switch {
	case errors.Is(err, extract.ErrNotSessionLog):
		x.skipped++
		return
	case err != nil:
		x.failed++
		return
	}
	md := ep.Markdown()
	if err := x.check(p, ep, md); err != nil {
		x.failed++
		fmt.Fprintf(x.stderr, "engram: extract: %v\n", err)
		return
	}
	target := filepath.Join(x.out, ep.FileName())
	if err := writeNote(target, md, x.force); err != nil {
		x.failed++
		if errors.Is(err, errExists) {
			x.print([]note.Diagnostic{{Path: filepath.ToSlash(p), Severity: note.Error, Rule: "extract-exists",
				Message: fmt.Sprintf("%s already exists; not overwritten (use --force to replace it)", target)}})
			return
		}
		fmt.Fprintf(x.stderr, "engram: extract: %v\n", err)
		return
	}
	x.written++
	fmt.Fprintf(x.stdout, "wrote %s: %s; decisions %d, events %d, lessons %d (from %s)\n",
		target, ep.Outcome, len(ep.Decisions), len(ep.Events), len(ep.Lessons), p)
}

// check refuses a note that another log of this run already made, and a
// note that would not parse cleanly (which would be a bug of extract).
func (x *extractor) check(p string, ep extract.Episode, md []byte) error {
	key := strings.ToLower(ep.FileName())
	if other, ok := x.made[key]; ok {
		return fmt.Errorf("%s and %s both make %s; %s is not written", other, p, ep.FileName(), p)
	}
	x.made[key] = p
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

func (x *extractor) print(diags []note.Diagnostic) {
	for _, d := range diags {
		if d.Severity > note.Info || x.verbose {
			fmt.Fprintln(x.stderr, d.String())
		}
	}
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
