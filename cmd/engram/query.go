package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/config"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/store"
)

// queryFlags are the flags every query command takes.
type queryFlags struct {
	repo, now string
	json      bool
	// base makes the answers' site paths absolute (engram mcp
	// --base-url; query.Snapshot.Rebase).
	base string
}

func newQueryFlags(name string) (*flag.FlagSet, *queryFlags) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	q := &queryFlags{}
	fs.StringVar(&q.repo, "repo", "", "memory repository (default: . or ./content)")
	fs.StringVar(&q.now, "now", "", "reference time (default: the commit time)")
	fs.BoolVar(&q.json, "json", false, "print JSON in the shapes of SPEC §4.0")
	return fs, q
}

// parseArgs parses flags that may come before, between or after exactly
// want positional arguments (any number when want is negative).
func parseArgs(fs *flag.FlagSet, args []string, want int, names string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, fmt.Errorf("%w: %s %s takes:%s", errUsage, fs.Name(), names, flagList(fs))
			}
			return nil, fmt.Errorf("%w: %s: %v", errUsage, fs.Name(), err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if want >= 0 && len(pos) != want {
		if want == 0 {
			return nil, fmt.Errorf("%w: %s: unexpected argument %q", errUsage, fs.Name(), pos[0])
		}
		return nil, fmt.Errorf("%w: %s takes %s, got %d arguments", errUsage, fs.Name(), names, len(pos))
	}
	return pos, nil
}

// snapshot opens the query snapshot of the repository.
func (q *queryFlags) snapshot(ctx context.Context, stderr io.Writer, parts store.Part) (*query.Snapshot, error) {
	ref, err := parseNow(q.now)
	if err != nil {
		return nil, err
	}
	if q.repo == "" {
		q.repo = defaultRepo()
	}
	snap, info, err := indexer.Snapshot(ctx, indexer.Options{Repo: q.repo, Now: ref, CacheDir: os.Getenv(cacheEnv)}, parts)
	if err != nil {
		return nil, err
	}
	if info.Errors > 0 {
		fmt.Fprintf(stderr, "engram: %s has %d error diagnostics; answers leave out what could not be read (see engram check)\n", q.repo, info.Errors)
	}
	if info.CacheErr != nil {
		fmt.Fprintf(stderr, "engram: warning: the query cache could not be written (%v); every query reads the repository again\n", info.CacheErr)
	}
	return snap, nil
}

// lazyGC tunes the garbage collector of a query process: a process that lives
// for tens of milliseconds spends a third of them collecting garbage it
// would free by exiting. The collector runs only as the heap nears 512 MiB
// (a refresh of a large repository gets there). GOGC or GOMEMLIMIT in the
// environment win.
func lazyGC() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(512 << 20)
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func table(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0) }

func cmdEpisodes(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, q := newQueryFlags("episodes")
	outcome := fs.String("outcome", "", note.OutcomeList)
	since := fs.String("since", "", "dated at or after: a duration back from the reference time (7d, 36h, 2w) or a date")
	tag := fs.String("tag", "", "with this tag")
	task := fs.String("task", "", "whose task has every word of this text, in any order")
	if _, err := parseArgs(fs, args, 0, ""); err != nil {
		return err
	}
	if *outcome != "" && !note.Outcome(*outcome).Valid() {
		return fmt.Errorf("%w: episodes: --outcome must be %s, not %q", errUsage, note.OutcomeList, *outcome)
	}
	snap, err := q.snapshot(ctx, stderr, store.PartEpisodes)
	if err != nil {
		return err
	}
	f := query.EpisodeFilter{Outcome: *outcome, Tag: *tag, Task: *task}
	if *since != "" {
		if f.Since, err = query.ParseSince(*since, snap.ReferenceTime); err != nil {
			return fmt.Errorf("%w: episodes: %v", errUsage, err)
		}
	}
	return printList(stdout, q, snap, snap.FindEpisodes(f), "no episodes match", "DATE\tOUTCOME\tEPISODE\tTASK",
		func(e export.EpisodeSummary) string {
			return fmt.Sprintf("%s\t%s\t%s\t%s", day(e.Date), e.Outcome, e.ID, oneLine(e.Task, 70))
		})
}

