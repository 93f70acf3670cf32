package extract

import (
	"regexp"
	"strings"
)

var (
	shaRE        = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
	leadShaRE    = regexp.MustCompile("^`?([0-9a-f]{7,40})`?(?:\\s*[-–—:]\\s*|\\s+|$)")
	commitWordRE = regexp.MustCompile(`(?i)\bcommit(?:ted|s)?\b`)
	commitKeyRE  = regexp.MustCompile(`(?i)^((merge |final |latest )?commits?( sha)?|sha|commits this session)$`)
	notCommitRE  = regexp.MustCompile(`(?i)\b(start(?:ing)?|end(?:ing)?|base|head|parent|previous)\s+(commit|sha)\b`)
	testWordRE   = regexp.MustCompile(`(?i)\b(tests?|tested|testing|test cases?|pester|pytest)\b`)
	testResultRE = regexp.MustCompile(`(?i)\b(pass(?:ed|es|ing)?|fail(?:ed|s|ing)?|ran|green)\b|\d+\s*/\s*\d+\s+(tests?|pass|passed|passing)\b`)
	// An error event is a failure the session met: a ❌, a FAILED, an
	// "Error:" label, or a test, check, build or validation that failed.
	// Descriptions of code ("if validation fails", "now fails
	// validation", "fail-fast") are not errors.
	errorREs = []*regexp.Regexp{
		regexp.MustCompile(`❌|\bFAIL(?:ED|URE|ING)?\b`),
		regexp.MustCompile(`(?i)^(?:[\w/-]+\s+){0,3}(?:errors?|failures?|exceptions?|blockers?)\s*:`),
		regexp.MustCompile(`(?i)\b(encountered an error|error state|errored|crash(?:ed|es)?)\b`),
		regexp.MustCompile(`(?i)\b(tests?|checks?|ci|builds?|validat\w*|jobs?|runs?|workflows?|commands?|hooks?|lint\w*|push|merge|deploy\w*|scripts?|steps?|pipelines?|gates?)\b[^.;:]{0,40}?\b(failed|failing|fails|broke)\b`),
		regexp.MustCompile(`(?i)\b(failed|failing|fails)\s+(?:\S+\s+){0,2}?(tests?|checks?|ci|builds?|validat\w*|jobs?|runs?|workflows?|at|with|due)\b`),
	}
	notErrorRE   = regexp.MustCompile(`(?i)\b(no|0|zero|without|not|never|prevents?|avoids?)\s+(?:\S+\s+){0,2}?(fail\w*|errors?|exceptions?)|\bfail[- ]fast\b|\b(hidden|possible|potential|silent)\s+(errors?|failures?|exceptions?)|\b(now|properly|correctly|explicitly|should|will|would|can|could|may|might|must|if|when|unless)\b[^.;]{0,30}\bfail\w*`)
	fixLeadRE    = regexp.MustCompile(`(?i)^(?:lines? [\d, -]+:\s*)?(fix(?:ed|es)?|resolved|added|add|verified|handles?|handled|catch(?:es)?|prevent\w*|ensure\w*|improve\w*|refine\w*|enhance\w*|clarif\w*|updated?|documented?|changed?|renamed?|removed?|corrected?|warn\w*|provid\w*|test\w*)\b`)
	codeSpanRE   = regexp.MustCompile("`[^`]*`")
	commitHeadRE = regexp.MustCompile(`(?i)^(commits?( ready| created| this session)?|evidence)$`)
	messageKeyRE = regexp.MustCompile(`(?i)^(commit )?message$`)
	emptyParenRE = regexp.MustCompile("\\(\\s*[`,;\\s]*\\)|``")
)

// Event is one entry of the episode's timeline.
type Event struct {
	Type string // commit, error, milestone or test
	Text string
	Line int // where the log states it
}

// events finds the timeline of a log, in file order: commits (once per
// commit), test results, errors and milestones (ticked tasks, ✅ items,
// completed task statuses). The protocol checklists, the header, tables,
// code and lines already taken as decisions or lessons give none.
func (d *doc) events(used map[int]bool) (out []Event, commits int) {
	seen := map[string]bool{}
	for i, l := range d.lines {
		if used[i] || l.code || l.table || d.inHeader(i) || d.notWork(i) {
			continue
		}
		if l.level > 0 {
			if key, val, ok := headField(l.head); ok && mapStatus(stripMarks(val)) != "" {
				out = append(out, d.statusEvent(i, key, val))
			}
			continue
		}
		if l.body == "" {
			continue
		}
		if shas := d.commits(l); len(shas) > 0 {
			for _, sha := range shas {
				if k := sha[:7]; !seen[k] {
					seen[k] = true
					out = append(out, Event{Type: "commit", Text: d.commitText(i, sha), Line: l.n})
				}
			}
			continue
		}
		if e, ok := d.classify(i); ok {
			out = append(out, e)
		}
	}
	return out, len(seen)
}

