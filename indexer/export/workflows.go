package export

import (
	"sort"
	"time"

	"github.com/engramhq/engram/indexer/events"
	"github.com/engramhq/engram/indexer/routes"
)

// WorkflowSummary is an item of workflows.json: the execution events of
// one workflow within retention (SPEC §2.5, §4.0).
type WorkflowSummary struct {
	ID string `json:"id"`
	// Events is how many events the workflow has within retention.
	Events int    `json:"events"`
	First  string `json:"first"`
	Last   string `json:"last"`
	// Counts are the events by event_type.
	Counts map[string]int `json:"counts"`
	// SuccessRatio is the mean outcome of the events whose data.result
	// reads as one (success 1, partial 0.5, failure 0; see
	// events.Outcome); null when none does. Results is how many do.
	SuccessRatio *float64 `json:"success_ratio"`
	Results      int      `json:"results"`
	URL          string   `json:"url"`
	JSONURL      string   `json:"json_url"`
}

// Workflow is workflows/<slug>.json: the summary and the timeline. It
// does not name the reference time, which moves with every push (issue
// 30, decision 3): workflows.json does.
type Workflow struct {
	WorkflowSummary
	// RetentionDays: events older than this before the reference time
	// are left out.
	RetentionDays int `json:"retention_days"`
	// Tasks are the distinct task_id values, sorted.
	Tasks    []string        `json:"tasks"`
	Timeline []WorkflowEvent `json:"timeline"` // oldest first
}

// WorkflowEvent is one event of a workflow's timeline.
type WorkflowEvent struct {
	ID         string `json:"id"`
	WorkflowID string `json:"workflow_id"`
	EventType  string `json:"event_type"`
	// UnknownType: the event_type is not one of SPEC §2.5's.
	UnknownType bool   `json:"unknown_type,omitempty"`
	TaskID      string `json:"task_id,omitempty"`
	Timestamp   string `json:"timestamp"`
	// Data is the line's data object as written.
	Data map[string]any `json:"data"`
	// Outcome is data.result read as success, partial or failure.
	Outcome string      `json:"outcome,omitempty"`
	Source  EventSource `json:"source"`
}

// EventSource is the file and line an event was read from.
type EventSource struct {
	Path string `json:"path"`
	Line int    `json:"line"`
}

// eventTimeFormat keeps an event's fraction of a second: events come
// milliseconds apart.
const eventTimeFormat = "2006-01-02T15:04:05.999999999Z07:00"

// EventTime writes an event time as the output does.
func eventTime(t time.Time) string { return t.UTC().Format(eventTimeFormat) }

// workflows groups the events (oldest first) by workflow: most recently
// active first, then by id.
func (x *exporter) workflows() []Workflow {
	byID := map[string][]events.Execution{}
	var ids []string
	for _, e := range x.in.Events {
		if byID[e.WorkflowID] == nil {
			ids = append(ids, e.WorkflowID)
		}
		byID[e.WorkflowID] = append(byID[e.WorkflowID], e)
	}
	sort.Strings(ids)
	slugs := map[string]bool{}
	out := make([]Workflow, 0, len(ids))
	last := map[string]time.Time{}
	for _, id := range ids {
		slug := Slug(id)
		if slugs[slug] {
			// Workflow ids that differ only by case share a slug; ids
			// are sorted, so the same one always gets the hash.
			slug += "-" + shortHash(id)
		}
		slugs[slug] = true
		out = append(out, x.workflow(id, slug, byID[id]))
		last[id] = byID[id][len(byID[id])-1].Time
	}
	sort.SliceStable(out, func(i, j int) bool { return last[out[i].ID].After(last[out[j].ID]) })
	return out
}

func (x *exporter) workflow(id, slug string, evs []events.Execution) Workflow {
	sort.SliceStable(evs, func(i, j int) bool { return events.Before(&evs[i], &evs[j]) })
	w := Workflow{
		WorkflowSummary: WorkflowSummary{
			ID: id, Events: len(evs), First: eventTime(evs[0].Time), Last: eventTime(evs[len(evs)-1].Time),
			Counts: map[string]int{}, URL: x.in.BaseURL + routes.Page(routes.WorkflowFolder, slug), JSONURL: x.in.BaseURL + routes.Document(routes.WorkflowFolder, slug),
		},
		RetentionDays: x.in.RetentionDays,
		Tasks:         []string{}, Timeline: make([]WorkflowEvent, 0, len(evs)),
	}
	tasks := map[string]bool{}
	sum := 0.0
	for _, e := range evs {
		w.Counts[e.Type]++
		if e.TaskID != "" && !tasks[e.TaskID] {
			tasks[e.TaskID] = true
			w.Tasks = append(w.Tasks, e.TaskID)
		}
		ev := WorkflowEvent{ID: e.ID, WorkflowID: e.WorkflowID, EventType: e.Type, UnknownType: !events.Known(e.Type), TaskID: e.TaskID,
			Timestamp: eventTime(e.Time), Data: e.Data, Source: EventSource{Path: e.Path, Line: e.Line}}
		if o, ok := events.Outcome(e.Data["result"]); ok {
			v, _ := o.Value()
			ev.Outcome = string(o)
			sum += v
			w.Results++
		}
		w.Timeline = append(w.Timeline, ev)
	}
	sort.Strings(w.Tasks)
	if w.Results > 0 {
		r := round(sum / float64(w.Results))
		w.SuccessRatio = &r
	}
	return w
}
