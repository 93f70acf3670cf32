package parse

import (
	"fmt"
	"strings"
)

// Markdown cost (SPEC §6, "cost is bounded per note"). CommonMark parsers
// do more than linear work on some text: goldmark opens containers in time
// quadratic in how many one line opens ("> > > …", "- - - … x"), and
// matches emphasis delimiters, link labels, link destinations and code
// spans in time quadratic in their number within one paragraph
// ("**a_**a_…", "[a](<b[a](<b…", "[[[[…]]]]", "\```" on every line).
// markdownCost decides in one linear pass, before any parser runs, whether
// text stays within a budget: at most MaxDepth containers opened by one
// line, and, in every paragraph, inline work at most inlineCostPerByte
// times its size. The work of a paragraph of m bytes on l lines is
// estimated as d² + o·(m + lineCost·l), where d counts emphasis delimiters
// and link label openers, and o the openers that may scan to the end of
// the paragraph: a link destination or reference that does not close on
// its line, a code span opener that never closes, and a sixteenth for
// each reference definition (read again for each one before it). The
// estimate errs high: paragraphs are split only where a parser surely
// splits them. Within the budget every note costs time linear in its size;
// text over it is shown as plain text.
//
// Wikilinks cost linear time, but far more than their bytes: each of
// "[[a]]"'s five bytes becomes a resolved link in the note's JSON and an
// anchor on its page, some sixty bytes of output and its share of every
// later stage. A paragraph that holds more than maxParagraphLinks is
// shown as plain text and its links are not read: prose holds a few, and
// 150,000 on one line (750 KB, under the size cap) took seconds of every
// stage of a build. A list holds each item's links apart, however long.
const (
	inlineCostPerByte = 64
	lineCost          = 64 // a parser's scan costs about this many bytes' work per line
	maxParagraphLinks = 10000
)

// costly says where and why markdown is over its budget; whole means the
// problem is the whole text (its block structure, or its number of
// links), so that it must not be read at all, not even by a block parser.
type costly struct {
	off   int
	why   string
	whole bool
}

// MarkdownWithinBudget reports whether src can be parsed and rendered as
// markdown in time linear in its size; text that cannot is shown as plain
// text, and the parse stage reports it as [markdown-cost].
func MarkdownWithinBudget(src string) bool {
	_, over := markdownCost(src)
	return !over
}

func markdownCost(src string) (costly, bool) {
	var c costScan
	for start := 0; start < len(src); {
		end := strings.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		if r, over := c.line(src[start:end], start); over {
			return r, true
		}
		start = end + 1
	}
	return c.endBlock()
}

// costScan is the state of markdownCost between lines: the fenced code
// block it is in, and the paragraph it is adding up.
type costScan struct {
	fence    byte // '`' or '~' inside a fenced code block, else 0
	fenceLen int
	fenceQ   int // blockquote markers before the fence
	fenceCol int // column of the fence

	inBlock bool
	start   int  // offset of the paragraph's first line
	q       int  // blockquote markers open around it
	ordered int  // 1 + indent of its first line when that is an ordered item
	delim   byte // and that item's delimiter, '.' or ')'
	size    int
	lines   int
	delims  int
	scans   int         // in sixteenths
	ticks   []tickRun   // backtick runs
	last    map[int]int // the last backtick run of each length

	links int // wikilinks in the paragraph
}

// tickRun is a run of backticks in a paragraph: where, how long as a code
// span opener (an escaped first backtick is text) and as a closer.
type tickRun struct{ at, open, close int }

// prefix is what opens a line: blockquote and list markers.
type prefix struct {
	q       int // '>' markers before any list marker
	qEnd    int // offset after them
	qCol    int // column after them
	markers int // all container markers
	spaces  int // columns of blank between them, beyond one after each
	list    bool
	listCol int  // column of the first list marker
	ordered bool // that marker is ordered
	first   bool // that marker is "1." or "1)"
	delim   byte // its delimiter, '.' or ')'
	content int  // offset of the text after the markers
	// indent is how far the text is indented in its container: past a
	// list marker up to 4 blanks belong to the marker, past '>' one.
	indent int
}