func cmdPatterns(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, q := newQueryFlags("patterns")
	minSuccess := fs.Float64("min-success", 0.7, "lowest success_rate")
	minOcc := fs.Int("min-occurrences", 3, "fewest occurrences")
	if _, err := parseArgs(fs, args, 0, ""); err != nil {
		return err
	}
	snap, err := q.snapshot(ctx, stderr, store.PartPatterns)
	if err != nil {
		return err
	}
	none := fmt.Sprintf("no pattern has success_rate >= %g over >= %d occurrences (try --min-success 0 --min-occurrences 0)", *minSuccess, *minOcc)
	return printList(stdout, q, snap, snap.BestPatterns(*minSuccess, *minOcc), none, patternHeader, patternRow)
}

func cmdAntipatterns(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, q := newQueryFlags("antipatterns")
	maxSuccess := fs.Float64("max-success", -1, "highest success_rate of an antipattern (default: engram.toml, or 0.3)")
	minOcc := fs.Int("min-occurrences", -1, "fewest occurrences of an antipattern (default: engram.toml, or 2)")
	if _, err := parseArgs(fs, args, 0, ""); err != nil {
		return err
	}
	var th antipatternThresholds
	if *maxSuccess >= 0 {
		th.maxSuccess = maxSuccess
	}
	if *minOcc >= 0 {
		th.minOcc = minOcc
	}
	snap, err := q.snapshot(ctx, stderr, th.parts())
	if err != nil {
		return err
	}
	list, err := th.answer(snap, q.repo)
	if err != nil {
		return err
	}
	return printList(stdout, q, snap, list, "no antipatterns", patternHeader, patternRow)
}

// antipatternThresholds are the thresholds an antipatterns query gives,
// nil when not given; `engram antipatterns` and get_antipatterns answer
// through them alike.
type antipatternThresholds struct {
	maxSuccess *float64
	minOcc     *int
}

// parts is what the answer reads: the build's own list when no threshold
// is given, else the patterns to classify again.
func (th antipatternThresholds) parts() store.Part {
	if th.maxSuccess == nil && th.minOcc == nil {
		return store.PartAntipatterns
	}
	return store.PartPatterns
}

// answer is the build's own classification with the repository's
// thresholds (antipatterns.json), or the patterns classified again with
// the thresholds given and engram.toml's for the other.
func (th antipatternThresholds) answer(snap *query.Snapshot, repo string) ([]export.PatternSummary, error) {
	if th.parts() == store.PartAntipatterns {
		return snap.Antipatterns, nil
	}
	cfg, err := config.Read(repo)
	if err != nil {
		return nil, err
	}
	maxSuccess, minOcc := *cfg.Antipatterns.MaxSuccess, *cfg.Antipatterns.MinOccurrences
	if th.maxSuccess != nil {
		maxSuccess = *th.maxSuccess
	}
	if th.minOcc != nil {
		minOcc = *th.minOcc
	}
	return snap.FindAntipatterns(maxSuccess, minOcc), nil
}

const patternHeader = "RATE\tCONF\tN\tSTATS\tPATTERN\tACTION"

func patternRow(p export.PatternSummary) string {
	return fmt.Sprintf("%s\t%s\t%d\t%s\t%s\t%s", rate(p.SuccessRate), rate(p.Confidence), p.Occurrences, orDash(p.StatsSource), p.ID, oneLine(p.Action, 50))
}

// printList prints a query's items: with --json in the list shape of SPEC
// §4.0; otherwise the message none when there are none, else a table of
// header and one row per item.
func printList[T any](w io.Writer, q *queryFlags, snap *query.Snapshot, items []T, none, header string, row func(T) string) error {
	if q.json {
		return writeJSON(w, query.List(snap, items))
	}
	if len(items) == 0 {
		fmt.Fprintln(w, none)
		return nil
	}
	tw := table(w)
	fmt.Fprintln(tw, header)
	for _, it := range items {
		fmt.Fprintln(tw, row(it))
	}
	return tw.Flush()
}

func cmdPath(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, q := newQueryFlags("path")
	depth := fs.Int("max-depth", 5, "most edges on the path")
	pos, err := parseArgs(fs, args, 2, "FROM TO")
	if err != nil {
		return err
	}
	if *depth < 1 {
		return fmt.Errorf("%w: path: --max-depth must be at least 1", errUsage)
	}
	snap, err := q.snapshot(ctx, stderr, store.PartGraph)
	if err != nil {
		return err
	}
	p, err := snap.StrongestPath(pos[0], pos[1], *depth)
	if err != nil {
		return err
	}
	if q.json {
		return writeJSON(stdout, p)
	}
	fmt.Fprintln(stdout, p.Nodes[0])
	for _, e := range p.Edges {
		fmt.Fprintf(stdout, "  --%s %.2f--> %s\n", e.Type, e.Weight, e.Target)
	}
	fmt.Fprintf(stdout, "strength %.4f over %d edges\n", p.Strength, len(p.Edges))
	return nil
}

