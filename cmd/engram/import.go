package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/engramhq/engram/indexer"
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
	if *repo == "" {
		*repo = defaultRepo()
	}
	res, err := indexer.ImportAIAgents(dir, *repo, *force)
	printDiagnostics(stderr, res.Diagnostics, *verbose)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %d episodes and %d patterns from %s into %s: %d notes written, %d kept as they were\n",
		res.Episodes, res.Patterns, dir, *repo, res.Written, res.Kept)
	if res.Skipped > 0 {
		return fmt.Errorf("import: %d episode files or pattern rows could not be imported (see the errors above)", res.Skipped)
	}
	return nil
}
