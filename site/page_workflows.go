package site

import (
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/routes"
)

// workflowsPage is the table of workflows.
type workflowsPage struct {
	Workflows     []workflowView `json:"workflows"`
	RetentionDays int            `json:"retention_days"`
}

func workflowsPages(in input) []page {
	s := in.s
	return []page{{path: "workflows/_index.md", api: routes.Workflows, title: "Workflows",
		params: workflowsPage{Workflows: workflowSummaries(s), RetentionDays: s.RetentionDays}}}
}

func workflowSummaries(s *export.Site) []workflowView {
	out := []workflowView{}
	for _, w := range s.Workflows {
		out = append(out, workflowView{WorkflowSummary: w.WorkflowSummary, Counts: typeCounts(w.Counts)})
	}
	return out
}
