package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Caps on what one episode note holds, so that a note stays far below
// the 1 MiB a note may have (SPEC §6) whatever the log holds.
const (
	maxText      = 500 // runes of one event, lesson or decision field
	maxTask      = 500
	maxContext   = 2000
	maxEvents    = 500
	maxDecisions = 100
	maxLessons   = 100
)

var (
	spaceRE = regexp.MustCompile(`\s+`)
	// leadBlockRE matches what would make a line start a block other
	// than a paragraph: a heading, a quote, a list item, a fence, a table.
	leadBlockRE  = regexp.MustCompile("^(#{1,6}(\\s+|$)|>\\s?|[-+*](\\s+|$)|\\d{1,9}[.)](\\s+|$)|`{3,}|~{3,}|\\|)")
	hrRE         = regexp.MustCompile(`^([-*_=]\s*){3,}$`)
	emojiMarkRE  = regexp.MustCompile(`^[\x{2705}\x{274C}\x{2714}\x{2713}\x{23F3}\x{1F504}\x{1F7E2}\x{26A0}\x{FE0F}\s]+`)
	statusWordRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(not\s+(?:yet\s+)?(?:complete|completed|done|finished)|incomplete|in[\s-]progress|partial(?:ly)?|wip|pending|tbd|blocked|ongoing|deferred|fail(?:ed|ure|s|ing)?|abort(?:ed)?|errors?|complete[d]?|done|success(?:ful(?:ly)?)?|succeeded|finished|pass(?:ed|ing)?|merged|resolved|fixed|verified)(?:$|[^\p{L}])`)
)

// inline turns text from a log into one line of note text that parses
// as plain text wherever engram puts it: a list item, a field value, a
// heading. White space is collapsed, bold markers and leading block
// markers are dropped, wikilinks are defused (a log's "[[x]]" is not a
// link to a note), and the result is cut to max runes.
func inline(s string, max int) string {
	s = commentRE.ReplaceAllString(s, " ")
	s = strings.ReplaceAll(s, "**", "")
	for strings.Contains(s, "[[") || strings.Contains(s, "]]") {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "[[", "[ ["), "]]", "] ]")
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(spaceRE.ReplaceAllString(s, " "))
	for {
		t := strings.TrimLeft(leadBlockRE.ReplaceAllString(s, ""), " ")
		if hrRE.MatchString(t) {
			t = ""
		}
		if t == s {
			break
		}
		s = t
	}
	if strings.HasPrefix(s, "<") {
		s = "\\" + s
	}
	return cut(s, max)
}

// cut shortens s to at most max runes, at a word boundary when one is
// near, marking the cut with "…".
func cut(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)[:max-1]
	t := string(r)
	if k := strings.LastIndexByte(t, ' '); k > len(t)*3/4 {
		t = t[:k]
	}
	return strings.TrimRight(t, " ,;:-") + "…"
}

// join renders an item and its nested items as one line: "text: a; b".
func join(text string, sub []string) string {
	var parts []string
	for _, s := range sub {
		if s = inline(s, maxText); s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return text
	}
	text = strings.TrimRight(text, " ")
	if text != "" && !strings.HasSuffix(text, ":") {
		text += ":"
	}
	return strings.TrimSpace(text + " " + strings.Join(parts, "; "))
}

// mapStatus maps a status written in a log ("Complete", "[COMPLETED]",
// "✅ COMPLETE", "In Progress", "FAILED") to an outcome, or "" when the
// text names no outcome (a git status such as "clean", "OPEN", "NOT
// IMPLEMENTED"). The leftmost status word decides: "Complete - 2
// failures fixed" is a success.
func mapStatus(s string) string {
	m := statusWordRE.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	w := strings.ToLower(m[1])
	switch {
	case strings.HasPrefix(w, "not"), w == "incomplete", strings.HasPrefix(w, "in"), strings.HasPrefix(w, "partial"),
		w == "wip", w == "pending", w == "tbd", w == "blocked", w == "ongoing", w == "deferred":
		return "partial"
	case strings.HasPrefix(w, "fail"), strings.HasPrefix(w, "abort"), strings.HasPrefix(w, "error"):
		return "failure"
	}
	return "success"
}

// stripMarks drops leading status emoji and checkmarks.
func stripMarks(s string) string {
	return strings.TrimSpace(emojiMarkRE.ReplaceAllString(s, ""))
}
