package poison

import (
	"strings"
	"unicode/utf8"
)

// normalized is a text as the rules read it, and where each of its bytes
// came from in the original: invisible characters and emphasis marks
// dropped (so "ig\u200bnore" and "**ignore** previous instructions" read
// as they would to a model), typographic quotes, dashes and spaces made
// plain, and a run of spaces and tabs one space (a phrase's words are
// then one space apart, as the rules' needles spell them).
type normalized struct {
	text, s string
	// off[i] is the offset in the original of byte i of s; nil when s is
	// the original.
	off []int
}

func normalize(text string) normalized {
	if plainASCII(text) {
		return normalized{text: text, s: text}
	}
	var b strings.Builder
	b.Grow(len(text))
	off := make([]int, 0, len(text)+1)
	space := false
	for i, r := range text {
		if isInvisible(r) || r == '*' {
			continue
		}
		r = plain(r)
		if r == '\t' {
			r = ' '
		}
		if r == ' ' && space {
			continue
		}
		space = r == ' '
		n := utf8.RuneLen(r)
		if n < 0 {
			n, r = 3, utf8.RuneError
		}
		for range n {
			off = append(off, i)
		}
		b.WriteRune(r)
	}
	return normalized{text: text, s: b.String(), off: append(off, len(text))}
}

// plainASCII reports whether normalize would leave text as it is: ASCII,
// no emphasis mark, no tab, no two spaces together.
func plainASCII(text string) bool {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c >= 0x80, c == '*', c == '\t', c == ' ' && i+1 < len(text) && text[i+1] == ' ':
			return false
		}
	}
	return true
}

// plain maps typographic quotes, dashes and spaces to their ASCII forms.
func plain(r rune) rune {
	switch r {
	case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032':
		return '\''
	case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033', '\u00AB', '\u00BB':
		return '"'
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
		return '-'
	case '\u00A0', '\u2007', '\u202F', '\u2009', '\u200A', '\u3000':
		return ' '
	}
	return r
}

// at is the offset in the original of byte i of s.
func (n normalized) at(i int) int {
	if n.off == nil {
		return i
	}
	return n.off[i]
}

// orig maps a span of s to the span of the original text it came from:
// from its first character to the end of its last.
func (n normalized) orig(loc []int) (int, int) {
	if loc[1] <= loc[0] {
		return n.at(loc[0]), n.at(loc[0])
	}
	end := n.at(loc[1] - 1)
	_, size := utf8.DecodeRuneInString(n.text[end:])
	return n.at(loc[0]), end + size
}

// match makes the Match of a rule's span of s.
func (n normalized) match(category, why string, loc []int, comments [][]int) Match {
	start, end := n.orig(loc)
	return Match{Category: category, Start: start, End: end, Why: why, InComment: within(loc, comments)}
}

// within reports whether span loc lies inside one of spans.
func within(loc []int, spans [][]int) bool {
	for _, s := range spans {
		if loc[0] >= s[0] && loc[1] <= s[1] {
			return true
		}
	}
	return false
}
