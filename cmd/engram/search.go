package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/store"
)

// parseWords parses flags before, between or after the positional
// arguments, and returns the arguments joined by spaces: `engram search
// flaky ledger test` is one query. After "--", everything is a word.
func parseWords(fs *flag.FlagSet, args []string, names string) (string, int, error) {
	fs.SetOutput(io.Discard)
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return "", 0, fmt.Errorf("%w: %s %s takes:%s", errUsage, fs.Name(), names, flagList(fs))
			}
			return "", 0, fmt.Errorf("%w: %s: %v", errUsage, fs.Name(), err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			words = append(words, rest...)
			break
		}
		words = append(words, rest[0])
		args = rest[1:]
	}
	return strings.Join(words, " "), len(words), nil
}

func cmdSearch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, q := newQueryFlags("search")
	typ := fs.String("type", "", "only notes of this kind: episode, pattern (antipatterns too) or note")
	limit := fs.Int("limit", 10, "most hits")
	expand := fs.Bool("expand", false, "follow each hit with its causal-graph neighbours")
	text, n, err := parseWords(fs, args, "QUERY")
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w: search takes QUERY", errUsage)
	}
	switch *typ {
	case "", "episode", "pattern", "note":
	default:
		return fmt.Errorf("%w: search: --type must be episode, pattern or note, not %q", errUsage, *typ)
	}
	if *limit < 1 {
		return fmt.Errorf("%w: search: --limit must be at least 1", errUsage)
	}
	parts := store.PartSearch
	if *expand {
		parts |= store.PartGraph
	}
	snap, err := q.snapshot(ctx, stderr, parts)
	if err != nil {
		return err
	}
	defer snap.Close()
	items, err := snap.Search(text, *typ, *limit, *expand)
	if err != nil {
		return err
	}
	return printItems(stdout, q, snap, items, "no notes match")
}

func cmdSimilar(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, q := newQueryFlags("similar")
	episode := fs.String("episode", "", "the episode to compare with, instead of TEXT")
	limit := fs.Int("limit", 5, "most episodes")
	text, n, err := parseWords(fs, args, "(TEXT | --episode E)")
	if err != nil {
		return err
	}
	if (n == 0) == (*episode == "") {
		return fmt.Errorf("%w: similar takes TEXT or --episode E (one of them)", errUsage)
	}
	if *limit < 1 {
		return fmt.Errorf("%w: similar: --limit must be at least 1", errUsage)
	}
	snap, err := q.snapshot(ctx, stderr, store.PartSimilar)
	if err != nil {
		return err
	}
	var items []query.SearchItem
	if *episode != "" {
		items, err = snap.SimilarToEpisode(*episode, *limit)
	} else {
		items, err = snap.SimilarToText(text, *limit)
	}
	if err != nil {
		return err
	}
	return printList(stdout, q, snap, items, "no similar episodes", "SCORE\tOUTCOME\tID\tHEADLINE\tURL", func(it query.SearchItem) string {
		head := it.Headline
		if head == it.ID {
			head = "" // no task: the headline is the id, already printed
		}
		return fmt.Sprintf("%.4f\t%s\t%s\t%s\t%s", it.Score, orDash(it.Outcome), it.ID, orDash(oneLine(head, 70)), orDash(it.URL))
	})
}

func printItems(stdout io.Writer, q *queryFlags, snap *query.Snapshot, items []query.SearchItem, none string) error {
	return printList(stdout, q, snap, items, none, "SCORE\tTYPE\tID\tURL", func(it query.SearchItem) string {
		id := it.ID
		if it.Via != "" {
			id = "  ↳ " + id
		}
		return fmt.Sprintf("%.4f\t%s\t%s\t%s", it.Score, orDash(it.Type), id, orDash(it.URL))
	})
}
