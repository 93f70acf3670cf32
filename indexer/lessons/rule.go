package lessons

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/note"
)

// reading is what a lesson says, as compared: the content terms of its
// rule (the title) and of the rest (the body), in order, and whether the
// rule is negated.
type reading struct {
	title, body []string
	negated     bool
}

// read analyses a lesson. Real lessons are often "Rule.. Explanation" or
// "Avoid: Anti-pattern.. Remedy": the rule is the part before "..", or
// else the first sentence, and only the rule decides the polarity. A
// leading "Avoid" negates the rule, and so does each of "not" (n't,
// cannot), "no", "never", "nor" and "without" in it: an odd number of them
// makes it negated, so "Avoid: claiming a review ran when it did not" is
// not the negation of "State honestly which reviews ran" any more than a
// double negative is. "Not only", "not just", "not merely" and "not
// simply" add rather than negate, and do not count.
//
// The negation words are not content terms, in the rule or out of it: the
// polarity keeps a lesson apart from its negation, and the words would
// only make unrelated lessons that both say "not" look alike.
func (rd reader) read(text string) reading {
	title, body := parts(prepare(text))
	title, avoid := cutAvoid(title)
	r := reading{negated: avoid}
	r.title = rd.content(rd.analyze(additiveNotsOut(title)), &r.negated)
	if strings.TrimSpace(body) != "" {
		r.body = rd.content(rd.analyze(body), nil)
	}
	return r
}

// reader reads lessons with one analyser; stops are extraStops as it
// analyses them.
type reader struct {
	analyze func(string) []string
	stops   map[string]bool
}

func newReader(analyze func(string) []string) reader {
	stops := map[string]bool{}
	for _, t := range analyze(extraStops) {
		stops[t] = true
	}
	return reader{analyze: analyze, stops: stops}
}

// content keeps the terms that say what a lesson is about, flipping
// *negated at each negation if negated is not nil.
func (rd reader) content(ts []string, negated *bool) []string {
	stops := rd.stops
	out := ts[:0]
	for _, t := range ts {
		switch {
		case negation(t):
			if negated != nil {
				*negated = !*negated
			}
		case stops[t], meaningless(t):
		default:
			out = append(out, t)
		}
	}
	return out
}

func negation(t string) bool {
	switch t {
	case "not", "no", "never", "nor", "without":
		return true
	}
	return false
}

// extraStops are the stems of words that bleve's English stop list keeps
// but that say nothing about a lesson's subject: quantifiers, modal verbs,
// intensifiers and linking adverbs, and the most generic verbs. In a small
// corpus they are rare enough for IDF to weigh them like content words.
const extraStops = "also always just even still already yet ever often usually really actually " +
	"simply merely quite rather instead however therefore thus hence whether either neither " +
	"every each many much one two three first second new via per like well etc " +
	"can will shall may might must get gets got make makes made use uses used using " +
	"need needs needed thing things way ways lot lots now today"

// meaningless reports a term that carries no meaning for what a lesson
// says: a number, or a commit SHA or other hex id (note.IsHexID).
func meaningless(t string) bool {
	return strings.Trim(t, "0123456789") == "" && t != "" || note.IsHexID(t)
}

// parts splits a lesson into its rule and the rest: at the first ".."
// (not part of an ellipsis), or else after the first sentence.
func parts(s string) (title, body string) {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == '.' && (i == 0 || s[i-1] != '.') && (i+2 == len(s) || s[i+2] != '.') {
			return s[:i], s[i+2:]
		}
	}
	if end := sentenceEnd(s); end < len(s) {
		return s[:end], s[end:]
	}
	return s, ""
}

// sentenceEnd returns the index just after the first sentence of s: after
// '.', '!' or '?' followed by white space (but not after "e.g." and the
// like), after a full-width 。！？, or at a line break.
func sentenceEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			return i + 1
		case c == '.' || c == '!' || c == '?':
			if i+1 < len(s) && isSpace(s[i+1:]) && !abbreviation(s[:i]) {
				return i + 1
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == '。' || r == '！' || r == '？' {
				return i + size
			}
			i += size - 1
		}
	}
	return len(s)
}

// isSpace reports whether s starts with white space.
func isSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

// abbreviation reports whether the word before a period has a period of
// its own (e.g., i.e.) or is "vs": the period does not end a sentence.
func abbreviation(before string) bool {
	word := before[strings.LastIndexFunc(before, unicode.IsSpace)+1:]
	return strings.Contains(word, ".") || strings.EqualFold(word, "vs")
}

// cutAvoid cuts a leading "Avoid" or "Avoid:" off a rule.
func cutAvoid(s string) (string, bool) {
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	if len(t) < 5 || !strings.EqualFold(t[:5], "avoid") {
		return s, false
	}
	if r, _ := utf8.DecodeRuneInString(t[5:]); len(t) > 5 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
		return s, false // "avoidance", "avoids"
	}
	return strings.TrimPrefix(t[5:], ":"), true
}

// additiveNotsOut blanks the "not" of "not only", "not just", "not
// merely" and "not simply", which add to a rule rather than negate it.
func additiveNotsOut(s string) string {
	if !strings.Contains(s, "not ") && !strings.Contains(s, "Not ") && !strings.Contains(s, "NOT ") {
		return s
	}
	lower := asciiLower(s) // byte for byte, so that indexes agree with s
	b := []byte(s)
	for i := 0; ; {
		k := strings.Index(lower[i:], "not ")
		if k < 0 {
			break
		}
		at := i + k
		i = at + 4
		if at > 0 && isWordByte(lower[at-1]) {
			continue
		}
		next := strings.TrimLeft(lower[at+3:], " ")
		for _, w := range []string{"only", "just", "merely", "simply"} {
			if strings.HasPrefix(next, w) && (len(next) == len(w) || !isWordByte(next[len(w)])) {
				copy(b[at:at+3], "   ")
			}
		}
	}
	return string(b)
}

func isWordByte(c byte) bool {
	return c == '\'' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
