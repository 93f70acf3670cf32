package extract

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

var (
	stemDateRE    = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})-`)
	stemSessionRE = regexp.MustCompile(`(?i)^(\d{4}-\d{2}-\d{2}-session-(\d+))`)
	anySessionRE  = regexp.MustCompile(`(?i)\bsession[\s-]+(\d+)\b`)
	dateRE        = regexp.MustCompile(`\b(\d{4}-\d{2}-\d{2})\b`)
	infoHeadRE    = regexp.MustCompile(`(?i)^session\s+(info|information|metadata|details)$`)
	objectiveRE   = regexp.MustCompile(`(?i)^(session\s+)?(objectives?|goals?)$`)
	taskHeadRE    = regexp.MustCompile(`(?i)^task\s*:\s*(.+)$`)
	h1PrefixRE    = regexp.MustCompile(`(?i)^(?:\d{4}-\d{2}-\d{2}-)?session(?:\s+log)?(?:[\s-]+[\w-]*\d[\w-]*)?\s*(?:[:\-–—]+\s*|$)`)
	h1DateRE      = regexp.MustCompile(`^[\s:\-–—]*\d{4}-\d{2}-\d{2}[\s:\-–—]*$`)
	unsafeRE      = regexp.MustCompile(`[^A-Za-z0-9._-]+`)
	digitsRE      = regexp.MustCompile(`\d+`)
	durationRE    = regexp.MustCompile(`(?i)(\d+(?:\.\d+)?)\s*(h|hours?|hrs?|m|mins?|minutes?)\b`)
)

// field is a metadata value of the log's header with its position.
type field struct {
	val       string
	line, col int
}

// header reads the metadata of a log: the bold fields and two-column table
// rows before the first level-2 heading and in a "Session Info" section.
// The first value of a key wins; keys are lower case.
func (d *doc) header() map[string]field {
	out := map[string]field{}
	add := func(key, val string, l line) {
		key = strings.ToLower(strings.TrimSpace(key))
		if _, seen := out[key]; seen || key == "" || val == "" {
			return
		}
		col := 1
		if k := strings.Index(l.text, val); k >= 0 {
			col = utf8.RuneCountInString(l.text[:k]) + 1
		}
		out[key] = field{val: val, line: l.n, col: col}
	}
	for i, l := range d.lines {
		if !d.inHeader(i) || l.code {
			continue
		}
		if l.key != "" {
			add(l.key, l.val, l)
		}
		if c := tableCells(l.text); l.table && len(c) >= 2 {
			add(c[0], c[1], l)
		}
	}
	return out
}

// inHeader reports whether line i is before the first level-2 heading or
// in a "Session Info" section.
func (d *doc) inHeader(i int) bool { return d.lines[i].header }

// title returns the text of the first level-1 heading and its line.
func (d *doc) title() (string, int) {
	for _, l := range d.lines {
		if l.level == 1 {
			return l.head, l.n
		}
	}
	return "", 0
}

// logDate is the date the log states, from its Date (or Start) field.
func logDate(h map[string]field) (date string, f field, found bool) {
	for _, k := range []string{"date", "session date", "start", "started"} {
		if f, ok := h[k]; ok {
			if m := dateRE.FindString(f.val); m != "" && validDate(m) {
				return m, f, true
			}
			return "", f, true
		}
	}
	return "", field{}, false
}

func validDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// identity names the episode: its title, session id and the date its file
// name carries ("" when none).
func identity(p, date string, h map[string]field, h1 string) (title, session, fileDate string) {
	stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	safe := strings.Trim(unsafeRE.ReplaceAllString(stem, "-"), "-.")
	safe = cut(safe, 120)
	if m := stemDateRE.FindStringSubmatch(stem); m != nil && validDate(m[1]) {
		fileDate = m[1]
		session = safe
		if s := stemSessionRE.FindStringSubmatch(stem); s != nil {
			session = s[1]
		}
		return "EPISODE-" + safe, session, fileDate
	}
	num := sessionNumber(stem, h, h1)
	if num != "" {
		session = date + "-session-" + num
		return "EPISODE-" + session, session, ""
	}
	if safe == "" {
		safe = "session"
	}
	return "EPISODE-" + date + "-" + safe, date + "-" + safe, ""
}

func sessionNumber(stem string, h map[string]field, h1 string) string {
	if m := anySessionRE.FindStringSubmatch(stem); m != nil {
		return m[1]
	}
	for _, k := range []string{"session", "session id", "session number"} {
		if f, ok := h[k]; ok {
			if m := digitsRE.FindString(f.val); m != "" {
				return m
			}
		}
	}
	if m := anySessionRE.FindStringSubmatch(h1); m != nil {
		return m[1]
	}
	return ""
}

// task is what the session set out to do: its Objective field or section,
// a "## Task: …" heading, its title, or its Scope, in that order.
func (d *doc) task(h map[string]field, h1 string) string {
	for _, k := range []string{"objective", "objectives", "goal", "task"} {
		if f, ok := h[k]; ok {
			return inline(f.val, maxTask)
		}
	}
	for i, l := range d.lines {
		if l.level >= 2 && objectiveRE.MatchString(l.head) {
			if t := d.objectiveSection(i); t != "" {
				return t
			}
		}
	}
	for _, l := range d.lines {
		if m := taskHeadRE.FindStringSubmatch(l.head); l.level >= 2 && m != nil {
			return inline(m[1], maxTask)
		}
	}
	if t := cleanH1(h1); t != "" {
		return inline(t, maxTask)
	}
	if f, ok := h["scope"]; ok {
		return inline(f.val, maxTask)
	}
	return ""
}

// objectiveSection reads an objective section: its first paragraph, with
// the list after it when the paragraph ends in a colon, or its list.
func (d *doc) objectiveSection(h int) string {
	end := d.sectionEnd(h)
	b := d.listAfter(h+1, end)
	if len(b.items) == 0 {
		return ""
	}
	first := b.items[0]
	if !d.lines[first.first].item {
		text := join(inline(first.text, maxTask), first.sub)
		if strings.HasSuffix(text, ":") {
			if more := d.listAfter(b.end, end); len(more.items) > 0 && d.lines[more.items[0].first].item {
				text = join(text, itemTexts(more.items))
			}
		}
		return cut(text, maxTask)
	}
	return cut(strings.Join(itemTexts(b.items), "; "), maxTask)
}

func itemTexts(items []blockItem) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		if t := inline(it.text, maxText); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// cleanH1 drops the session number and date from a title: "Session 304:
// PR #753 Remediation" is "PR #753 Remediation"; "Session 356 -
// 2026-01-03" says nothing.
func cleanH1(h1 string) string {
	t := strings.TrimSpace(h1PrefixRE.ReplaceAllString(h1, ""))
	if t == "" || h1DateRE.MatchString(t) {
		return ""
	}
	return t
}

// duration is the log's Duration field, in its header or anywhere else
// ("**Duration**: ~30 minutes" under Session Metrics), in minutes.
func (d *doc) duration(hdr map[string]field) float64 {
	if f, ok := hdr["duration"]; ok {
		return minutes(f.val)
	}
	for _, l := range d.lines {
		if strings.EqualFold(l.key, "duration") && !l.code {
			return minutes(l.val)
		}
	}
	return 0
}

// minutes reads a duration such as "~30 minutes", "1h 30m" or "2 hours".
func minutes(s string) float64 {
	var total float64
	for _, m := range durationRE.FindAllStringSubmatch(s, -1) {
		n, _ := strconv.ParseFloat(m[1], 64)
		if strings.HasPrefix(strings.ToLower(m[2]), "h") {
			n *= 60
		}
		total += n
	}
	return total
}
