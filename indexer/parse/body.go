package parse

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// newMarkdownParser returns a CommonMark block parser without inline
// parsers: engram reads the structure (headings, lists) and scans the raw
// text of each block itself, so inline parsing would be wasted work.
func newMarkdownParser() gparser.Parser {
	return gparser.NewParser(
		gparser.WithBlockParsers(gparser.DefaultBlockParsers()...),
		gparser.WithInlineParsers(),
		gparser.WithParagraphTransformers(),
	)
}

// body is the markdown after the front matter, with a way to map its byte
// offsets to absolute lines and columns in the file.
type body struct {
	src        []byte
	firstLine  int   // absolute line of src[0]
	lineStarts []int // byte offset of each line in src
	// at is the last offset pos mapped, and its line and column: the
	// links of one long line are found in order, and counting each one's
	// column from the start of the line would take time quadratic in
	// the line's length.
	atOff, atLine, atCol int
}

func newBody(src []byte, firstLine int) *body {
	b := &body{src: src, firstLine: firstLine, lineStarts: []int{0}, atCol: 1}
	for i, c := range src {
		if c == '\n' {
			b.lineStarts = append(b.lineStarts, i+1)
		}
	}
	return b
}

// pos maps a byte offset in the body to an absolute line and a 1-based
// column counted in characters.
func (b *body) pos(off int) (line, col int) {
	lo, hi := 0, len(b.lineStarts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if b.lineStarts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	from, col := b.lineStarts[lo], 1
	if b.atLine == lo && b.atOff >= from && b.atOff <= off {
		from, col = b.atOff, b.atCol
	}
	col += utf8.RuneCount(b.src[from:off])
	b.atOff, b.atLine, b.atCol = off, lo, col
	return b.firstLine + lo, col
}

// lineText returns line i (0-based, relative to the body) without its newline.
func (b *body) lineText(i int) string {
	if i < 0 || i >= len(b.lineStarts) {
		return ""
	}
	end := len(b.src)
	if i+1 < len(b.lineStarts) {
		end = b.lineStarts[i+1] - 1
	}
	return string(b.src[b.lineStarts[i]:end])
}

// item is the raw text of a list item's first block with its position.
// The block's source lines are joined by single spaces.
type item struct {
	text string
	off  int // byte offset of text[0] in the body
	// lines maps the start of each joined line in text to its offset in
	// the body.
	lines []span
}

type span struct{ text, body int }

// offset maps byte i of the item's text to its offset in the body.
func (it item) offset(i int) int {
	if len(it.lines) == 0 {
		return it.off
	}
	k := sort.Search(len(it.lines), func(k int) bool { return it.lines[k].text > i }) - 1
	if k < 0 {
		k = 0
	}
	return it.lines[k].body + i - it.lines[k].text
}

// blockText joins a block's source lines with single spaces.
func blockText(n ast.Node, src []byte) item {
	lines := n.Lines()
	if lines.Len() == 1 {
		seg := lines.At(0)
		raw := bytes.TrimRight(seg.Value(src), "\r\n")
		return item{text: string(raw), off: seg.Start, lines: []span{{0, seg.Start}}}
	}
	var sb strings.Builder
	it := item{lines: make([]span, 0, lines.Len())}
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		raw, start := seg.Value(src), seg.Start
		if i > 0 {
			trimmed := bytes.TrimLeft(raw, " \t")
			start += len(raw) - len(trimmed)
			raw = trimmed
			sb.WriteByte(' ')
		}
		it.lines = append(it.lines, span{text: sb.Len(), body: start})
		sb.Write(bytes.TrimRight(raw, "\r\n"))
	}
	it.text = sb.String()
	if len(it.lines) > 0 {
		it.off = it.lines[0].body
	}
	return it
}

// firstBlock returns the first child of a list item that holds text.
func firstBlock(li ast.Node) ast.Node {
	for c := li.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.Kind() {
		case ast.KindParagraph, ast.KindTextBlock:
			return c
		}
	}
	return nil
}

// walkText calls fn for every block whose text may hold wikilinks:
// paragraphs, text blocks and headings, never code or raw HTML.
func walkText(n ast.Node, fn func(ast.Node)) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.Kind() {
		case ast.KindParagraph, ast.KindTextBlock, ast.KindHeading:
			fn(c)
		case ast.KindFencedCodeBlock, ast.KindCodeBlock, ast.KindHTMLBlock:
		default:
			walkText(c, fn)
		}
	}
}

func parseMarkdown(p gparser.Parser, src []byte) ast.Node {
	return p.Parse(text.NewReader(src))
}

// headingText is the text of a heading without markers.
func headingText(h ast.Node, src []byte) string {
	return strings.TrimSpace(strings.TrimRight(blockText(h, src).text, "# "))
}
