// Package extract turns the markdown session logs of rjmurillo/ai-agents
// (.agents/sessions/*.md) into engram episode notes (SPEC §2.1): one log
// in, one Episode and its diagnostics out. It reads what a log states:
// its date, status, objective, decisions, commits, test results, errors,
// milestones and lessons; docs/extract.md says how, and where it differs
// from ai-agents' own extractor. It never fails on what a log contains:
// a file that is not a session log is skipped with ErrNotSessionLog, one
// that cannot be read as one is refused with ErrRefused, and the reason is
// in the diagnostics either way.
package extract

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/note"
)

// MaxLogBytes is the largest session log read; real ones are under 30 KB.
const MaxLogBytes = 8 << 20

var (
	// ErrNotSessionLog means the file is not a session log (a handoff,
	// a README, an empty file): skipped, not failed.
	ErrNotSessionLog = errors.New("not a session log")
	// ErrRefused means the file cannot be made into an episode (binary,
	// too large, no date anywhere).
	ErrRefused = errors.New("cannot extract an episode")
)

// Episode is an episode note extracted from one session log.
type Episode struct {
	Title   string // EPISODE-2026-01-03-session-356
	Session string // 2026-01-03-session-356, as ai-agents names the episode
	Date    string // YYYY-MM-DD
	Outcome string // success, partial or failure
	Task    string
	Tags    []string
	// DurationMinutes is the log's Duration field; 0 when it has none.
	DurationMinutes float64
	Metrics         Metrics
	Context         string // markdown of the Context section
	Decisions       []Decision
	Events          []Event
	Lessons         []Lesson
	Source          string // the log's file name
}

// Metrics are what a log lets one count; ai-agents' tool_calls and
// recoveries are not in a log, so they are left out rather than zero.
type Metrics struct {
	Commits      int // distinct commits named
	Errors       int // error events
	FilesChanged int // files listed as changed
}

var (
	handoffStemRE = regexp.MustCompile(`(?i)(^|[-_.])hand-?offs?([-_.]|$)`)
	handoffH1RE   = regexp.MustCompile(`(?i)^(\S+\s+){0,2}hand-?offs?\b`)
	sessionWordRE = regexp.MustCompile(`(?i)\bsession`)
	sessionHeadRE = regexp.MustCompile(`(?i)^session (info|information|start|end|log|context|summary|objective)`)
	contextHeadRE = regexp.MustCompile(`(?i)^(session )?(context|background|summary|session summary|executive summary|problem statement|overview)$`)
	prRE          = regexp.MustCompile(`(?i)\bPR\s*#?\s*(\d+)\b|^#?(\d+)$`)
)

// Extract reads one session log. path names the log in diagnostics; its
// file name gives the episode's title when it starts with a date.
func Extract(p string, src []byte) (Episode, []note.Diagnostic, error) {
	x := &extraction{path: p}
	text, err := x.clean(src)
	if err != nil {
		return Episode{}, x.diags, err
	}
	d := newDoc(text)
	h1, h1Line := d.title()
	x.at = h1Line
	if err := x.kind(d, h1); err != nil {
		return Episode{}, x.diags, err
	}
	hdr := d.header()
	ep := Episode{Source: path.Base(p)}
	if err := x.identify(&ep, hdr, h1); err != nil {
		return Episode{}, x.diags, err
	}
	st := d.statuses()
	var why string
	ep.Outcome, why = d.outcome(st)
	x.diags.Report(x.path, h1Line, 1, note.Info, "extract-outcome", "outcome %s, from %s", ep.Outcome, why)
	if ep.Task = d.task(hdr, h1); ep.Task == "" {
		ep.Task = "Session " + ep.Session
		x.diags.Report(x.path, h1Line, 1, note.Warning, "extract-no-task", "the log states no objective, task or title; the task is %q", ep.Task)
	}
	used := map[int]bool{}
	ep.Decisions = capped(x, d.decisions(st, ep.Outcome, ep.Task, used), maxDecisions, "decisions")
	ep.Lessons = capped(x, d.lessons(used), maxLessons, "lessons")
	events, commits := d.events(used)
	ep.Events = capped(x, events, maxEvents, "events")
	ep.Metrics = Metrics{Commits: commits, FilesChanged: d.filesChanged()}
	for _, e := range events {
		if e.Type == "error" {
			ep.Metrics.Errors++
		}
	}
	ep.DurationMinutes = d.duration(hdr)
	ep.Tags = tags(hdr, h1)
	ep.Context = d.context(ep, hdr, why)
	note.SortDiagnostics(x.diags)
	return ep, x.diags, nil
}

// extraction is the work in progress of one Extract call.
type extraction struct {
	path  string
	at    int // line of the log's title, where diagnostics about the whole log point
	diags note.Diagnostics
}

