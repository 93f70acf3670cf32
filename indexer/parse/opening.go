package parse

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// How a note opens its front matter (SPEC §6: every way parses or fails
// closed). Front matter is the first thing in a note that is not blank:
//
//   - YAML between lines of three or more dashes ("---", "-----"), closed
//     by such a line or "...";
//   - TOML between lines of three or more pluses ("+++");
//   - a JSON object, from its "{" to the "}" that closes it, as Hugo reads
//     it (a note that starts with "{{" or "{%" starts with template text,
//     not JSON).
//
// Before it may come blank lines, HTML comments ("<!-- … -->"), and
// characters that show nothing: spaces of any kind, zero-width and other
// format characters (U+200B, U+2060, U+FEFF, U+2028 …), which may sit on
// the fence lines too. A comment left open by a line that is only "<!--",
// with the front matter right after it, is Hugo's commented-out front
// matter, read as well (YAML, TOML or JSON), and the "-->" that ends it
// is not body. Each of these is read, and reported as a warning: other
// tools may show such front matter as text, "private: true" included.

// fmBlock is the raw front matter found at the top of a note.
type fmBlock struct {
	format   string // "yaml", "toml" or "json"
	text     []byte
	openLine int // line of the opening delimiter (of the "{" that JSON's text starts with)
	firstRow int // line of text[0]
	bodyOff  int // byte offset of the body
	bodyLine int // line of the first body line
	// warnings say how the front matter opens in a way other tools may
	// not read as front matter.
	warnings []fmError
}

// srcLine is one line of a note: its bytes without the newline, where it
// starts, where the next one starts, and its number.
type srcLine struct {
	text       []byte
	off, next  int
	num        int
	shown      []byte // text without spaces at either end and invisible characters
	invisible  int    // column of the first invisible character, 0 if none
	invisibleR rune
}

func lineAt(src []byte, off, num int) srcLine {
	end := bytes.IndexByte(src[off:], '\n')
	next := off + end + 1
	if end < 0 {
		end, next = len(src)-off, len(src)
	}
	l := srcLine{text: src[off : off+end], off: off, next: next, num: num}
	l.shown, l.invisible, l.invisibleR = shown(l.text)
	return l
}

// invisibleRune reports a character that shows nothing: a format
// character (zero-width spaces and joiners, U+2060, U+FEFF, bidi marks)
// or a space other than an ASCII space or tab.
func invisibleRune(r rune) bool {
	return unicode.Is(unicode.Cf, r) || (r > unicode.MaxASCII && unicode.IsSpace(r))
}

// shown is what a line shows: without its invisible characters and the
// blanks at either end. col is the column of the first invisible
// character, 0 when there is none.
func shown(l []byte) (out []byte, col int, first rune) {
	c := 0
	for i := 0; i < len(l); {
		r, size := utf8.DecodeRune(l[i:])
		c++
		if invisibleRune(r) {
			if col == 0 {
				col, first = c, r
			}
		} else {
			out = append(out, l[i:i+size]...)
		}
		i += size
	}
	return bytes.TrimSpace(out), col, first
}

// fenceOf returns the character of a fence line ('-' or '+') and its
// length, or 0.
func fenceOf(shown []byte) (byte, int) {
	if len(shown) < 3 || (shown[0] != '-' && shown[0] != '+') {
		return 0, 0
	}
	for _, c := range shown {
		if c != shown[0] {
			return 0, 0
		}
	}
	return shown[0], len(shown)
}

// opensJSON reports whether a line starts a JSON object: "{" not followed
// by "{" or "%", which open template text.
func opensJSON(shown []byte) bool {
	return len(shown) > 0 && shown[0] == '{' && (len(shown) == 1 || (shown[1] != '{' && shown[1] != '%'))
}

// opening is the scan of what comes before the front matter.
type opening struct {
	src         []byte
	blank       int  // blank lines read
	comment     int  // line of the first comment read, 0 if none
	open        int  // line of the comment still open, 0 if none
	commentText bool // the open comment holds text: what follows is no front matter
	warnings    []fmError
}

