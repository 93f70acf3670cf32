package indexer

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/engramhq/engram/indexer/aiagents/exporter"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/store"
)

// AIAgentsExport is what ExportAIAgents wrote.
type AIAgentsExport struct {
	Episodes, Nodes, Edges, Patterns int
	// LoadErrors counts the repository's error diagnostics: the export
	// leaves out what could not be read.
	LoadErrors int
	// Diagnostics are the export's own (notes it could not carry as
	// they are); the repository's are engram check's.
	Diagnostics []note.Diagnostic
}

// ExportAIAgents loads the repository, as a build does, and writes it
// into dir in the ai-agents format: episodes/*.json and
// causality/causal-graph.json. The diagnostics are returned with an
// error too, when some files were written.
func ExportAIAgents(ctx context.Context, opt Options, dir string) (AIAgentsExport, error) {
	l, err := Load(ctx, opt)
	if err != nil {
		return AIAgentsExport{}, err
	}
	x := l.Export
	in := exporter.Input{Notes: x.Notes, Graph: x.Graph, Updated: x.ReferenceTime}
	for _, m := range x.Meta {
		in.Created = append(in.Created, m.Created)
	}
	res := AIAgentsExport{LoadErrors: note.CountErrors(l.Diagnostics), Nodes: len(x.Graph.Nodes), Edges: len(x.Graph.Edges)}
	for i := range x.Notes {
		if x.Notes[i].Pattern != nil {
			res.Patterns++
		}
	}
	files, diags, err := exporter.Export(in)
	res.Diagnostics = diags
	if err != nil {
		return res, fmt.Errorf("export: %w", err)
	}
	res.Episodes = len(files) - 1 // the last is the graph
	for _, f := range files {
		if err := store.ReplaceFile(filepath.Join(dir, filepath.FromSlash(f.Path)), f.Data); err != nil {
			return res, fmt.Errorf("export: %w", err)
		}
	}
	return res, nil
}
