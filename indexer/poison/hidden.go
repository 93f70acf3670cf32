package poison

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// comment finds the text a rendered page does not show: an HTML comment
// (an unclosed one runs to the end, as a browser reads it), and the
// Markdown "comment" that is a link reference definition nothing uses
// ([//]: # (text)).
var comment = regexp.MustCompile(`(?s)<!--.*?(?:-->|$)|(?m)^[ ]{0,3}\[(?://|comment|#|_)\]:[ \t]*(?:#|<>)[ \t]*(?:\([^\n]*\)|"[^\n]*")`)

// commentSpans are the spans of s that a page does not show.
func commentSpans(s string) [][]int {
	if !strings.Contains(s, "<!--") && !strings.Contains(s, "]:") {
		return nil
	}
	return comment.FindAllStringIndex(s, -1)
}

// addressed is text that speaks to an agent: in a comment, where no
// reader of the page sees it, that is enough to be poisoning. Template
// comments ("<!-- Describe the context -->") speak to the note's
// author, and name no agent.
var addressed = re(`\b(?:ai|a\.i\.|agents?|assistants?|llms?|language\s+models?|models?|claude|gpt|chatgpt|copilot|codex|cursor|gemini|bots?)\b[\s,:;-]+(?:[\w'-]+\s+){0,3}?(?:must|should|shall|will|need\s+to|have\s+to|always|never|do\s+not|don't|ignore|make\s+sure|remember|instead|please)\b`,
	`|\b(?:note|message|instructions?)\s+(?:to|for)\s+(?:the\s+|any\s+)?(?:ai|agents?|assistants?|llms?|language\s+models?|models?|claude|gpt|copilot|codex|bots?)\b`,
	`|\bif\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|language\s+model|agent|assistant|bot|claude|gpt)\b`,
	`|\b(?:ai|agents?|assistants?|llms?|models?)\s+reading\s+this\b`,
	`|^[\s<!-]*(?:dear\s+)?(?:ai|agent|assistant|claude|llm|model)s?\s*[,:]`)

// hiddenInComments finds the comments that speak to an agent and hold no
// match of another rule already.
func (n normalized) hiddenInComments(comments [][]int, found []Match) []Match {
	var out []Match
	for _, c := range comments {
		start, end := n.orig(c)
		if overlaps(found, start, end) || !addressed.MatchString(strings.Trim(n.s[c[0]:c[1]], "<!->")) {
			continue
		}
		out = append(out, Match{Category: Hidden, Start: start, End: end, Why: "to follow instructions hidden in a comment", InComment: true})
	}
	return out
}

func overlaps(ms []Match, start, end int) bool {
	for _, m := range ms {
		if m.Start < end && start < m.End {
			return true
		}
	}
	return false
}

// isInvisible reports whether r is a character that shows nothing: zero
// width spaces and joiners, the word joiner, invisible operators, the
// byte order mark, bidirectional controls and tag characters.
func isInvisible(r rune) bool {
	switch {
	case r >= 0x200B && r <= 0x200D, r >= 0x2060 && r <= 0x2064, r == 0xFEFF, r == 0x180E:
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	case r >= 0xE0000 && r <= 0xE007F:
		return true
	}
	return false
}

// invisible finds the runs of invisible characters that hide something.
// Some have honest uses, which are left alone: a joiner or a zero width
// space beside a letter of a script that needs one (Persian, Devanagari,
// Thai) or in an emoji sequence; a bidirectional control in text that
// holds right-to-left letters; tag characters that spell a flag emoji's
// region; a byte order mark that starts the text.
func invisible(text string) []Match {
	if !mayHoldInvisible(text) {
		return nil
	}
	var out []Match
	rtl := strings.IndexFunc(text, isRTL) >= 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isInvisible(r) {
			i += size
			continue
		}
		j := i
		for j < len(text) {
			r2, s2 := utf8.DecodeRuneInString(text[j:])
			if !isInvisible(r2) {
				break
			}
			j += s2
		}
		if !honest(text, i, j, rtl) {
			out = append(out, Match{Category: Hidden, Start: i, End: j, Why: "to read text that a reader cannot see (" + describe(text[i:j]) + ")"})
		}
		i = j
	}
	return out
}

// mayHoldInvisible reports whether text has a byte that starts the UTF-8
// form of an invisible character (U+180E, U+200B–U+206F, U+FEFF, the tag
// characters): most texts have none.
func mayHoldInvisible(text string) bool {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case 0xE1, 0xE2, 0xEF, 0xF3:
			return true
		}
	}
	return false
}

// honest reports whether the run text[i:j] of invisible characters has
// an honest use where it stands.
func honest(text string, i, j int, rtl bool) bool {
	run := []rune(text[i:j])
	before, _ := utf8.DecodeLastRuneInString(text[:i])
	after, _ := utf8.DecodeRuneInString(text[j:])
	switch {
	case i == 0 && len(run) == 1 && run[0] == 0xFEFF:
		return true
	case allIn(run, 0xE0020, 0xE007F):
		// A flag emoji: the black flag, its region in tag letters, and
		// the cancel tag (🏴 + "gbsct" + U+E007F).
		return before == 0x1F3F4 && run[len(run)-1] == 0xE007F && len(run) <= 8
	case allIn(run, 0x202A, 0x202E) || allIn(run, 0x2066, 0x2069) || bidiOnly(run):
		return rtl
	case len(run) <= 2 && allZeroWidth(run):
		return script(before) || script(after)
	}
	return false
}

func allIn(rs []rune, lo, hi rune) bool {
	for _, r := range rs {
		if r < lo || r > hi {
			return false
		}
	}
	return true
}

func bidiOnly(rs []rune) bool {
	for _, r := range rs {
		if !(r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069) {
			return false
		}
	}
	return true
}

func allZeroWidth(rs []rune) bool {
	for _, r := range rs {
		if r < 0x200B || r > 0x200D {
			return false
		}
	}
	return true
}

// script reports whether r is a letter, mark or symbol beyond ASCII: the
// company a joiner keeps in scripts and emoji that need it.
func script(r rune) bool {
	return r > 0x7F && r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsSymbol(r))
}

func isRTL(r rune) bool {
	return unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko)
}

// describe names a run of invisible characters, and spells out what tag
// characters hide (each is an ASCII character shifted to U+E00xx).
func describe(run string) string {
	rs := []rune(run)
	var hidden strings.Builder
	for _, r := range rs {
		if r >= 0xE0020 && r <= 0xE007E {
			hidden.WriteRune(r - 0xE0000)
		}
	}
	name := fmt.Sprintf("U+%04X", rs[0])
	if len(rs) > 1 {
		name = fmt.Sprintf("%d invisible characters from U+%04X", len(rs), rs[0])
	}
	if h := strings.TrimSpace(hidden.String()); h != "" {
		return fmt.Sprintf("%s spelling %q", name, clip(h, 60))
	}
	return name
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
