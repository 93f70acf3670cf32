package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/mine"
	"github.com/engramhq/engram/indexer/write"
)

// cmdMine is `engram mine`: the pattern candidates the repository's
// episodes support (docs/mining.md), and with --write, the chosen ones
// written as pattern notes.
func cmdMine(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("mine", flag.ContinueOnError)
	w := newWriteFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	limit := fs.Int("limit", 0, "print at most this many candidates (0: all)")
	doWrite := fs.Bool("write", false, "write the candidates named by the arguments as pattern notes")
	ids, err := parseArgs(fs, args, -1, "[--write CANDIDATE-ID ...]")
	if err != nil {
		return err
	}
	if *limit < 0 {
		return fmt.Errorf("%w: mine: --limit %d is negative", errUsage, *limit)
	}
	if len(ids) > 0 && !*doWrite {
		return fmt.Errorf("%w: mine: unexpected argument %q (give --write to write candidates)", errUsage, ids[0])
	}
	opt, err := w.options()
	if err != nil {
		return err
	}
	loaded, err := indexer.Load(ctx, indexer.Options{Repo: opt.Repo, CacheDir: opt.CacheDir})
	if err != nil {
		return fmt.Errorf("mine: %w", err)
	}
	res := loaded.Export.Candidates
	if *doWrite {
		return writeCandidates(ctx, stdout, opt, res, ids)
	}
	shown := res.Candidates
	if *limit > 0 {
		shown = shown[:min(*limit, len(shown))]
	}
	if *asJSON {
		doc := export.CandidatesOf(loaded.Export) // candidates.json's shape
		doc.Items = doc.Items[:len(shown)]
		return writeJSON(stdout, doc)
	}
	printMined(stdout, res, shown)
	return nil
}

// writeCandidates writes the candidates ids names as pattern notes, all
// or none: an unknown id is a usage error before anything is written.
func writeCandidates(ctx context.Context, stdout io.Writer, opt write.WriteOptions, res mine.Result, ids []string) error {
	if len(ids) == 0 {
		return fmt.Errorf("%w: mine --write takes the ids of the candidates to write (engram mine lists them)", errUsage)
	}
	var chosen []mine.Candidate
	for _, id := range ids {
		k := slices.IndexFunc(res.Candidates, func(c mine.Candidate) bool { return c.ID == id })
		if k < 0 {
			return fmt.Errorf("%w: mine --write: no candidate %s (engram mine lists them)", errUsage, id)
		}
		chosen = append(chosen, res.Candidates[k])
	}
	for _, c := range chosen {
		written, err := write.NewPattern(ctx, opt, PatternOf(c))
		if err != nil {
			return fmt.Errorf("mine --write %s: %w", c.ID, err)
		}
		printWritten(stdout, written)
	}
	return nil
}

// PatternOf is the pattern note a candidate becomes: its trigger and
// action, its evidence (the episodes with an outcome: an evidence line
// needs one, and only those count in the candidate's rate), the tag
// mined, and a context that says where it came from and what else was
// tried. Its title is the candidate's id with PATTERN- for CANDIDATE-.
func PatternOf(c mine.Candidate) write.PatternInput {
	in := write.PatternInput{Title: "PATTERN-" + strings.TrimPrefix(c.ID, "CANDIDATE-"), Tags: []string{"mined"}, Trigger: c.Trigger, Action: c.Action}
	for _, e := range c.Choice.Evidence {
		if e.Outcome.Valid() {
			in.Evidence = append(in.Evidence, write.EvidenceInput{Episode: e.Episode, Outcome: string(e.Outcome)})
		}
	}
	in.Context = fmt.Sprintf("Mined by engram mine (%s) from %d episodes in %d sessions whose situation shares the terms %s.",
		c.ID, c.Choice.Occurrences, c.Choice.Sessions, strings.Join(c.Terms, ", "))
	if len(c.Contrasts) > 0 {
		var alts []string
		for _, a := range c.Contrasts {
			alts = append(alts, fmt.Sprintf("%s (%d episodes, success rate %.2f)", a.Action, a.Occurrences, a.SuccessRate))
		}
		in.Context += " Other choices in the same situation: " + strings.Join(alts, "; ") + "."
	}
	return in
}

// printMined lists the candidates, then what was withheld and read.
func printMined(w io.Writer, res mine.Result, shown []mine.Candidate) {
	if len(res.Candidates) == 0 {
		fmt.Fprintln(w, "no pattern candidates")
	}
	for _, c := range shown {
		ch := c.Choice
		fmt.Fprintf(w, "%s\n  %s → %s\n  %d episodes, %d sessions, success rate %.2f, confidence %.2f (terms: %s)\n",
			c.ID, oneLine(c.Trigger, 200), oneLine(c.Action, 200), ch.Occurrences, ch.Sessions, ch.SuccessRate, ch.Confidence, strings.Join(c.Terms, ", "))
		var eps []string
		for _, e := range ch.Evidence {
			eps = append(eps, e.Episode+" ("+orNone(string(e.Outcome))+")")
		}
		fmt.Fprintf(w, "  evidence: %s\n", strings.Join(eps, ", "))
		for _, a := range c.Contrasts {
			fmt.Fprintf(w, "  instead: %s: %d episodes, success rate %.2f\n", oneLine(a.Action, 200), a.Occurrences, a.SuccessRate)
		}
	}
	if len(shown) < len(res.Candidates) {
		fmt.Fprintf(w, "(%d more: --limit 0 shows all)\n", len(res.Candidates)-len(shown))
	}
	fmt.Fprintf(w, "withheld: %s\nread: %s\n", counts(res.Withheld), counts(res.Read))
}

func orNone(s string) string {
	if s == "" {
		return "no outcome"
	}
	return s
}

// counts prints a map of counts in the order of its keys.
func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}