func (c *costScan) line(s string, off int) (costly, bool) {
	if c.fence != 0 && c.inFence(s) {
		return costly{}, false
	}
	c.fence = 0
	p := linePrefix(s)
	if d := p.markers + p.spaces/2; p.markers > 0 && d > MaxDepth {
		return costly{off: off, why: fmt.Sprintf("one line opens %d nested blocks, over the limit of %d", d, MaxDepth), whole: true}, true
	}
	if isBlank(s[p.qEnd:]) || isThematicBreak(s[p.qEnd:], p.q > 0) {
		return c.endBlock()
	}
	text, indent := s[p.content:], p.indent
	opens := p.list && c.opensItem(p, text)
	if p.list && !opens {
		// The markers are text that continues the paragraph ("2." cannot
		// interrupt one).
		text, indent = strings.TrimLeft(s[p.qEnd:], " \t"), 4
	}
	if indent <= 3 && isThematicBreak(text, false) {
		return c.endBlock() // a list item that holds a thematic break
	}
	if n, ch, ok := fenceOpen(text); ok && indent <= 3 {
		r, over := c.endBlock()
		c.fence, c.fenceLen, c.fenceQ, c.fenceCol = ch, n, p.q, column(s, len(s)-len(text))
		return r, over
	}
	heading := indent <= 3 && isHeading(text)
	if !c.inBlock || p.q > c.q || opens || heading {
		if r, over := c.endBlock(); over {
			return r, true
		}
		c.inBlock, c.start, c.q, c.ordered = true, off, p.q, 0
		if opens && p.ordered {
			c.ordered, c.delim = 1+p.listCol-p.qCol, p.delim
		}
	}
	// A line with fewer '>' continues the paragraph lazily: its quotes
	// stay open, and a later line with more '>' is still in them.
	c.q = max(c.q, p.q)
	c.inline(text, c.size+len(s)-len(text))
	if c.links > maxParagraphLinks {
		return costly{off: c.start, why: fmt.Sprintf("a paragraph holds more than %d wikilinks, too many to publish as links; its links are not read", maxParagraphLinks), whole: true}, true
	}
	c.size += len(s) + 1
	c.lines++
	if heading {
		return c.endBlock()
	}
	return costly{}, false
}

// opensItem reports whether the list marker that opens line p starts a
// list item, so that a parser surely ends the paragraph before it: a
// bullet, or "1.", with text, indented at most 3 columns, or a further
// item of the ordered list whose item the paragraph began in, at the same
// indent. Any other marker is taken as text of the paragraph, which errs
// high.
func (c *costScan) opensItem(p prefix, text string) bool {
	if p.listCol-p.qCol > 3 {
		return false
	}
	if !c.inBlock || p.q > c.q {
		return true
	}
	if isBlank(text) {
		return false
	}
	return !p.ordered || p.first || (c.ordered == 1+p.listCol-p.qCol && c.delim == p.delim)
}

// inFence reports whether line s is inside the fenced code block, closing
// it at its closing fence. Only a line with the same blockquote markers,
// indented at least as far as the fence, counts as inside: a parser may
// end the block sooner (its list item ended) but never later.
func (c *costScan) inFence(s string) bool {
	i, col := 0, 0
	for q := 0; q < c.fenceQ; q++ {
		j, jcol := skipBlank(s, i, col)
		if j == len(s) || s[j] != '>' {
			return false
		}
		i, col = j+1, jcol+1
	}
	j, jcol := skipBlank(s, i, col)
	if j == len(s) {
		return true // a blank line
	}
	if jcol < c.fenceCol {
		return false
	}
	if n := run(s[j:], c.fence); n >= c.fenceLen && isBlank(s[j+n:]) {
		c.fence = 0
	}
	return true
}

