package extract

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	// notWorkRE names the sections of a log that describe the protocol
	// or the repository, not the work: a status or a commit there is not
	// the session's ("Git State: - **Status**: clean", "Starting Commit").
	notWorkRE     = regexp.MustCompile(`(?i)^(git state|branch verification|skill inventory|pr metadata|work blocked until|lint output|final git status|relevant memories|protocol compliance|session start( protocol)?|.*complete all.*)$`)
	statusKeyRE   = regexp.MustCompile(`(?i)^(session |final |overall )?status$`)
	outcomeKeyRE  = regexp.MustCompile(`(?i)^(session |final )?outcome$`)
	laterRE       = regexp.MustCompile(`(?i)\b(follow-?up|next steps?|next session|future|remaining|recommend\w*|to-?do|backlog|optional|enhancements?)\b`)
	sessionEndRE  = regexp.MustCompile(`(?i)session end`)
	pendingMarkRE = regexp.MustCompile(`^[\x{23F3}\x{1F504}]`)
)

// status is one status the log states, and where.
type status struct {
	raw     string
	outcome string // success, partial, failure
	line    int    // index in doc.lines
	head    int    // index of the heading it belongs to, or -1
}

// statuses are the status fields of a log: explicit ones state the
// session's outcome (a Status field in its header, any Outcome field, a
// "### Status: …" heading); the others are the status of one task.
type statuses struct {
	explicit []status
	tasks    []status
	// byHead maps a heading index to the outcome of its task.
	byHead map[int]string
}

func (d *doc) statuses() statuses {
	st := statuses{byHead: map[int]string{}}
	for i, l := range d.lines {
		if l.code || l.table {
			continue
		}
		key, val := l.key, l.val
		if l.level > 0 {
			var ok bool
			if key, val, ok = headField(l.head); !ok {
				continue
			}
		}
		isStatus, isOutcome := statusKeyRE.MatchString(key), outcomeKeyRE.MatchString(key)
		if val == "" || (!isStatus && !isOutcome) {
			continue
		}
		s := status{raw: val, outcome: mapStatus(stripMarks(val)), line: i, head: -1}
		if p := l.path; len(p) > 0 {
			s.head = p[len(p)-1]
		}
		switch {
		case s.outcome == "":
		case isOutcome || l.level > 0 || (d.inHeader(i) && !d.notWork(i)):
			st.explicit = append(st.explicit, s)
		case !d.notWork(i):
			st.tasks = append(st.tasks, s)
			if _, seen := st.byHead[s.head]; !seen && s.head >= 0 {
				st.byHead[s.head] = s.outcome
			}
		}
	}
	return st
}

// outcome decides the session's outcome, strongest evidence first, and
// says how it decided:
//  1. the last explicit status or outcome of the session;
//  2. the statuses of its tasks: all successes make a success, all
//     failures a failure, anything else is partial;
//  3. its task checkboxes ("- [x]", "- [ ]") outside the protocol
//     checklists and the work left for later ("Follow-up Actions",
//     "Next Steps"): all ticked is a success, else partial;
//  4. its status marks (✅, ❌, ⏳) on list items, the same way;
//  5. the MUST rows of its Session End checklist: all ticked is a
//     success, else partial;
//  6. otherwise partial.
func (d *doc) outcome(st statuses) (outcome, why string) {
	if n := len(st.explicit); n > 0 {
		s := st.explicit[n-1]
		return s.outcome, fmt.Sprintf("the log's status %q (line %d)", inline(s.raw, 80), d.lines[s.line].n)
	}
	if len(st.tasks) > 0 {
		var raws []string
		for _, s := range st.tasks {
			raws = append(raws, inline(s.raw, 40))
		}
		if len(raws) == 1 {
			return combine(st.tasks), fmt.Sprintf("the status of its one task (%s)", raws[0])
		}
		return combine(st.tasks), fmt.Sprintf("the statuses of its %d tasks (%s)", len(st.tasks), strings.Join(raws, ", "))
	}
	if done, open, failed := d.marks(checkbox); done+open > 0 {
		return tally(done, open, failed), fmt.Sprintf("its task checkboxes (%d ticked of %d)", done, done+open)
	}
	if done, open, failed := d.marks(emojiMark); done+open+failed > 0 {
		return tally(done, open, failed), fmt.Sprintf("its status marks (%d done, %d open, %d failed)", done, open, failed)
	}
	if done, open := d.endChecklist(); done+open > 0 {
		return tally(done, open, 0), fmt.Sprintf("its Session End checklist (%d of %d MUST rows ticked)", done, done+open)
	}
	return "partial", "nothing: the log states no status, task, checkbox or checklist"
}

func combine(ss []status) string {
	n := map[string]int{}
	for _, s := range ss {
		n[s.outcome]++
	}
	switch len(ss) {
	case n["success"]:
		return "success"
	case n["failure"]:
		return "failure"
	}
	return "partial"
}

func tally(done, open, failed int) string {
	switch {
	case failed > 0 && done == 0 && open == 0:
		return "failure"
	case open == 0 && failed == 0:
		return "success"
	}
	return "partial"
}

// marks counts list items of the work by kind: classify returns 1 for
// done, 2 for open, 3 for failed and 0 for an item that is none.
func (d *doc) marks(classify func(line) int) (done, open, failed int) {
	for _, l := range d.lines {
		if !l.item || l.header || l.proto || l.later {
			continue
		}
		switch classify(l) {
		case 1:
			done++
		case 2:
			open++
		case 3:
			failed++
		}
	}
	return done, open, failed
}

func checkbox(l line) int {
	switch l.check {
	case 2:
		return 1
	case 1:
		return 2
	}
	return 0
}

func emojiMark(l line) int {
	switch {
	case strings.HasPrefix(l.body, "✅"), strings.HasPrefix(l.body, "✔"):
		return 1
	case pendingMarkRE.MatchString(l.body):
		return 2
	case strings.HasPrefix(l.body, "❌"):
		return 3
	}
	return 0
}

// endChecklist counts the ticked and open MUST rows of the Session End
// checklist tables (every row, when the table has no MUST column).
func (d *doc) endChecklist() (done, open int) {
	for i, l := range d.lines {
		if !l.table || !d.under(i, sessionEndRE) {
			continue
		}
		cells := tableCells(l.text)
		if len(cells) < 2 || (strings.HasPrefix(cells[0], "SHOULD")) {
			continue
		}
		row := strings.Join(cells, "|")
		switch {
		case strings.Contains(row, "[x]") || strings.Contains(row, "[X]") || strings.Contains(row, "✅"):
			done++
		case strings.Contains(row, "[ ]"):
			open++
		}
	}
	return done, open
}
