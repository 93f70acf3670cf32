package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/engramhq/engram/indexer"
)

// cmdExport is `engram export --format ai-agents --out DIR`: every
// episode as ai-agents episode JSON, and causality/causal-graph.json.
func cmdExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("export", flag.ContinueOnError)
	repo := flags.String("repo", "", "memory repository (default: . or ./content)")
	format := flags.String("format", "", "output format: ai-agents")
	out := flags.String("out", "", "directory to write episodes/ and causality/ into")
	now := flags.String("now", "", "reference time: the graph's updated (default: the commit time)")
	verbose := flags.Bool("v", false, "print info diagnostics too")
	if err := parseFlags(flags, args); err != nil {
		return err
	}
	switch {
	case *format != "ai-agents":
		return fmt.Errorf("%w: export: --format must be ai-agents, not %q", errUsage, *format)
	case *out == "":
		return fmt.Errorf("%w: export: --out DIR is required", errUsage)
	}
	ref, err := parseNow(*now)
	if err != nil {
		return err
	}
	if *repo == "" {
		*repo = defaultRepo()
	}
	res, err := indexer.ExportAIAgents(ctx, indexer.Options{Repo: *repo, Now: ref}, *out)
	if res.LoadErrors > 0 {
		fmt.Fprintf(stderr, "engram: %s has %d error diagnostics; the export leaves out what could not be read (see engram check)\n", *repo, res.LoadErrors)
	}
	printDiagnostics(stderr, res.Diagnostics, *verbose)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "exported %d episodes and a causal graph (%d nodes, %d edges, %d patterns) from %s to %s\n",
		res.Episodes, res.Nodes, res.Edges, res.Patterns, *repo, *out)
	return nil
}
