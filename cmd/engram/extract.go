package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/write"
)

// cmdExtract turns ai-agents session logs into episode notes:
// engram extract [--repo DIR] [--out DIR] [--force] [--commit] [-v] SESSION.md…
// Every log is tried; one that fails does not stop the others, and the
// command exits 1 when any failed. Logs that are not session logs
// (handoffs, READMEs, empty files) are skipped with a warning. The notes
// are staged (or with --commit committed) as every write.
func cmdExtract(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("extract", flag.ContinueOnError)
	w := newWriteFlags(flags)
	out := flags.String("out", "", "folder for the episode notes, inside --repo (default: episodes under --repo)")
	force := flags.Bool("force", false, "overwrite episode notes that already exist")
	verbose := flags.Bool("v", false, "print info diagnostics too (how each outcome was decided)")
	logs, err := parsePositional(flags, args)
	if err != nil {
		return err
	}
	if len(logs) == 0 {
		return fmt.Errorf("%w: extract takes one or more session logs: engram extract [--out DIR] SESSION.md…", errUsage)
	}
	opt, err := w.options()
	if err != nil {
		return err
	}
	opt.Force = *force
	shown := *out
	if shown == "" {
		shown = filepath.Join(opt.Repo, "episodes")
	}
	x := extractor{repo: opt.Repo, verbose: *verbose, stdout: stdout, stderr: stderr}
	if err := write.Extract(ctx, write.ExtractOptions{WriteOptions: opt, Out: *out}, logs, x.print); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "extracted %d of %d session logs to %s (%d skipped, %d failed)\n", x.written, len(logs), shown, x.skipped, x.failed)
	printWritten(stdout, write.Written{Staged: x.staged, Commit: x.commit})
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

// extractor prints the results of one engram extract run and counts
// them.
type extractor struct {
	repo                     string
	verbose                  bool
	stdout, stderr           io.Writer
	written, skipped, failed int
	staged                   bool
	commit                   string
}

func (x *extractor) print(r write.Extracted) {
	for _, d := range r.Diagnostics {
		if d.Severity > note.Info || x.verbose {
			fmt.Fprintln(x.stderr, d.String())
		}
	}
	switch {
	case r.Skipped:
		x.skipped++
	case r.Failed:
		x.failed++
		if r.Err != nil {
			fmt.Fprintf(x.stderr, "engram: extract: %v\n", r.Err)
		}
	default:
		x.written++
		x.staged, x.commit = r.Staged, r.Commit
		ep := r.Episode
		fmt.Fprintf(x.stdout, "wrote %s: %s; decisions %d, events %d, lessons %d (from %s)\n",
			filepath.Join(x.repo, filepath.FromSlash(r.Target)), ep.Outcome, len(ep.Decisions), len(ep.Events), len(ep.Lessons), r.Log)
	}
}