// clean checks that src is text and normalises it: no BOM, LF line ends
// (a CR alone ends a line too, so line numbers match an editor's), valid
// UTF-8.
func (x *extraction) clean(src []byte) (string, error) {
	if len(src) > MaxLogBytes {
		x.diags.Report(x.path, 0, 0, note.Error, "extract-too-large", "file is %d bytes, over the limit of %d for a session log; not extracted", len(src), MaxLogBytes)
		return "", ErrRefused
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line := bytes.Count(src[:i], []byte("\n")) + 1
		x.diags.Report(x.path, line, 1, note.Error, "binary-file", "file holds a NUL byte, so it is binary, not a session log; not extracted")
		return "", ErrRefused
	}
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
	if !utf8.Valid(src) {
		k := 0
		for k < len(src) {
			r, size := utf8.DecodeRune(src[k:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			k += size
		}
		x.diags.Report(x.path, bytes.Count(src[:k], []byte("\n"))+1, 1, note.Warning, "invalid-utf8", "text is not valid UTF-8; invalid bytes are read as \uFFFD")
		src = bytes.ToValidUTF8(src, []byte("\uFFFD"))
	}
	if len(bytes.TrimSpace(src)) == 0 {
		x.diags.Report(x.path, 0, 0, note.Warning, "extract-empty", "file is empty; skipped")
		return "", ErrNotSessionLog
	}
	return string(src), nil
}

// kind skips what is not a session log: handoffs, and files with no sign
// of a session (no "session" in the file name or title, no Session
// Info/Start/End section).
func (x *extraction) kind(d *doc, h1 string) error {
	stem := strings.TrimSuffix(path.Base(x.path), path.Ext(x.path))
	if (handoffStemRE.MatchString(stem) && !stemSessionRE.MatchString(stem)) || (handoffH1RE.MatchString(h1) && !anySessionRE.MatchString(h1)) {
		x.diags.Report(x.path, x.at, 1, note.Warning, "extract-not-session", "a handoff file (%s), not a session log; skipped", describe(stem, h1))
		return ErrNotSessionLog
	}
	if sessionWordRE.MatchString(stem) || sessionWordRE.MatchString(h1) {
		return nil
	}
	for _, l := range d.lines {
		if l.level >= 2 && sessionHeadRE.MatchString(l.head) {
			return nil
		}
	}
	x.diags.Report(x.path, x.at, 1, note.Warning, "extract-not-session", "not a session log (%s): no \"session\" in its file name or title and no Session Info, Start or End section; skipped", describe(stem, h1))
	return ErrNotSessionLog
}

func describe(stem, h1 string) string {
	if h1 == "" {
		return "file " + stem
	}
	return fmt.Sprintf("title %q", inline(h1, 80))
}

// identify dates and names the episode. The date is the log's Date (or
// Start) field, else the date in its file name, else one in its title; a
// log with none is refused. The title keeps the file name, so that it
// matches the id ai-agents gives the same log's episode.
func (x *extraction) identify(ep *Episode, hdr map[string]field, h1 string) error {
	date, f, found := logDate(hdr)
	if found && date == "" {
		x.diags.Report(x.path, f.line, f.col, note.Warning, "extract-date", "Date %q is not a date (YYYY-MM-DD)", inline(f.val, 80))
	}
	_, _, fileDate := identity(x.path, "", hdr, h1)
	h1Date := dateRE.FindString(h1)
	switch {
	case date != "":
		if fileDate != "" && fileDate != date {
			x.diags.Report(x.path, f.line, f.col, note.Info, "extract-date", "the log's Date %s differs from the date %s in its file name; the title keeps the file name's, the episode's date is the log's", date, fileDate)
		}
	case fileDate != "":
		date = fileDate
		x.diags.Report(x.path, x.at, 1, note.Warning, "extract-no-date", "the log has no Date field (\"- **Date**: YYYY-MM-DD\" in Session Info); the date %s of its file name is used", date)
	case h1Date != "" && validDate(h1Date):
		date = h1Date
		x.diags.Report(x.path, x.at, 1, note.Warning, "extract-no-date", "the log has no Date field (\"- **Date**: YYYY-MM-DD\" in Session Info); the date %s of its title is used", date)
	default:
		x.diags.Report(x.path, x.at, 1, note.Error, "extract-no-date", "the log has no date: no Date field, and none in its file name or title; add \"- **Date**: YYYY-MM-DD\" to its Session Info")
		return ErrRefused
	}
	ep.Date = date
	ep.Title, ep.Session, _ = identity(x.path, date, hdr, h1)
	return nil
}

func capped[T any](x *extraction, items []T, n int, what string) []T {
	if len(items) <= n {
		return items
	}
	x.diags.Report(x.path, x.at, 1, note.Info, "extract-capped", "the log has %d %s; the first %d are kept", len(items), what, n)
	return items[:n]
}

// tags are "session-log" and the pull request the log is about.
func tags(hdr map[string]field, h1 string) []string {
	out := []string{"session-log"}
	for _, s := range []string{hdr["pr"].val, hdr["related pr"].val, h1} {
		if m := prRE.FindStringSubmatch(strings.TrimSpace(s)); m != nil {
			return append(out, "pr-"+m[1]+m[2])
		}
	}
	return out
}

// context is the Context section: where the episode comes from, the
// log's metadata, and its own context paragraph.
func (d *doc) context(ep Episode, hdr map[string]field, why string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Extracted by engram extract from the session log %s.\n\n", inline(ep.Source, 200))
	for _, k := range []string{"Branch", "Agent", "PR", "Issue", "Starting Commit"} {
		if f, ok := hdr[strings.ToLower(k)]; ok {
			if v := inline(f.val, 200); v != "" {
				fmt.Fprintf(&b, "- **%s**: %s\n", k, v)
			}
		}
	}
	fmt.Fprintf(&b, "- **Outcome from**: %s\n", inline(why, maxText))
	for i, l := range d.lines {
		if l.level >= 2 && contextHeadRE.MatchString(l.head) {
			var parts []string
			for k, end := i+1, d.sectionEnd(i); k < end; {
				blk := d.listAfter(k, end)
				for _, it := range blk.items {
					parts = append(parts, join(inline(it.text, maxContext), it.sub))
				}
				k = max(blk.end, k+1)
			}
			if t := inline(strings.Join(parts, " "), maxContext); t != "" {
				fmt.Fprintf(&b, "\n%s\n", t)
			}
			break
		}
	}
	return strings.TrimSpace(b.String())
}
