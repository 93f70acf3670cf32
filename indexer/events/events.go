// Package events reads execution events (SPEC §2.5): the files
// events/**/*.jsonl of a memory repository, one JSON object a line, which
// record what agents did in a workflow (speculations, completed tasks,
// decisions). It decodes each file tolerantly, applies retention, and
// reads an event's result as an outcome. A bad line is a diagnostic at its
// file and line, and the other lines are kept. It reads no repository:
// the indexer hands it each file's bytes.
package events

import (
	"strings"
	"time"
)

// Execution is one execution event: a line of an events file (SPEC §2.5).
// It is not an episode's timeline event (note.Event).
type Execution struct {
	// ID is the line's "id", or, when it has none, "evt-" and the first
	// 12 hex digits of the SHA-256 of the line: stable while the line is.
	ID         string
	WorkflowID string
	Type       string
	TaskID     string
	Time       time.Time // UTC
	// Data is the line's "data" object as decoded, numbers as
	// json.Number (so they are written back exactly); never nil.
	Data map[string]any
	Path string // repository path of the file
	Line int    // 1-based
}

// KnownTypes are the event types of SPEC §2.5. Other types are kept and
// reported (info).
var knownTypes = []string{"speculation_start", "task_complete", "ail_decision", "hil_decision"}

// Known reports whether t is one of KnownTypes.
func Known(t string) bool {
	for _, k := range knownTypes {
		if t == k {
			return true
		}
	}
	return false
}

// IsFile reports whether a repository path is an events file:
// events/**/*.jsonl.
func IsFile(p string) bool {
	return strings.HasPrefix(p, "events/") && strings.HasSuffix(p, ".jsonl")
}

// Context is the event's data.context when it is an object, else nil.
func (e *Execution) Context() map[string]any {
	c, _ := e.Data["context"].(map[string]any)
	return c
}

// Before orders events by time, then file and line: a timeline.
func Before(a, b *Execution) bool {
	if !a.Time.Equal(b.Time) {
		return a.Time.Before(b.Time)
	}
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	return a.Line < b.Line
}