// endBlock ends the paragraph being added up, and reports it when its
// inline work passes the budget.
func (c *costScan) endBlock() (costly, bool) {
	if !c.inBlock {
		return costly{}, false
	}
	m, d, o := c.size, c.delims, c.scans/16+c.openCodeSpans()
	work := d*d + o*(m+lineCost*c.lines)
	start := c.start
	c.inBlock, c.size, c.lines, c.delims, c.scans, c.ticks, c.links = false, 0, 0, 0, 0, c.ticks[:0], 0
	if work > inlineCostPerByte*m {
		return costly{off: start, why: fmt.Sprintf("a paragraph of %d bytes holds %d emphasis or link openers and %d links or code spans that do not close nearby, which a markdown parser matches in quadratic time", m, d, o)}, true
	}
	return costly{}, false
}

// openCodeSpans counts the backtick runs of the paragraph that open a
// code span no later run of the same length closes: a parser looks for
// the closer to the end of the paragraph, line by line, for each one.
func (c *costScan) openCodeSpans() int {
	if len(c.ticks) == 0 {
		return 0
	}
	if c.last == nil {
		c.last = map[int]int{}
	}
	clear(c.last)
	for _, r := range c.ticks {
		c.last[r.close] = r.at
	}
	n := 0
	for _, r := range c.ticks {
		if last, ok := c.last[r.open]; r.open > 0 && (!ok || last <= r.at) {
			n++
		}
	}
	return n
}

// inline counts the openers in one line of a paragraph; at is the offset
// of t in the paragraph.
func (c *costScan) inline(t string, at int) {
	if strings.HasPrefix(t, "[") && strings.Contains(t, "]:") {
		c.scans++ // a reference definition is read again for each one before it
	}
	for k := 0; k < len(t); k++ {
		switch t[k] {
		case '\\':
			k++
			if k < len(t) && t[k] == '`' {
				// The escaped backtick is text, but a closer is sought
				// in the raw text, where the whole run counts.
				n := run(t[k:], '`')
				c.ticks = append(c.ticks, tickRun{at: at + k, open: n - 1, close: n})
				k += n - 1
			}
		case '[':
			if n := wikilinkLen(t[k:]); n > 0 {
				c.links++
				k += n - 1
				continue
			}
			c.delims++
		case ']':
			if k+1 < len(t) && (t[k+1] == '(' || t[k+1] == '[') && !closesSoon(t[k+2:], t[k+1]) {
				c.scans += 16
			}
		case '*', '_':
			n := run(t[k:], t[k])
			if end := emphasisPair(t, k, n); end > 0 {
				k = end - 1
				continue
			}
			if t[k] == '*' || !(k > 0 && isAlnum(t[k-1]) && k+n < len(t) && isAlnum(t[k+n])) {
				c.delims++
			}
			k += n - 1
		case '`':
			n := run(t[k:], '`')
			c.ticks = append(c.ticks, tickRun{at: at + k, open: n, close: n})
			k += n - 1
		}
	}
}

// emphasisPair returns the end of "*word*", "**two words**" or "_word_"
// when the delimiter run of n at t[k] plainly opens emphasis that the next
// delimiter on its line plainly closes, else 0. A parser matches such a
// pair at once and forgets it, so it costs nothing later. Plainly: the
// opener follows a blank or punctuation and precedes a letter or digit,
// the closer the reverse, both ASCII, of one length of 1 or 2, with
// nothing between that could be markup.
func emphasisPair(t string, k, n int) int {
	if n > 2 || k+n >= len(t) || !isAlnum(t[k+n]) || (k > 0 && (isAlnum(t[k-1]) || t[k-1] >= 0x80 || t[k-1] == '\\')) {
		return 0
	}
	i := k + n + strings.IndexAny(t[k+n:], "*_[]`<\\")
	if i < k+n || t[i] != t[k] || run(t[i:], t[k]) != n || !isAlnum(t[i-1]) {
		return 0
	}
	if end := i + n; end == len(t) || t[end] == ' ' || t[end] == '\t' || (t[end] < 0x80 && !isAlnum(t[end]) && t[end] != t[k]) {
		return end
	}
	return 0
}

// closesSoon reports whether the link destination or reference label
// after "](" or "][" plainly ends within a short distance on its line: a
// link written as most are, which a parser reads in no more time than its
// length.
func closesSoon(t string, open byte) bool {
	end := byte(')')
	stop := " \t<(\"'\\"
	if open == '[' {
		end, stop = ']', "[\\"
	}
	for i := 0; i < len(t) && i < 256; i++ {
		switch {
		case t[i] == end:
			return true
		case strings.IndexByte(stop, t[i]) >= 0:
			return false
		}
	}
	return false
}

