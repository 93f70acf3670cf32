package query

import (
	"encoding/json"
	"reflect"
	"sort"
	"time"

	"github.com/engramhq/engram/indexer/export"
)

// Event is an execution event within retention that has a context
// object: what engram events similar compares.
type Event struct {
	ID          string         `json:"id"`
	WorkflowID  string         `json:"workflow_id"`
	EventType   string         `json:"event_type"`
	TaskID      string         `json:"task_id,omitempty"`
	Timestamp   string         `json:"timestamp"`
	Context     map[string]any `json:"context"`
	WorkflowURL string         `json:"workflow_url"`
}

// EventMatch is an item of engram events similar: an event, how many of
// the query's context keys it has with an equal value (Shared), and how
// many it has at all (SharedKeys).
type EventMatch struct {
	Event
	Shared     int `json:"shared"`
	SharedKeys int `json:"shared_keys"`
}

// eventsFromSite lists the events of every workflow that have a context.
func eventsFromSite(s *export.Site) []Event {
	out := []Event{}
	for _, w := range s.Workflows {
		for _, e := range w.Timeline {
			c, ok := e.Data["context"].(map[string]any)
			if !ok {
				continue
			}
			out = append(out, Event{ID: e.ID, WorkflowID: e.WorkflowID, EventType: e.EventType, TaskID: e.TaskID,
				Timestamp: e.Timestamp, Context: c, WorkflowURL: w.URL})
		}
	}
	return out
}

// SimilarEvents ranks the events within retention by their context's
// likeness to ctx (SPEC §5, context-aware retrieval): most keys with an
// equal value first, then most keys in common, then newest, then by id.
// Values are equal when they are the same JSON (numbers by value). Events
// that share no key with ctx are left out; at most limit are returned.
func (s *Snapshot) SimilarEvents(ctx map[string]any, limit int) []EventMatch {
	want := make(map[string]any, len(ctx))
	for k, v := range ctx {
		want[k] = jsonValue(v)
	}
	var out []EventMatch
	times := map[string]time.Time{}
	for _, e := range s.Events {
		m := EventMatch{Event: e}
		for k, v := range e.Context {
			if w, ok := want[k]; ok {
				m.SharedKeys++
				if reflect.DeepEqual(w, jsonValue(v)) {
					m.Shared++
				}
			}
		}
		if m.SharedKeys == 0 {
			continue
		}
		times[e.Timestamp], _ = time.Parse(time.RFC3339Nano, e.Timestamp)
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Shared != b.Shared {
			return a.Shared > b.Shared
		}
		if a.SharedKeys != b.SharedKeys {
			return a.SharedKeys > b.SharedKeys
		}
		if ta, tb := times[a.Timestamp], times[b.Timestamp]; !ta.Equal(tb) {
			return ta.After(tb)
		}
		return a.ID < b.ID
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// jsonValue makes JSON values comparable whichever decoder made them:
// numbers become float64, objects and arrays are walked.
func jsonValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	case int:
		return float64(x)
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = jsonValue(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = jsonValue(e)
		}
		return a
	}
	return v
}
