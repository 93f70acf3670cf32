package parse

import "bytes"

// yamlLines maps the lines yaml.v3 counts in front matter to the file's.
// YAML 1.1 also breaks lines at NEL, U+2028 and U+2029, which markdown
// and engram do not: a key after one of them is on the same line of the
// file, and a diagnostic must not point past the file's last line.
type yamlLines struct {
	first int   // the file's line of the text's first line
	at    []int // for each YAML line, its file line less first; nil when they are the same
}

func newYAMLLines(text []byte, first int) yamlLines {
	m := yamlLines{first: first}
	if !bytes.ContainsAny(text, "\u0085\u2028\u2029") {
		return m
	}
	m.at = []int{0}
	nl := 0
	s := string(text)
	for i, r := range s {
		switch {
		case r == '\n', r == '\r' && !(i+1 < len(s) && s[i+1] == '\n'):
			nl++
			m.at = append(m.at, nl)
		case r == '\u0085', r == '\u2028', r == '\u2029':
			m.at = append(m.at, nl)
		}
	}
	return m
}

// line is the file's line of YAML line n (1-based).
func (m yamlLines) line(n int) int {
	if m.at == nil || n < 1 {
		return m.first - 1 + n
	}
	return m.first + m.at[min(n, len(m.at))-1]
}
