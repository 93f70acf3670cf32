package poison

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/note"
)

// Rule is the rule name of memory poisoning's diagnostics.
const Rule = "memory-poisoning"

// Finding is a poisoned span of a note, positioned in its file.
type Finding struct {
	Path string
	// Field names the text it is in (see Field).
	Field    string
	Category string
	// Why says what the text asks of an agent.
	Why       string
	Line, Col int
	// Excerpt is the text found, invisible characters spelled out
	// (⟨U+200B⟩) and cut to a line, for a reviewer.
	Excerpt string
	// Fingerprint names the finding in an allow list: see Fingerprint.
	Fingerprint string
	InComment   bool
	// Allowed: the repository's allow list names the fingerprint.
	Allowed bool
}

// Fingerprint names a finding for the allow list: the note's path, the
// category, and a hash of the text found (spacing collapsed). Not the
// line, as gitleaks does: agents append to episodes (upsert_episode adds
// events), which moves every line after, while a text that was reviewed
// keeps its fingerprint until it changes, and a changed text is reviewed
// again. The path keeps an allowed text from allowing the same words in
// another note.
func Fingerprint(path, category, text string) string {
	sum := sha256.Sum256([]byte(strings.Join(strings.Fields(text), " ")))
	return path + ":" + category + ":" + hex.EncodeToString(sum[:6])
}

// find finds the poisoned text of a note, positioned in src, the file the
// note was read from (nil: at the lines the note gives).
func (sc *scanner) find(n *note.Note, src []byte) []Finding {
	var out []Finding
	walk(n, func(ref fieldRef, text string, line int) {
		for _, m := range sc.scan(text) {
			found := text[m.Start:m.End]
			l, c := locate(src, line, found)
			out = append(out, Finding{Path: n.Path, Field: ref.name(), Category: m.Category, Why: m.Why, Line: l, Col: c,
				Excerpt: Excerpt(found), Fingerprint: Fingerprint(n.Path, m.Category, found), InComment: m.InComment})
		}
	})
	return out
}

// locate finds text in src at or after line (1-based; 0 for anywhere),
// as written or as JSON writes it; else it gives the field's line.
func locate(src []byte, line int, text string) (int, int) {
	from := lineOffset(src, line)
	forms := [][]byte{[]byte(text), jsonForm(text)}
	if first, _, ok := strings.Cut(text, "\n"); ok {
		forms = append(forms, []byte(first))
	}
	for _, f := range forms {
		if len(f) == 0 {
			continue
		}
		if i := bytes.Index(src[from:], f); i >= 0 {
			return position(src, from+i)
		}
	}
	return max(line, 1), 1
}

// jsonForm is text as a JSON string writes it, without the quotes.
func jsonForm(text string) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if e.Encode(text) != nil {
		return nil
	}
	return bytes.TrimSuffix(bytes.TrimPrefix(bytes.TrimSpace(b.Bytes()), []byte(`"`)), []byte(`"`))
}

// lineOffset is the offset of the start of line (1-based) in src; 0 for
// line 0 or a line past the end.
func lineOffset(src []byte, line int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return 0
		}
		off += i + 1
	}
	return off
}

// position is the 1-based line and column (in characters) of offset off.
func position(src []byte, off int) (int, int) {
	before := src[:off]
	start := bytes.LastIndexByte(before, '\n') + 1
	return bytes.Count(before, []byte("\n")) + 1, utf8.RuneCount(bytes.TrimPrefix(before[start:], []byte("\uFEFF"))) + 1
}

// Excerpt is found text for a reader: invisible characters spelled out,
// on one line, at most 120 characters.
func Excerpt(text string) string {
	var b strings.Builder
	for _, r := range text {
		switch {
		case isInvisible(r):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return clip(strings.Join(strings.Fields(b.String()), " "), 120)
}
