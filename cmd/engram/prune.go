package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/events"
	"github.com/engramhq/engram/indexer/source"
)

func cmdPrune(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("prune", flag.ContinueOnError)
	repo := fs.String("repo", "", "memory repository (default: . or ./content)")
	now := fs.String("now", "", "reference time (default: the commit time)")
	apply := fs.Bool("apply", false, "delete the expired events and commit the change (default: only list them)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ref, err := parseNow(*now)
	if err != nil {
		return err
	}
	if *repo == "" {
		*repo = defaultRepo()
	}
	res, err := indexer.Prune(ctx, indexer.Options{Repo: *repo, Now: ref}, indexer.PruneOptions{Apply: *apply, When: time.Now()})
	if res != nil && (err == nil || !*apply) {
		printPrune(stdout, res, *apply)
	}
	switch {
	case errors.Is(err, source.ErrNotGit):
		return fmt.Errorf("prune: refusing to delete events: %s is not in a git repository with commits, so the change could not be committed (run without --apply to list the expired events)", *repo)
	case errors.Is(err, source.ErrUncommitted):
		return fmt.Errorf("prune: refusing to delete events: %v", err)
	}
	return err
}

func printPrune(w io.Writer, res *indexer.PruneResult, apply bool) {
	if res.Expired == 0 {
		fmt.Fprintf(w, "no events older than %d days before %s: nothing to prune\n", res.RetentionDays, res.ReferenceTime.UTC().Format(time.RFC3339))
		return
	}
	verb := "would be removed (--apply removes and commits)"
	if apply {
		verb = "removed"
	}
	what := fmt.Sprintf("%d events", res.Expired)
	if res.Expired == 1 {
		what = "1 event"
	}
	fmt.Fprintf(w, "%s older than %d days before %s %s:\n", what, res.RetentionDays, res.ReferenceTime.UTC().Format(time.RFC3339), verb)
	for _, f := range res.Files {
		fmt.Fprintf(w, "  %s: %s", f.Path, events.Lines(f.Lines))
		if f.Deleted {
			fmt.Fprint(w, " (file deleted: nothing else was left)")
		}
		fmt.Fprintln(w)
	}
	if res.Commit != "" {
		fmt.Fprintf(w, "committed %s\n", res.Commit[:12])
	}
}
