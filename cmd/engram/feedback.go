package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/engramhq/engram/indexer/write"
)

// cmdFeedback is `engram feedback echo|fizzle NOTE`.
func cmdFeedback(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("feedback", flag.ContinueOnError)
	w := newWriteFlags(fs)
	session := fs.String("session", "", "the session that used or ignored the note")
	pos, err := parseArgs(fs, args, 2, "echo|fizzle NOTE")
	if err != nil {
		return err
	}
	if pos[0] != "echo" && pos[0] != "fizzle" {
		return fmt.Errorf("%w: feedback takes echo or fizzle, not %q", errUsage, pos[0])
	}
	opt, err := w.options()
	if err != nil {
		return err
	}
	res, err := write.RecordFeedback(ctx, opt, write.Feedback{Note: pos[1], Kind: pos[0], Session: *session})
	if err != nil {
		return fmt.Errorf("feedback: %w", err)
	}
	printWritten(stdout, res)
	return nil
}

// cmdEventsAdd is `engram events add [--json FILE|-]`.
func cmdEventsAdd(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("events add", flag.ContinueOnError)
	w := newWriteFlags(fs)
	jsonFile := fs.String("json", "-", "JSON lines (or a JSON array) of events, from this file or - for stdin")
	if _, err := parseArgs(fs, args, 0, ""); err != nil {
		return err
	}
	data, err := readInput(*jsonFile, 8<<20)
	if err != nil {
		return fmt.Errorf("events add: --json: %w", err)
	}
	opt, err := w.options()
	if err != nil {
		return err
	}
	res, n, err := write.AddEvents(ctx, opt, data)
	if err != nil {
		return fmt.Errorf("events add: %w", err)
	}
	fmt.Fprintf(stdout, "added %d events\n", n)
	printWritten(stdout, res)
	return nil
}

// cmdLink is `engram link EPISODE CONCEPT`.
func cmdLink(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("link", flag.ContinueOnError)
	w := newWriteFlags(fs)
	pos, err := parseArgs(fs, args, 2, "EPISODE CONCEPT")
	if err != nil {
		return err
	}
	opt, err := w.options()
	if err != nil {
		return err
	}
	res, err := write.LinkEpisodeToConcept(ctx, opt, pos[0], pos[1])
	if err != nil {
		return fmt.Errorf("link: %w", err)
	}
	if len(res.Paths) == 0 {
		fmt.Fprintf(stdout, "%s and %s are linked already\n", pos[0], pos[1])
	}
	printWritten(stdout, res)
	return nil
}

// cmdThread is `engram thread status THREAD pending|processing|completed`.
func cmdThread(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("thread", flag.ContinueOnError)
	w := newWriteFlags(fs)
	pos, err := parseArgs(fs, args, 3, "status THREAD pending|processing|completed")
	if err != nil {
		return err
	}
	if pos[0] != "status" {
		return fmt.Errorf("%w: thread takes the subcommand status, not %q", errUsage, pos[0])
	}
	opt, err := w.options()
	if err != nil {
		return err
	}
	res, err := write.MarkThreadStatus(ctx, opt, pos[1], pos[2])
	if err != nil {
		return fmt.Errorf("thread status: %w", err)
	}
	if len(res.Paths) == 0 {
		fmt.Fprintf(stdout, "%s is %s already\n", pos[1], pos[2])
	}
	printWritten(stdout, res)
	return nil
}
