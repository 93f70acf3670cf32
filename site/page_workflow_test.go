package site

import (
	"testing"

	"github.com/engramhq/engram/indexer/export"
)

// TestWorkflowDocWhens: a workflow page gives its first and last event
// and each event of its timeline in words, each event against the one
// before it, and keeps the exact timestamp for <time datetime>.
func TestWorkflowDocWhens(t *testing.T) {
	w := export.Workflow{
		WorkflowSummary: export.WorkflowSummary{ID: "deploy", Events: 4, First: "2026-01-09T04:00:00Z", Last: "2026-01-10T09:30:00Z"},
		Timeline: []export.WorkflowEvent{
			{ID: "e1", Timestamp: "2026-01-09T04:00:00Z"},
			{ID: "e2", Timestamp: "2026-01-09T04:20:00Z"},
			{ID: "e3", Timestamp: "2026-01-09T04:20:00Z"},
			{ID: "e4", Timestamp: "2026-01-10T09:30:00Z"},
		},
	}
	v := workflowDoc(w)
	if v.FirstWhen.Text != "9 January 2026, 04:00 UTC" || v.FirstWhen.Datetime != w.First {
		t.Errorf("first %+v", v.FirstWhen)
	}
	if v.LastWhen.Text != "10 January 2026, 09:30 UTC" || v.LastWhen.Datetime != w.Last {
		t.Errorf("last %+v", v.LastWhen)
	}
	want := []string{"9 January 2026, 04:00 UTC", "04:20", "", "10 January 2026, 09:30 UTC"}
	for i, e := range v.Timeline {
		if e.When.Text != want[i] || e.When.Datetime != e.Timestamp {
			t.Errorf("event %s: %+v, want text %q", e.ID, e.When, want[i])
		}
	}
}

// TestWorkflowDocOmitted: past maxPageEvents the page keeps the newest
// events, and the first of them is worded in full (not against an event
// the page leaves out).
func TestWorkflowDocOmitted(t *testing.T) {
	w := export.Workflow{WorkflowSummary: export.WorkflowSummary{ID: "big"}}
	for i := 0; i < maxPageEvents+3; i++ {
		w.Timeline = append(w.Timeline, export.WorkflowEvent{ID: "e", Timestamp: "2026-01-09T04:00:00Z"})
	}
	v := workflowDoc(w)
	if v.Omitted != 3 || len(v.Timeline) != maxPageEvents {
		t.Fatalf("omitted %d, shown %d", v.Omitted, len(v.Timeline))
	}
	if v.Timeline[0].When.Text != "9 January 2026, 04:00 UTC" || v.Timeline[1].When.Text != "" {
		t.Errorf("first shown %+v, second %+v", v.Timeline[0].When, v.Timeline[1].When)
	}
}