// splitFrontMatter finds the front matter at the top of a note. It returns
// ok=false when the note has none, and a problem when the front matter
// opens but never closes.
func splitFrontMatter(src []byte) (blk fmBlock, ok bool, problem *fmError) {
	o := opening{src: src}
	for off, num := 0, 1; off < len(src); num++ {
		l := lineAt(src, off, num)
		off = l.next
		switch {
		case o.open > 0:
			if !o.inComment(l) {
				return fmBlock{}, false, nil
			}
			if o.open == 0 || o.commentText {
				continue
			}
		case len(l.shown) == 0:
			o.invisible(l)
			o.blank++
			continue
		case bytes.HasPrefix(l.shown, []byte("<!--")):
			if !o.startComment(l) {
				return fmBlock{}, false, nil
			}
			continue
		}
		if c, _ := fenceOf(l.shown); c != 0 {
			o.invisible(l)
			return o.fenced(l, c, o.open > 0)
		}
		if opensJSON(l.shown) {
			o.invisible(l)
			return o.json(l, o.open > 0)
		}
		if o.open == 0 {
			return fmBlock{}, false, nil // text: the note has no front matter
		}
	}
	return fmBlock{}, false, nil
}

// invisible warns of the first invisible character of a line before the
// front matter or on its opening line.
func (o *opening) invisible(l srcLine) {
	if l.invisible > 0 {
		o.warnings = append(o.warnings, fmError{line: l.num, col: l.invisible, rule: "frontmatter-invisible",
			msg: fmt.Sprintf("an invisible character (%U) before the front matter; other tools may read the front matter as text: remove it", l.invisibleR)})
	}
}

// startComment reads a line that opens an HTML comment. It is false when
// text follows the comment on its line: the note then starts with text.
func (o *opening) startComment(l srcLine) bool {
	if o.comment == 0 {
		o.comment = l.num
	}
	start := bytes.Index(l.text, []byte("<!--"))
	if start < 0 {
		return false // "<!--" with invisible characters inside is text
	}
	start += len("<!--")
	end := bytes.Index(l.text[start:], []byte("-->"))
	if end < 0 {
		o.open, o.commentText = l.num, len(bytes.TrimSpace(l.text[start:])) > 0
		return true
	}
	rest, _, _ := shown(l.text[start+end+len("-->"):])
	return len(rest) == 0
}

// inComment reads a line inside an open comment; false when text follows
// the comment's end on its line.
func (o *opening) inComment(l srcLine) bool {
	end := bytes.Index(l.text, []byte("-->"))
	if end < 0 {
		if c, _ := fenceOf(l.shown); c == 0 && !opensJSON(l.shown) {
			o.commentText = o.commentText || len(l.shown) > 0
		}
		return true
	}
	o.open = 0
	rest, _, _ := shown(l.text[end+len("-->"):])
	return len(rest) == 0
}

// lead are the warnings about what came before the front matter, which
// opens on line at.
func (o *opening) lead(at int) []fmError {
	w := o.warnings
	switch {
	case o.comment > 0:
		w = append(w, fmError{line: o.comment, col: 1, rule: "frontmatter-leading-comment",
			msg: fmt.Sprintf("front matter starts on line %d, after an HTML comment; other tools may read it as text, so start the note with it", at)})
	case o.blank > 0:
		w = append(w, fmError{line: at, col: 1, rule: "frontmatter-leading-blank",
			msg: fmt.Sprintf("front matter starts on line %d, after blank lines; other tools may read it as text, so start the note with it", at)})
	}
	return w
}

