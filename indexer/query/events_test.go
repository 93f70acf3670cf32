package query

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/engramhq/engram/indexer/bootstrap"
	"github.com/engramhq/engram/indexer/export"
)

func TestSimilarEvents(t *testing.T) {
	ev := func(id, ts, ctx string) export.WorkflowEvent {
		e := export.WorkflowEvent{ID: id, WorkflowID: "w", EventType: "task_complete", Timestamp: ts, Data: map[string]any{}}
		if ctx != "" {
			var c map[string]any
			if err := json.Unmarshal([]byte(ctx), &c); err != nil {
				t.Fatal(err)
			}
			e.Data["context"] = c
		}
		return e
	}
	site := &export.Site{Workflows: []export.Workflow{{
		WorkflowSummary: export.WorkflowSummary{ID: "w", URL: "/workflows/w/"},
		Timeline: []export.WorkflowEvent{
			ev("two-equal-old", "2026-08-01T00:00:00Z", `{"service":"api","env":"prod"}`),
			ev("two-equal-new", "2026-08-02T00:00:00Z", `{"service":"api","env":"prod","extra":1}`),
			ev("one-equal-two-keys", "2026-08-09T00:00:00Z", `{"service":"api","env":"staging"}`),
			ev("one-equal-one-key", "2026-08-09T00:00:00Z", `{"service":"api"}`),
			ev("b-tie", "2026-08-05T00:00:00.5Z", `{"service":"web","retries":3}`),
			ev("a-tie", "2026-08-05T00:00:00.5Z", `{"service":"web","retries":3.0}`),
			ev("no-shared-key", "2026-08-09T00:00:00Z", `{"region":"eu"}`),
			ev("no-context", "2026-08-09T00:00:00Z", ``),
		},
	}}}
	snap := FromSite(site, bootstrap.Candidates{})
	if len(snap.Events) != 7 {
		t.Fatalf("%d events with a context, want 7", len(snap.Events))
	}
	// Numbers compare by value: 3 (json.Number, as --context reads it) equals 3.0.
	query := map[string]any{"service": "api", "env": "prod", "retries": json.Number("3")}
	var got []string
	for _, m := range snap.SimilarEvents(query, 10) {
		got = append(got, m.ID)
		if m.WorkflowURL != "/workflows/w/" || m.Context == nil {
			t.Errorf("match %+v", m)
		}
	}
	want := []string{"two-equal-new", "two-equal-old", "one-equal-two-keys", "a-tie", "b-tie", "one-equal-one-key"}
	if !slices.Equal(got, want) {
		t.Errorf("ranked %v\nwant   %v", got, want)
	}
	first := snap.SimilarEvents(query, 1)
	if len(first) != 1 || first[0].Shared != 2 || first[0].SharedKeys != 2 {
		t.Errorf("limit 1: %+v", first)
	}
}
