package events

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/note"
)

// DefaultRetentionDays is how long events are kept when engram.toml does
// not say (SPEC §3).
const DefaultRetentionDays = 30

// Cutoff is the oldest time retention keeps: days before ref. An event at
// the cutoff exactly is kept.
func Cutoff(ref time.Time, days int) time.Time {
	return ref.Add(-time.Duration(days) * 24 * time.Hour)
}

// Retain splits events into those within days of ref and those older
// (expired), each in the order given.
func Retain(evs []Execution, ref time.Time, days int) (kept, expired []Execution) {
	cut := Cutoff(ref, days)
	for _, e := range evs {
		if e.Time.Before(cut) {
			expired = append(expired, e)
		} else {
			kept = append(kept, e)
		}
	}
	return kept, expired
}

// ByFile groups events by file, in path order, and their lines in
// ascending order.
func ByFile(evs []Execution) (paths []string, lines map[string][]int) {
	lines = map[string][]int{}
	for _, e := range evs {
		if lines[e.Path] == nil {
			paths = append(paths, e.Path)
		}
		lines[e.Path] = append(lines[e.Path], e.Line)
	}
	sort.Strings(paths)
	for _, p := range paths {
		sort.Ints(lines[p])
	}
	return paths, lines
}

// ExpiredDiagnostics lists the expired events of each file in one info
// diagnostic at its first expired line: the build report (SPEC §3).
func ExpiredDiagnostics(expired []Execution, days int) []note.Diagnostic {
	paths, lines := ByFile(expired)
	var diags note.Diagnostics
	for _, p := range paths {
		ls := lines[p]
		diags.Report(p, ls[0], 1, note.Info, "events-expired", "%s older than %s left out (%s); engram prune deletes expired events from the repository", count(len(ls), "event"), count(days, "day"), Lines(ls))
	}
	return diags
}

// FutureDiagnostics reports the events dated after the reference time,
// once per file: they are kept, but a clock may be wrong.
func FutureDiagnostics(evs []Execution, ref time.Time) []note.Diagnostic {
	var future []Execution
	for _, e := range evs {
		if e.Time.After(ref) {
			future = append(future, e)
		}
	}
	paths, lines := ByFile(future)
	var diags note.Diagnostics
	for _, p := range paths {
		ls := lines[p]
		diags.Report(p, ls[0], 1, note.Info, "events-future", "%s dated after the reference time %s (%s); kept", count(len(ls), "event"), ref.UTC().Format(time.RFC3339), Lines(ls))
	}
	return diags
}

// RepeatedIDs reports an id that an earlier event (in path and line
// order) already has: both are kept, but an id should name one event.
func RepeatedIDs(evs []Execution) []note.Diagnostic {
	first := map[string]*Execution{}
	var diags note.Diagnostics
	for i := range evs {
		e := &evs[i]
		if f, dup := first[e.ID]; dup {
			diags.Report(e.Path, e.Line, 1, note.Warning, "events-repeated-id", "event id %q is already used at %s:%d; both are kept", e.ID, f.Path, f.Line)
			continue
		}
		first[e.ID] = e
	}
	return diags
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Outcome reads an event's data.result as an outcome: success, partial
// or failure. ok is false when there is no result, or it says none of
// these. A result is read as:
//
//   - true or false;
//   - a string, ignoring case and surrounding space: success, succeeded,
//     successful, ok, pass, passed, complete, completed, done, true
//     (success); partial, partially (partial); failure, failed, fail,
//     error, errored, false (failure);
//   - an object: its "success" (true or false), else its "status", else
//     its "outcome", read as above.
func Outcome(result any) (note.Outcome, bool) {
	switch r := result.(type) {
	case bool:
		if r {
			return note.Success, true
		}
		return note.Failure, true
	case string:
		o, ok := outcomeWords[strings.ToLower(strings.TrimSpace(r))]
		return o, ok
	case map[string]any:
		if s, ok := r["success"].(bool); ok {
			return Outcome(s)
		}
		for _, k := range []string{"status", "outcome"} {
			if s, ok := r[k].(string); ok {
				return Outcome(s)
			}
		}
	}
	return "", false
}

// outcomeWords are the words tools write for an outcome.
var outcomeWords = map[string]note.Outcome{
	"success": note.Success, "succeeded": note.Success, "successful": note.Success, "ok": note.Success,
	"pass": note.Success, "passed": note.Success, "complete": note.Success, "completed": note.Success,
	"done": note.Success, "true": note.Success,
	"partial": note.Partial, "partially": note.Partial,
	"failure": note.Failure, "failed": note.Failure, "fail": note.Failure, "error": note.Failure,
	"errored": note.Failure, "false": note.Failure,
}

// RemoveLines returns src without the given lines (1-based, sorted), as
// Parse numbers them, each with its line ending.
func RemoveLines(src []byte, lines []int) []byte {
	out := make([]byte, 0, len(src))
	next := 0
	for line := 1; len(src) > 0; line++ {
		end := len(src)
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			end = i + 1
		}
		for next < len(lines) && lines[next] < line {
			next++
		}
		if next >= len(lines) || lines[next] != line {
			out = append(out, src[:end]...)
		}
		src = src[end:]
	}
	return out
}
