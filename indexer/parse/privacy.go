package parse

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/engramhq/engram/indexer/note"
)

// Privacy fails closed (SPEC §6): whenever engram cannot be sure that a
// note is meant to be public, it is withheld as private and a diagnostic
// says why. A note is withheld when its front matter cannot be read, when
// a key looks like "private" but is not exactly it ("Private", "privte"),
// when "private" appears twice, and when its value is neither clearly
// true nor clearly false.

// privacyKey is the one key that makes a note private.
const privacyKey = "private"

// NearPrivacyKey reports whether key is not "private" but an author may
// have meant it: "private" in another case or with a letter or two
// wrong, missing, extra or swapped ("Private", "privte", "pirvate",
// "privacy"), or a longer key holding the word ("is_private").
func NearPrivacyKey(key string) bool {
	if key == privacyKey {
		return false
	}
	lower := strings.ToLower(strings.TrimSpace(key))
	letters := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) {
			return r
		}
		return -1
	}, lower)
	return lower == privacyKey || strings.Contains(letters, privacyKey) || editDistance(lower, privacyKey) <= 2
}

// PrivateValue reads the value of "private": true or false, also as
// yes/no, on/off, y/n and 1/0 in any case. clear is false for anything
// else (maybe, null, a list): the caller withholds the note.
func PrivateValue(v any) (private, clear bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "yes", "on", "y", "1":
			return true, true
		case "false", "no", "off", "n", "0":
			return false, true
		}
	case int64:
		return x == 1, x == 0 || x == 1
	case int:
		return x == 1, x == 0 || x == 1
	}
	return false, false
}

// editDistance is the optimal string alignment distance between a and b,
// in runes: insertions, deletions, substitutions and swaps of two
// neighbours each cost one. Front matter keys are short; anything much
// longer than "private" is cut off early.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > 2 || d < -2 {
		return 3 // more than any caller accepts
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// privacy decides whether the note is private. unreadable is the line of
// the error that made the front matter unreadable, or 0.
func (s *state) privacy(f *fields) {
	n := &s.n
	if s.unreadable > 0 {
		n.Private = true
		s.diags.Report(s.path, s.unreadable, 1, note.Warning, "private-unreadable",
			"note withheld as private: its front matter cannot be read, so engram cannot tell whether it says private: true; fix the error to publish it")
	}
	for _, k := range sortedKeys(f.fm.values) {
		if NearPrivacyKey(k) {
			f.used[k] = true
			n.Private = true
			f.report(k, note.Warning, "private-key", "key %q looks like %q; the note is withheld as private: write %s: true or %s: false", k, privacyKey, privacyKey, privacyKey)
		}
	}
	for _, k := range f.fm.dups {
		if k == privacyKey {
			n.Private = true
			f.report(k, note.Warning, "private-key", "%s appears more than once; the note is withheld as private", privacyKey)
		}
	}
	f.used[privacyKey] = true
	v, present := f.fm.values[privacyKey]
	if !present {
		return
	}
	private, clear := PrivateValue(v)
	if !clear {
		private = true
		f.report(privacyKey, note.Error, "private-value", "%s must be true or false, not %s; the note is withheld as private", privacyKey, describe(v))
	}
	n.Private = n.Private || private
}

// describe names a front matter value in a message.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "empty"
	case string:
		return fmt.Sprintf("%q", x)
	case []any, map[string]any:
		return "a " + typeName(v)
	}
	return fmt.Sprintf("%v", v)
}

// privacyLineRE is a line that reads as a front matter key and its
// value, in YAML, TOML or JSON: "private: true", "Private = yes",
// `"privte": 1,`.
var privacyLineRE = regexp.MustCompile(`^\s*["']?([^\s"':=]+)["']?\s*[:=]\s*["']?([^"']*?)["']?\s*,?\s*$`)

// mayBePrivacyLine is false for a line that privacyLineRE cannot match
// with a value that says true: one with no ':' or '=', or whose last
// character, past the quotes, commas and spaces the pattern allows after
// the value, cannot end "true", "yes", "on", "y" or "1". Most lines of
// prose end otherwise, and the regular expression's backtracking over
// every line of every note was a third of the time spent parsing.
func mayBePrivacyLine(line []byte) bool {
	end := bytes.TrimRight(line, " \t\r\n\v\f\"',")
	if len(end) == 0 || !bytes.ContainsAny(line, ":=") {
		return false
	}
	switch end[len(end)-1] {
	case 'e', 'E', 's', 'S', 'n', 'N', 'y', 'Y', '1':
		return true
	}
	return false
}

// misplacedPrivacy withholds a note whose text holds a line that reads
// as front matter saying it is private, outside code: front matter
// written below a first line of text ("Title", "---", "private: true",
// "---", which markdown reads as two headings), or left in a comment.
// Only front matter at the top is read as such, but the author meant the
// note private. A note withheld already needs no second reason.
func (w *walker) misplacedPrivacy(doc ast.Node) {
	if w.s.n.Private {
		return
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n.Kind() {
		case ast.KindFencedCodeBlock, ast.KindCodeBlock:
			return ast.WalkSkipChildren, nil
		case ast.KindParagraph, ast.KindTextBlock, ast.KindHeading, ast.KindHTMLBlock:
			if entering && w.privacyLine(n.Lines()) {
				return ast.WalkStop, nil
			}
		}
		return ast.WalkContinue, nil
	})
}

// privacyLine reports, and withholds the note for, the first of lines
// that reads as a privacy key set to true.
func (w *walker) privacyLine(lines *text.Segments) bool {
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		line := seg.Value(w.b.src)
		if !mayBePrivacyLine(line) {
			continue
		}
		m := privacyLineRE.FindSubmatch(line)
		if m == nil || (string(m[1]) != privacyKey && !NearPrivacyKey(string(m[1]))) {
			continue
		}
		if private, clear := PrivateValue(string(m[2])); private && clear {
			w.s.n.Private = true
			w.report(seg.Start, note.Warning, "private-misplaced", "this line reads as front matter saying %s, but front matter is read only at the top of a note; the note is withheld as private: move the key into the front matter, or write the line as code to publish the note", bytes.TrimSpace(m[0]))
			return true
		}
	}
	return false
}
