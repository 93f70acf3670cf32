package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/write"
)

// stdin is what --json - reads; tests replace it.
var stdin io.Reader = os.Stdin

// writeFlags are the flags every write command takes.
type writeFlags struct {
	repo   *string
	commit *bool
	now    *string
}

func newWriteFlags(fs *flag.FlagSet) writeFlags {
	return writeFlags{
		repo:   fs.String("repo", "", "memory repository (default: . or ./content)"),
		commit: fs.Bool("commit", false, "commit exactly the files written (without it they are staged)"),
		now:    fs.String("now", "", "the time written (dates, feedback, commit), instead of the clock"),
	}
}

func (w writeFlags) options() (write.WriteOptions, error) {
	if *w.repo == "" {
		*w.repo = defaultRepo()
	}
	opt := write.WriteOptions{Repo: *w.repo, Commit: *w.commit, CacheDir: os.Getenv(cacheEnv)}
	now, err := parseNow(*w.now)
	if now != nil {
		opt.Now = *now
	}
	return opt, err
}

// printWritten says what a write did.
func printWritten(stdout io.Writer, w write.Written) {
	for _, p := range w.Paths {
		fmt.Fprintln(stdout, "wrote", p)
	}
	switch {
	case w.Commit != "":
		fmt.Fprintln(stdout, "committed", w.Commit)
	case w.Staged:
		fmt.Fprintln(stdout, "staged (not committed)")
	}
}

// cmdNew is `engram new episode|pattern`.
func cmdNew(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("new", flag.ContinueOnError)
	w := newWriteFlags(fs)
	title := fs.String("title", "", "the note's title: its id, and its file name (a free-text title's file is its slug)")
	jsonFile := fs.String("json", "", "read the note from this JSON file, or - for stdin")
	force := fs.Bool("force", false, "replace a note that exists")
	task := fs.String("task", "", "episode: what the session set out to do")
	outcome := fs.String("outcome", "", "episode: success, partial or failure")
	tags := fs.String("tags", "", "comma-separated tags")
	trigger := fs.String("trigger", "", "pattern: when it applies")
	action := fs.String("action", "", "pattern: what to do")
	rate := fs.String("success-rate", "", "pattern: declared success rate, 0..1")
	pos, err := parseArgs(fs, args, 1, "episode|pattern")
	if err != nil {
		return err
	}
	opt, err := w.options()
	if err != nil {
		return err
	}
	opt.Force = *force
	var res write.Written
	switch pos[0] {
	case "episode":
		in := write.EpisodeInput{Task: *task, Outcome: *outcome, Tags: splitTags(*tags)}
		if err := readJSON(*jsonFile, &in); err != nil {
			return err
		}
		override(&in.Title, *title)
		override(&in.Task, *task)
		override(&in.Outcome, *outcome)
		res, err = write.NewEpisode(ctx, opt, in)
	case "pattern":
		in := write.PatternInput{Tags: splitTags(*tags)}
		if err := readJSON(*jsonFile, &in); err != nil {
			return err
		}
		override(&in.Title, *title)
		override(&in.Trigger, *trigger)
		override(&in.Action, *action)
		if *rate != "" {
			var r float64
			if _, err := fmt.Sscan(*rate, &r); err != nil {
				return fmt.Errorf("%w: new pattern: --success-rate %q is not a number", errUsage, *rate)
			}
			in.SuccessRate = &r
		}
		res, err = write.NewPattern(ctx, opt, in)
	default:
		return fmt.Errorf("%w: new takes episode or pattern, not %q", errUsage, pos[0])
	}
	if err != nil {
		return fmt.Errorf("new %s: %w", pos[0], err)
	}
	printWritten(stdout, res)
	return nil
}

func override(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

func splitTags(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// readInput reads --json's file or stdin, at most limit bytes.
func readInput(name string, limit int) ([]byte, error) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > limit {
		return nil, fmt.Errorf("the input is over the limit of %d bytes: shorten it", limit)
	}
	return data, nil
}

// readJSON decodes --json into v; unknown keys are refused, naming them,
// so that a misspelt field is not silently dropped.
func readJSON(name string, v any) error {
	if name == "" {
		return nil
	}
	data, err := readInput(name, parse.MaxNoteBytes)
	if err != nil {
		return fmt.Errorf("--json: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("--json: %v", err)
	}
	return nil
}