// wikilinkLen is the length of the [[…]] at the start of t, 0 if none:
// the renderer takes it whole, so its brackets open nothing.
func wikilinkLen(t string) int {
	if !strings.HasPrefix(t, "[[") {
		return 0
	}
	end := strings.IndexAny(t[2:], "[]")
	if end < 1 || !strings.HasPrefix(t[2+end:], "]]") {
		return 0
	}
	return end + 4
}

// isAlnum reports an ASCII letter or digit: an underscore between two
// opens and closes nothing ("snake_case"). Beside other text, which may be
// a Unicode blank or punctuation, it is counted.
func isAlnum(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// linePrefix reads the container markers that open line s.
func linePrefix(s string) prefix {
	var p prefix
	i, col := 0, 0
	lastList := false
	for {
		j, jcol := skipBlank(s, i, col)
		gap := jcol - col
		if p.markers > 0 {
			gap-- // the blank that belongs to the marker
		}
		p.indent = max(gap, 0)
		if lastList && gap < 4 {
			p.indent = 0
		}
		if j == len(s) {
			p.content = j
			return p
		}
		n, ordered := listMarker(s[j:])
		switch {
		case s[j] == '>':
			if !p.list {
				p.q, p.qEnd, p.qCol = p.q+1, j+1, jcol+1
			}
			n, lastList = 1, false
		case n > 0:
			lastList = true
			if !p.list {
				p.list, p.listCol, p.ordered, p.first, p.delim = true, jcol, ordered, s[j] == '1' && n == 2, s[j+n-1]
			}
		default:
			p.content = j
			return p
		}
		p.markers++
		p.spaces += max(gap, 0)
		i, col = j+n, jcol+n
	}
}

// listMarker returns the length of the list marker at the start of t
// ("-", "+", "*", or up to 9 digits and "." or ")") when a blank or the
// end of the line follows it, else 0.
func listMarker(t string) (n int, ordered bool) {
	switch {
	case t[0] == '-' || t[0] == '+' || t[0] == '*':
		n = 1
	case t[0] >= '0' && t[0] <= '9':
		for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
			n++
		}
		if n == len(t) || (t[n] != '.' && t[n] != ')') {
			return 0, false
		}
		n, ordered = n+1, true
	default:
		return 0, false
	}
	if n < len(t) && t[n] != ' ' && t[n] != '\t' {
		return 0, false
	}
	return n, ordered
}

// skipBlank skips spaces and tabs from s[i], at column col; a tab moves
// to the next multiple of 4.
func skipBlank(s string, i, col int) (int, int) {
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return i, col
		}
	}
	return i, col
}

// column is the column of s[i].
func column(s string, i int) int {
	col := 0
	for k := 0; k < i; k++ {
		if s[k] == '\t' {
			col += 4 - col%4
		} else {
			col++
		}
	}
	return col
}

func run(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// fenceOpen reads the opening of a fenced code block.
func fenceOpen(t string) (int, byte, bool) {
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return 0, 0, false
	}
	n := run(t, t[0])
	if n < 3 || (t[0] == '`' && strings.IndexByte(t[n:], '`') >= 0) {
		return 0, 0, false
	}
	return n, t[0], true
}

// isThematicBreak reports whether t, the line after its blockquote
// markers, is a thematic break ("---", "* * *").
func isThematicBreak(t string, quoted bool) bool {
	j, col := skipBlank(t, 0, 0)
	if quoted && col > 0 {
		col--
	}
	t = t[j:]
	if col > 3 || len(t) < 3 || (t[0] != '-' && t[0] != '*' && t[0] != '_') {
		return false
	}
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case t[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

func isHeading(t string) bool {
	n := run(t, '#')
	return n >= 1 && n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t')
}

// isBlank reports whether t holds only spaces and tabs, as CommonMark
// defines a blank line (a no-break space is text).
func isBlank(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] != ' ' && t[i] != '\t' {
			return false
		}
	}
	return true
}
