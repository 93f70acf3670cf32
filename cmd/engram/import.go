package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/engramhq/engram/indexer/write"
)

// cmdImport is `engram import ai-agents DIR`: ai-agents episode JSON and
// causal-graph patterns → markdown notes in --repo, staged (or with
// --commit committed) as every write.
func cmdImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("import", flag.ContinueOnError)
	w := newWriteFlags(flags)
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
	opt, err := w.options()
	if err != nil {
		return err
	}
	opt.Force = *force
	res, err := write.ImportAIAgents(ctx, opt, dir)
	printDiagnostics(stderr, res.Diagnostics, *verbose)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %d episodes and %d patterns from %s into %s: %d notes written, %d kept as they were\n",
		res.Episodes, res.Patterns, dir, opt.Repo, res.Written, res.Kept)
	printWritten(stdout, write.Written{Staged: res.Staged, Commit: res.Commit})
	if res.Skipped > 0 {
		return fmt.Errorf("import: %d episode files or pattern rows could not be imported (see the errors above)", res.Skipped)
	}
	return nil
}