// fenced reads YAML or TOML front matter from its opening fence line to
// the closing one. commented: the fence is inside an open HTML comment,
// whose "-->" on the line after the closing fence is not body.
func (o *opening) fenced(open srcLine, c byte, commented bool) (fmBlock, bool, *fmError) {
	blk := fmBlock{format: "yaml", openLine: open.num, firstRow: open.num + 1}
	if c == '+' {
		blk.format = "toml"
	}
	warnings := append(o.lead(open.num), fenceWarning(open)...)
	for off, num := open.next, open.num+1; off < len(o.src); num++ {
		l := lineAt(o.src, off, num)
		if !closes(l, c, blk.format) {
			off = l.next
			continue
		}
		if l.invisible > 0 {
			warnings = append(warnings, fmError{line: l.num, col: l.invisible, rule: "frontmatter-invisible",
				msg: fmt.Sprintf("an invisible character (%U) in the front matter's closing line; other tools may not see it close: remove it", l.invisibleR)})
		}
		blk.text = o.src[open.next:l.off]
		blk.bodyOff, blk.bodyLine = l.next, l.num+1
		if commented {
			blk.bodyOff, blk.bodyLine = o.closeComment(blk.bodyOff, blk.bodyLine)
		}
		blk.warnings = append(warnings, fenceWarning(l)...)
		return blk, true, nil
	}
	fence := bytes.Repeat([]byte{c}, 3)
	return fmBlock{}, false, &fmError{line: open.num, col: 1, rule: "frontmatter-unclosed",
		msg: fmt.Sprintf("front matter is never closed: add a %s line after it", fence)}
}

// closes reports whether l closes front matter opened by a fence of c: a
// fence of the same character at the start of the line, or YAML's "...".
// A line indented with blanks is text of the front matter.
func closes(l srcLine, c byte, format string) bool {
	if len(l.text) > 0 && (l.text[0] == ' ' || l.text[0] == '\t') {
		return false
	}
	got, _ := fenceOf(l.shown)
	return got == c || (format == "yaml" && string(l.shown) == "...")
}

// fenceWarning warns of a fence longer than three characters, which Hugo
// and other tools do not read as one.
func fenceWarning(l srcLine) []fmError {
	c, n := fenceOf(l.shown)
	if n <= 3 {
		return nil
	}
	return []fmError{{line: l.num, col: 1, rule: "frontmatter-fence",
		msg: fmt.Sprintf("front matter fence %s is %d characters long; other tools read only %s as a fence: write that", l.shown, n, bytes.Repeat([]byte{c}, 3))}}
}

// closeComment skips the line that ends Hugo's commented-out front matter
// ("-->" alone, after blank lines), when it follows.
func (o *opening) closeComment(off, num int) (int, int) {
	for ; off < len(o.src); num++ {
		l := lineAt(o.src, off, num)
		switch string(l.shown) {
		case "":
			off = l.next
			continue
		case "-->":
			return l.next, num + 1
		}
		break
	}
	return off, num
}

// json reads JSON front matter: the object from the "{" on line l to the
// "}" that closes it, found as Hugo finds it (braces counted outside
// strings). The rest of the closing line, if any, starts the body.
// commented: as in fenced.
func (o *opening) json(l srcLine, commented bool) (fmBlock, bool, *fmError) {
	start := l.off + bytes.IndexByte(l.text, '{')
	end, ok := jsonEnd(o.src[start:])
	if !ok {
		return fmBlock{}, false, &fmError{line: l.num, col: 1, rule: "frontmatter-unclosed",
			msg: "JSON front matter is never closed: its { has no matching }"}
	}
	end += start
	blk := fmBlock{format: "json", text: o.src[start:end], openLine: l.num, firstRow: l.num, warnings: o.lead(l.num)}
	last := l.num + bytes.Count(blk.text, []byte("\n"))
	rest := lineAt(o.src, end, last)
	blk.bodyOff, blk.bodyLine = end, last
	if len(bytes.TrimSpace(rest.text)) == 0 {
		blk.bodyOff, blk.bodyLine = rest.next, last+1
		if commented {
			blk.bodyOff, blk.bodyLine = o.closeComment(blk.bodyOff, blk.bodyLine)
		}
	}
	return blk, true, nil
}

// jsonEnd returns the offset after the "}" that closes the object b
// starts with; false when none does.
func jsonEnd(b []byte) (int, bool) {
	level, quoted := 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '{':
			level++
		case c == '}':
			level--
			if level == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}
