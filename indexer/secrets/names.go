package secrets

import (
	"crypto/sha256"
	"strings"
)

// A file's path is printed in every message about the file and is
// published (a note's source.path, and its title and slug when its front
// matter gives none). So the path is scanned as the file's text is, and
// a secret in it, in a file's or a folder's name, is a finding like one
// in the text: ScanFS serves the file under its path with each secret
// replaced by Redacted(rule), and every later stage sees that path only.
// A secret in a path cannot be allowed in IgnoreFile (its fingerprint
// would spell the secret): the file is renamed, or the build redacts.

// cleanName returns path with each secret in it redacted, a finding for
// each (in the file's name: line 1, column 1, fingerprint
// name:rule:0), and whether a secret is left that could not be
// redacted. gitleaks' path rules and allowlists are about what a file
// holds, not its name: the name is scanned as an output's text is.
func (s *Scanner) cleanName(path string) (name string, found []Finding, left bool) {
	n := *s
	n.output, n.ignore, n.allowed = true, nil, nil
	clean, raw, rest := n.Clean("", []byte(path))
	name = string(clean)
	for _, f := range raw {
		found = append(found, Finding{Path: name, Line: 1, Col: 1, Rule: f.Rule, InName: true,
			Fingerprint: name + ":" + f.Rule + ":0", sum: f.sum})
	}
	return name, found, len(rest) > 0
}

// Name is path as the build names it from the scan on: with each secret
// in it redacted (the path of a file the scan read, or any other path:
// a symlink's, a folder's).
func (in *Input) Name(path string) string {
	if name, ok := in.Renamed[path]; ok {
		return name
	}
	name, _, _ := in.Scanner.cleanName(path)
	return name
}

// Hide replaces in text each secret of found with Redacted(rule), in the
// forms a build gives a secret in a path or an id: as it is, lower-cased,
// or in a slug. A run of words of text (letters and digits, between
// anything else) is a secret when its letters and digits, lower-cased,
// are the secret's (what a Finding keeps of it, see digest). For the
// messages that name what a scan found: the output file's path (a slug
// of a title) or a note's id may be the secret itself.
func Hide(text string, found []Finding) string {
	rules := map[[sha256.Size]byte]string{}
	for _, f := range found {
		if _, ok := rules[f.sum]; !ok {
			rules[f.sum] = f.Rule
		}
	}
	words := wordSpans(text)
	var b strings.Builder
	last := 0
	for i := 0; i < len(words); i++ {
		for j := i; j < len(words) && words[j][1]-words[i][0] <= maxHidden; j++ {
			if rule, ok := rules[digest(text[words[i][0]:words[j][1]])]; ok {
				b.WriteString(text[last:words[i][0]])
				b.WriteString(Redacted(rule))
				last, i = words[j][1], j
				break
			}
		}
	}
	b.WriteString(text[last:])
	return b.String()
}

// maxHidden is the longest text Hide takes for one secret: longer than
// any token, short enough to keep Hide cheap on a long message.
const maxHidden = 1024

// wordSpans are the byte ranges of the runs of ASCII letters and digits
// of text.
func wordSpans(text string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(text); {
		if !isAlnum(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isAlnum(text[j]) {
			j++
		}
		spans = append(spans, [2]int{i, j})
		i = j
	}
	return spans
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
