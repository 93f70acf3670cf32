package export

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A note's headline is what a reader sees of it first, in its page's
// heading, in every list that names it and in search results: an
// episode's task, a pattern's rule in words, another note's title. The
// id stays the secondary label, beside the headline, and in the URL.
// Headlines are plain text; whoever shows one escapes it.

// HeadlineRunes is the longest headline a list shows; a longer one is
// cut at a word with an ellipsis, and the page shows the full text.
const HeadlineRunes = 110

// EpisodeHeadline is an episode's task, its first sentence when that is
// long enough to stand alone, or the id when there is no task.
func EpisodeHeadline(task, id string) string {
	t := PlainText(task)
	if t == "" {
		return id
	}
	return Clip(firstSentence(t), HeadlineRunes)
}

// PatternHeadline is a pattern's rule as a sentence, "When <trigger>,
// <action>", or what there is of it; the id when neither is given.
func PatternHeadline(trigger, action, id string) string {
	t, a := strings.TrimRight(PlainText(trigger), " .;:"), PlainText(action)
	switch {
	case t != "" && a != "" && conditional(t):
		return Clip(t+", "+lowerFirst(a), 2*HeadlineRunes)
	case t != "" && a != "":
		return Clip("When "+lowerFirst(t)+", "+lowerFirst(a), 2*HeadlineRunes)
	case t != "" && conditional(t):
		return Clip(t, 2*HeadlineRunes)
	case a != "":
		return Clip(a, 2*HeadlineRunes)
	case t != "":
		return Clip("When "+lowerFirst(t), 2*HeadlineRunes)
	}
	return id
}

// NoteHeadline is another note's title: written by a person, already in
// words.
func NoteHeadline(title, id string) string {
	if t := PlainText(title); t != "" {
		return Clip(t, HeadlineRunes)
	}
	return id
}

var (
	// mdBlock is a line's block marks: a heading's #s, a quote's >, a
	// list item's bullet (a bullet is followed by a space, unlike
	// *emphasis* or a rule).
	mdBlock    = regexp.MustCompile(`(?m)^[ \t]*(?:(?:#{1,6}|[-*+])[ \t]+|>[ \t]*)+`)
	mdWikiLink = regexp.MustCompile(`\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]`)
	mdLink     = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	mdMarks    = strings.NewReplacer("**", "", "__", "", "`", "")
	// mdEmphasis is *text* or _text_ between words, not a snake_case
	// name's underscores.
	mdEmphasis = regexp.MustCompile(`(^|[\s(])[*_]([^*_\s](?:[^*_]*[^*_\s])?)[*_]($|[\s.,;:!?)])`)
)

// PlainText is markdown as a reader reads it in one line: links as
// their text, no emphasis or code marks, no bullet, quote or heading
// mark where a line starts.
func PlainText(s string) string {
	s = mdBlock.ReplaceAllString(s, "")
	s = mdWikiLink.ReplaceAllStringFunc(s, func(m string) string {
		p := mdWikiLink.FindStringSubmatch(m)
		if strings.TrimSpace(p[2]) != "" {
			return p[2]
		}
		return p[1]
	})
	s = mdLink.ReplaceAllString(s, "$1")
	s = mdMarks.Replace(s)
	s = mdEmphasis.ReplaceAllString(s, "$1$2$3")
	return strings.Join(strings.Fields(s), " ")
}

// firstSentence is s up to the end of its first sentence, when that
// sentence has at least a few words; else s.
func firstSentence(s string) string {
	for i := 0; i < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && (i+1 == len(s) || s[i+1] == ' ') {
			if i+1 == len(s) {
				return s
			}
			if strings.Count(s[:i], " ") >= 3 {
				return s[:i]
			}
		}
	}
	return s
}

// Clip cuts s to at most n runes, at the last word that fits, with an
// ellipsis.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:-–—") + "…"
}

// conditional reports a trigger that says "when" itself ("When CI
// fails", "If the cache is cold").
func conditional(s string) bool {
	w, _, _ := strings.Cut(strings.ToLower(s), " ")
	switch w {
	case "when", "whenever", "if", "after", "before", "once", "while", "on":
		return true
	}
	return false
}

// lowerFirst lowers the first letter of a sentence that goes after a
// comma, unless it starts a word in capitals ("CI", "PR").
func lowerFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	next, _ := utf8.DecodeRuneInString(s[size:])
	if !unicode.IsUpper(r) || unicode.IsUpper(next) || unicode.IsDigit(next) || r == 'I' && next == ' ' {
		return s
	}
	return string(unicode.ToLower(r)) + s[size:]
}