func cmdDecisions(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, q := newQueryFlags("decisions")
	pos, err := parseArgs(fs, args, 1, "EPISODE")
	if err != nil {
		return err
	}
	snap, err := q.snapshot(ctx, stderr, store.PartEpisodes)
	if err != nil {
		return err
	}
	d, err := snap.Decisions(pos[0])
	if err != nil {
		return err
	}
	if q.json {
		return writeJSON(stdout, d)
	}
	fmt.Fprintf(stdout, "%s (%s): %d decisions\n", d.Episode, d.Outcome, len(d.Items))
	for _, x := range d.Items {
		fmt.Fprintf(stdout, "\n%s  %s  %s\n", x.ID, orDash(string(x.Type)), x.Title)
		field := func(name, v string) {
			if v != "" {
				fmt.Fprintf(stdout, "    %-9s %s\n", name+":", v)
			}
		}
		field("at", x.Timestamp)
		field("options", strings.Join(x.Options, " | "))
		field("chosen", x.Chosen)
		field("because", x.Rationale)
		field("outcome", string(x.Outcome))
		var effects []string
		for _, l := range x.Effects {
			effects = append(effects, l.Target)
		}
		field("effects", strings.Join(effects, ", "))
	}
	return nil
}

func cmdWhatIf(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, q := newQueryFlags("whatif")
	episode := fs.String("episode", "", "the episode (required)")
	decision := fs.String("decision", "", "the decision id, such as d001 (required)")
	option := fs.String("option", "", "only this option (default: every option not chosen)")
	if _, err := parseArgs(fs, args, 0, ""); err != nil {
		return err
	}
	if *episode == "" || *decision == "" {
		return fmt.Errorf("%w: whatif needs --episode E and --decision D", errUsage)
	}
	snap, err := q.snapshot(ctx, stderr, store.PartEpisodes)
	if err != nil {
		return err
	}
	w, err := snap.WhatIf(*episode, *decision, *option)
	if err != nil {
		return err
	}
	if q.json {
		return writeJSON(stdout, w)
	}
	d := w.Decision
	fmt.Fprintf(stdout, "%s %s (%s): chose %q, outcome %s\n", w.Episode, d.ID, orDash(string(d.Type)), d.Chosen, orDash(string(d.Outcome)))
	if len(w.Items) == 0 {
		fmt.Fprintln(stdout, "no other options are listed for this decision")
		return nil
	}
	for _, a := range w.Items {
		if a.Count == 0 {
			fmt.Fprintf(stdout, "\nwhat if %q: no other %s decision chose it\n", a.Option, orDash(string(d.Type)))
			continue
		}
		fmt.Fprintf(stdout, "\nwhat if %q: chosen in %d other decisions, success rate %s (95%% lower bound %s)\n", a.Option, a.Count, rate(a.SuccessRate), rate(a.Confidence))
		tw := table(stdout)
		for _, p := range a.Episodes {
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\n", day(p.Date), p.Outcome, p.ID, p.Decision)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

func rate(f *float64) string {
	if f == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f", *f)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func day(rfc3339 string) string {
	if len(rfc3339) >= 10 {
		return rfc3339[:10]
	}
	return rfc3339
}

// oneLine keeps the first line of s, at most n runes.
func oneLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func cmdBootstrap(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, q := newQueryFlags("bootstrap")
	budget := fs.Int("budget", 0, "size in tokens (default: engram.toml [bootstrap] budget, or 2000)")
	format := fs.String("format", "md", "md or json")
	if _, err := parseArgs(fs, args, 0, ""); err != nil {
		return err
	}
	if *format != "md" && *format != "json" {
		return fmt.Errorf("%w: bootstrap: --format must be md or json, not %q", errUsage, *format)
	}
	if q.json {
		*format = "json"
	}
	if *budget < 0 {
		return fmt.Errorf("%w: bootstrap: --budget must be a number of tokens above 0", errUsage)
	}
	snap, err := q.snapshot(ctx, stderr, store.PartBootstrap)
	if err != nil {
		return err
	}
	if *budget == 0 {
		cfg, err := config.Read(q.repo)
		if err != nil {
			return err
		}
		*budget = *cfg.Bootstrap.Budget
	}
	js, md, err := snap.FitBootstrap(*budget)
	if err != nil {
		return err
	}
	if *format == "json" {
		_, err = stdout.Write(js)
	} else {
		_, err = stdout.Write(md)
	}
	return err
}
