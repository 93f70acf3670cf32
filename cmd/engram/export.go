package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
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
	l, err := indexer.Load(ctx, indexer.Options{Repo: *repo, Now: ref})
	if err != nil {
		return err
	}
	if n := note.CountErrors(l.Diagnostics); n > 0 {
		fmt.Fprintf(stderr, "engram: %s has %d error diagnostics; the export leaves out what could not be read (see engram check)\n", *repo, n)
	}
	in := exportInput(l.Export)
	files, diags, err := aiagents.Export(in)
	printDiagnostics(stderr, diags, *verbose)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	for _, f := range files {
		if err := replaceFile(filepath.Join(*out, filepath.FromSlash(f.Path)), f.Data); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	fmt.Fprintf(stdout, "exported %d episodes and a causal graph (%d nodes, %d edges, %d patterns) from %s to %s\n",
		len(files)-1, len(in.Nodes), len(in.Edges), countPatterns(in.Notes), *repo, *out)
	return nil
}

// exportInput hands the loaded notes and graph to the ai-agents writer in
// its plain types.
func exportInput(x export.Input) aiagents.Input {
	in := aiagents.Input{Notes: x.Notes, Updated: x.ReferenceTime}
	for _, m := range x.Meta {
		in.Created = append(in.Created, m.Created)
	}
	for _, n := range x.Graph.Nodes {
		in.Nodes = append(in.Nodes, aiagents.Node{ID: n.ID, Type: n.Type, Label: n.Label, Note: n.Note})
	}
	for _, e := range x.Graph.Edges {
		in.Edges = append(in.Edges, aiagents.Edge{Source: e.Source, Target: e.Target, Type: e.Type, Weight: e.Weight, EvidenceCount: e.EvidenceCount})
	}
	for _, s := range x.Graph.Stats {
		st := aiagents.Stats{Source: s.Source, SuccessRate: s.SuccessRate, Occurrences: s.Occurrences}
		for _, ev := range s.Evidence {
			st.Evidence = append(st.Evidence, aiagents.EvidenceRef{ID: ev.ID, Outcome: ev.Outcome})
		}
		in.Stats = append(in.Stats, st)
	}
	return in
}

func countPatterns(notes []note.Note) int {
	n := 0
	for i := range notes {
		if notes[i].Pattern != nil {
			n++
		}
	}
	return n
}
