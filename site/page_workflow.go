package site

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/engramhq/engram/indexer/export"
)

// workflowPage is a workflow's page: its summary and timeline.
type workflowPage struct {
	Doc workflowView `json:"doc"`
}

func workflowPages(in input) []page {
	var ps []page
	for _, w := range in.s.Workflows {
		ps = append(ps, page{path: "workflows/" + slug(w.URL) + ".md", api: apiPath(w.JSONURL, in.s.BaseURL),
			title: w.ID, date: w.First, lastmod: w.Last, params: workflowPage{Doc: workflowDoc(w)}})
	}
	return ps
}

// workflowView is a workflow as its page shows it. Hugo lower-cases the
// keys of maps in front matter, so event types and data keys, which are
// the user's, travel as lists and JSON text instead.
type workflowView struct {
	export.WorkflowSummary
	Counts        []typeCount `json:"counts"`
	Tasks         []string    `json:"tasks"`
	RetentionDays int         `json:"retention_days"`
	// FirstWhen and LastWhen are First and Last in words.
	FirstWhen when        `json:"first_when"`
	LastWhen  when        `json:"last_when"`
	Timeline  []eventView `json:"timeline,omitempty"`
	// Omitted counts the older events the page leaves to the JSON.
	Omitted int `json:"omitted"`
}

// maxPageEvents caps a workflow page's timeline: Hugo decodes every byte
// of a page's front matter, and the JSON file has the whole timeline.
const maxPageEvents = 500

type typeCount struct {
	Type  string `json:"type"`
	Count int    `json:"count"`
}

type eventView struct {
	ID          string `json:"id"`
	EventType   string `json:"event_type"`
	UnknownType bool   `json:"unknown_type"`
	TaskID      string `json:"task_id"`
	Timestamp   string `json:"timestamp"`
	// When is the timestamp in words, against the event before it.
	When    when        `json:"when"`
	Outcome string      `json:"outcome"`
	Data    []dataField `json:"data"`
	Source  string      `json:"source"`
}

// dataField is one key of an event's data, its value as compact JSON.
type dataField struct {
	Key  string `json:"key"`
	JSON string `json:"json"`
}

func workflowDoc(w export.Workflow) workflowView {
	v := workflowView{WorkflowSummary: w.WorkflowSummary, Counts: typeCounts(w.Counts), Tasks: w.Tasks,
		RetentionDays: w.RetentionDays, Timeline: []eventView{},
		FirstWhen: whenOf(w.First, ""), LastWhen: whenOf(w.Last, "")}
	timeline := w.Timeline
	if len(timeline) > maxPageEvents {
		v.Omitted = len(timeline) - maxPageEvents
		timeline = timeline[v.Omitted:]
	}
	stamps := make([]string, len(timeline))
	for i, e := range timeline {
		stamps[i] = e.Timestamp
	}
	words := whens(stamps)
	for i, e := range timeline {
		v.Timeline = append(v.Timeline, eventView{ID: e.ID, EventType: e.EventType, UnknownType: e.UnknownType, TaskID: e.TaskID,
			Timestamp: e.Timestamp, When: words[i], Outcome: e.Outcome, Data: dataFields(e.Data), Source: fmt.Sprintf("%s:%d", e.Source.Path, e.Source.Line)})
	}
	return v
}

// typeCounts lists counts by type, most frequent first, then by type.
func typeCounts(m map[string]int) []typeCount {
	out := []typeCount{}
	for t, n := range m {
		out = append(out, typeCount{Type: t, Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Count > out[j].Count || out[i].Count == out[j].Count && out[i].Type < out[j].Type
	})
	return out
}

// dataFields lists data's keys: SPEC §2.5's four first, in its order,
// then the others sorted.
func dataFields(data map[string]any) []dataField {
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	rank := map[string]int{"context": 1, "prediction": 2, "result": 3, "decision": 4}
	sort.Slice(keys, func(i, j int) bool {
		ri, rj := rank[keys[i]], rank[keys[j]]
		if ri == 0 {
			ri = 5
		}
		if rj == 0 {
			rj = 5
		}
		return ri < rj || ri == rj && keys[i] < keys[j]
	})
	out := make([]dataField, 0, len(keys))
	for _, k := range keys {
		js, err := json.Marshal(data[k])
		if err != nil {
			js = []byte("?")
		}
		out = append(out, dataField{Key: k, JSON: string(js)})
	}
	return out
}
