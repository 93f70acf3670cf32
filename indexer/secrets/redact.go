package secrets

import (
	"sort"
	"strings"
)

// rounds bounds how often Clean scans its own redacted text: replacing a
// secret can expose another (an encoded one inside a decoded one).
const rounds = 4

// Clean returns one file's text with every occurrence of each secret that
// is not allowed replaced by Redacted(rule) (data itself when there is
// none), the secrets it found, and those of them still in the text it
// returns (none are known: replacing one secret can expose another, so it
// scans its own result again, a few times). A redacted secret keeps its
// newlines after the marker, so the lines below it keep their numbers.
func (s *Scanner) Clean(path string, data []byte) (clean []byte, found, left []Finding) {
	found, texts := s.scan(path, data)
	all := found
	for round := 0; round < rounds && hasRedactable(found); round++ {
		data = redact(data, found, texts)
		found, texts = s.scan(path, data)
		all = append(all, found...)
	}
	for _, f := range found {
		if !f.Allowed {
			left = append(left, f)
		}
	}
	return data, unique(all), left
}

func hasRedactable(found []Finding) bool {
	for _, f := range found {
		if !f.Allowed {
			return true
		}
	}
	return false
}

// redact replaces every occurrence of the texts of each finding that is
// not allowed, the longest first, so that a secret inside another is
// never left half replaced.
func redact(data []byte, found []Finding, texts [][]string) []byte {
	type repl struct{ old, new string }
	var rs []repl
	for i, f := range found {
		if f.Allowed {
			continue
		}
		for _, t := range texts[i] {
			if t != "" {
				rs = append(rs, repl{t, Redacted(f.Rule) + strings.Repeat("\n", strings.Count(t, "\n"))})
			}
		}
	}
	sort.SliceStable(rs, func(i, j int) bool { return len(rs[i].old) > len(rs[j].old) })
	text := string(data)
	for _, r := range rs {
		text = strings.ReplaceAll(text, r.old, r.new)
	}
	return []byte(text)
}

// unique drops the findings a later round found again at the same place.
func unique(found []Finding) []Finding {
	seen := map[Finding]bool{}
	out := found[:0:0]
	for _, f := range found {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// RedactText is text, a message about the files, with each secret in it
// that s does not let through replaced by Redacted(rule): a message may
// quote a note as parsed, which decodes what the scan of the files read
// as written (a YAML escape in a title). It is scanned as an output is.
func (s *Scanner) RedactText(text string) string {
	n := *s
	n.output = true
	clean, found, _ := n.Clean("", []byte(text))
	if len(found) == 0 {
		return text
	}
	return string(clean)
}