// classify turns one line into a test, error or milestone event.
func (d *doc) classify(i int) (Event, bool) {
	l := d.lines[i]
	text := inline(l.body, maxText)
	if text == "" {
		return Event{}, false
	}
	if statusKeyRE.MatchString(l.key) || outcomeKeyRE.MatchString(l.key) {
		switch mapStatus(stripMarks(l.val)) {
		case "success":
			return d.statusEvent(i, l.key, l.val), true
		case "failure":
			e := d.statusEvent(i, l.key, l.val)
			e.Type = "error"
			return e, true
		}
		return Event{}, false
	}
	switch {
	case testWordRE.MatchString(codeSpanRE.ReplaceAllString(l.body, "")) && testResultRE.MatchString(l.body):
		return Event{Type: "test", Text: text, Line: l.n}, true
	case emojiMark(l) == 3 || isError(stripMarks(text)):
		return Event{Type: "error", Text: text, Line: l.n}, true
	case l.check == 2 || (l.item && emojiMark(l) == 1):
		return Event{Type: "milestone", Text: inline(stripMarks(text), maxText), Line: l.n}, true
	}
	return Event{}, false
}

func isError(text string) bool {
	plain := codeSpanRE.ReplaceAllString(text, "code")
	if notErrorRE.MatchString(plain) || fixLeadRE.MatchString(plain) {
		return false
	}
	for _, re := range errorREs {
		if re.MatchString(plain) {
			return true
		}
	}
	return false
}

// statusEvent records a task's status: "Task 1: Replace X: Complete".
func (d *doc) statusEvent(i int, key, val string) Event {
	l := d.lines[i]
	what := d.heading(i, nil)
	if l.level > 0 {
		what = ""
		if p := l.path; len(p) > 0 {
			what = d.lines[p[len(p)-1]].head
		}
	}
	text := inline(key+": "+stripMarks(val), maxText)
	if what != "" {
		text = inline(what+": "+stripMarks(val), maxText)
	}
	return Event{Type: "milestone", Text: text, Line: l.n}
}

// commits returns the commit hashes a line names: every hash of a Commit
// field, a hash that starts a list item ("- `fcf87ca` - Merge …"), and
// every hash after the word "commit". A hash needs a digit and a letter,
// so that numbers and words are not taken for one.
func (d *doc) commits(l line) []string {
	if notCommitRE.MatchString(l.key) || notCommitRE.MatchString(l.body) {
		return nil
	}
	from := -1
	switch {
	case commitKeyRE.MatchString(l.key):
		from = 0
	case leadShaRE.MatchString(l.body):
		from = 0
	default:
		if loc := commitWordRE.FindStringIndex(l.body); loc != nil {
			from = loc[1]
		}
	}
	if from < 0 {
		return nil
	}
	var out []string
	for _, m := range shaRE.FindAllString(l.body[from:], -1) {
		if strings.ContainsAny(m, "0123456789") && strings.ContainsAny(m, "abcdef") {
			out = append(out, m)
		}
	}
	return out
}

// commitText is "Commit <hash>: <what the log says of it>": the text
// after a leading hash, the line without its hashes, a Message field on
// the next line, or else the task it belongs to.
func (d *doc) commitText(i int, sha string) string {
	l := d.lines[i]
	desc := l.body
	if m := leadShaRE.FindStringSubmatch(l.body); m != nil && m[1] == sha {
		desc = l.body[len(m[0]):]
	} else if commitKeyRE.MatchString(l.key) {
		desc = l.val
	}
	desc = emptyParenRE.ReplaceAllString(shaRE.ReplaceAllString(desc, ""), "")
	desc = strings.Trim(inline(desc, maxText), "`-–—:,;. ")
	if desc == "" && i+1 < len(d.lines) && messageKeyRE.MatchString(d.lines[i+1].key) {
		desc = strings.Trim(inline(d.lines[i+1].val, maxText), `"`)
	}
	if desc == "" {
		desc = inline(d.heading(i, commitHeadRE), maxText)
	}
	if desc == "" {
		return "Commit " + sha
	}
	return inline("Commit "+sha+": "+desc, maxText)
}
