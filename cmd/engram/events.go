package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/store"
)

// cmdEvents runs engram events SUBCOMMAND.
func cmdEvents(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: events takes a subcommand: similar or add", errUsage)
	}
	switch args[0] {
	case "similar":
		return cmdEventsSimilar(ctx, args[1:], stdout, stderr)
	case "add":
		return cmdEventsAdd(ctx, args[1:], stdout, stderr)
	}
	return fmt.Errorf("%w: events: unknown subcommand %q (want similar or add)", errUsage, args[0])
}

func cmdEventsSimilar(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, q := newQueryFlags("events similar")
	context := fs.String("context", "", `the situation, as a JSON object: '{"service":"payouts","env":"prod"}' (required)`)
	limit := fs.Int("limit", 10, "most events")
	if _, err := parseArgs(fs, args, 0, ""); err != nil {
		return err
	}
	want, err := parseContext(*context)
	if err != nil {
		return err
	}
	if *limit < 1 {
		return fmt.Errorf("%w: events similar: --limit must be at least 1", errUsage)
	}
	snap, err := q.snapshot(ctx, stderr, store.PartEvents)
	if err != nil {
		return err
	}
	return printList(stdout, q, snap, snap.SimilarEvents(want, *limit), "no event within retention shares a context key",
		"SHARED\tKEYS\tWHEN\tWORKFLOW\tTYPE\tID\tCONTEXT", func(m query.EventMatch) string {
			c, _ := json.Marshal(m.Context)
			return fmt.Sprintf("%d\t%d\t%s\t%s\t%s\t%s\t%s", m.Shared, m.SharedKeys, m.Timestamp, m.WorkflowID, m.EventType, m.ID, oneLine(string(c), 60))
		})
}

// parseContext reads --context: a JSON object with at least one key.
func parseContext(s string) (map[string]any, error) {
	if s == "" {
		return nil, fmt.Errorf("%w: events similar needs --context '{\"key\":\"value\"}'", errUsage)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var v, extra any
	if err := dec.Decode(&v); err != nil || dec.Decode(&extra) != io.EOF {
		return nil, fmt.Errorf("%w: events similar: --context is not JSON: %q", errUsage, oneLine(s, 60))
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: events similar: --context must be a JSON object, such as '{\"service\":\"payouts\"}'", errUsage)
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("%w: events similar: --context names no key", errUsage)
	}
	return m, nil
}
