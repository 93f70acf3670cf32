package poison

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// aboutWords, before a match in its sentence, make the match talk about
// the thing rather than ask for it: it is reported ("the hook blocked"),
// forbidden ("never", "do not"), an example ("such as") or a threat
// ("injection", "attack").
var aboutWords = re(`\b(?:detect\w*|catch\w*|caught|block\w*|flag\w*|filter\w*|reject\w*|refus\w*|prevent\w*|guard\w*|defen[cs]\w*|inject\w*|jailbreak\w*|attack\w*|malicious|adversar\w*|exampl\w*|e\.g|such\s+as|phrases?|strings?|regex\w*|payloads?|warn\w*|never|don't|do\s+not|does\s+not|doesn't|didn't|did\s+not|must\s+not|mustn't|should\s+not|shouldn't|cannot|can't|avoid\w*|instead\s+of|rather\s+than|replac\w*|remov\w*|forbid\w*|prohibit\w*|ban|bans|banned|no\s+longer|not\s+to|dangerous|unsafe|insecure|cwe-\d+|vulnerab\w*|classif\w*|semgrep|scan\w*|red[\s-]team\w*|suspicious|poison\w*|deny|denied|stop\w*|used\s+to)\b`)

// talkAbout reports whether the match at loc of s is talk about an
// instruction rather than one: quoted (for the rules that say so),
// negated or reported by the words before it in its sentence, or
// negated inside itself.
func (r rule) talkAbout(s string, loc []int) bool {
	if r.quoted && quoted(s, loc) {
		return true
	}
	start, end := sentence(s, loc[0]), sentenceEnd(s, loc[1])
	if aboutWords.MatchString(s[start:loc[0]]) {
		return true
	}
	if r.unless != nil && r.unless.MatchString(s[loc[0]:loc[1]]) {
		return true
	}
	return r.unlessAfter != nil && r.unlessAfter.MatchString(s[loc[1]:end])
}

// sentence is where the sentence holding offset i of s starts: after the
// last full stop, question or exclamation mark followed by a space, a
// semicolon or a line break before i ("e.g." ends none).
func sentence(s string, i int) int {
	for j := i - 1; j >= 0; j-- {
		switch s[j] {
		case '\n', ';':
			return j + 1
		case '.', '!', '?':
			if j+1 < len(s) && (s[j+1] == ' ' || s[j+1] == '\t') && !abbreviation(s[:j]) {
				return j + 1
			}
		}
	}
	return 0
}

// segments are the starts of the sentences of s, as sentence and
// sentenceEnd bound them, in order, the first 0.
func segments(s string, starts []int) []int {
	starts = append(starts, 0)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n', ';':
			starts = append(starts, i+1)
		case '.', '!', '?':
			if i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t') && !abbreviation(s[:i]) {
				starts = append(starts, i+1)
			}
		}
	}
	if starts[len(starts)-1] == len(s) && len(starts) > 1 {
		starts = starts[:len(starts)-1]
	}
	return starts
}

// sentenceEnd is where the sentence holding offset i of s ends.
func sentenceEnd(s string, i int) int {
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\n', ';':
			return j
		case '.', '!', '?':
			if j+1 == len(s) || s[j+1] == ' ' || s[j+1] == '\t' {
				return j
			}
		}
	}
	return len(s)
}

// abbreviation reports whether s ends in an abbreviation whose full stop
// ends no sentence.
func abbreviation(s string) bool {
	low := strings.ToLower(s)
	for _, a := range []string{"e.g", "i.e", "etc", "vs", "cf", "approx"} {
		if strings.HasSuffix(low, a) && (len(low) == len(a) || !isWordByte(low[len(low)-len(a)-1])) {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// quoted reports whether the span loc of s lies between quotation marks
// or backticks on its line. A single quote opens only where a word cannot
// continue (not the apostrophe of "don't").
func quoted(s string, loc []int) bool {
	lineStart := strings.LastIndexByte(s[:loc[0]], '\n') + 1
	lineEnd := strings.IndexByte(s[loc[1]:], '\n')
	if lineEnd < 0 {
		lineEnd = len(s)
	} else {
		lineEnd += loc[1]
	}
	for _, q := range quoteSpans(s[lineStart:lineEnd]) {
		if loc[0]-lineStart >= q[0] && loc[1]-lineStart <= q[1] {
			return true
		}
	}
	return false
}

// quoteSpans are the spans of line between a pair of ", ` or '.
func quoteSpans(line string) [][]int {
	var out [][]int
	open := map[byte]int{}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '"' && c != '`' && c != '\'' {
			continue
		}
		start, isOpen := open[c]
		switch {
		case isOpen && (c != '\'' || !letterAt(line, i+1)):
			out = append(out, []int{start, i + 1})
			delete(open, c)
		case !isOpen && (c != '\'' || !letterBefore(line, i)):
			open[c] = i
		}
	}
	return out
}

func letterAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func letterBefore(s string, i int) bool {
	if i == 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
