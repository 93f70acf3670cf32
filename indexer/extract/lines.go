package extract

import (
	"regexp"
	"strings"
)

// line is one line of a session log with what the scanners need to know
// about it: its place in the heading tree, and whether it is a heading, a
// table row, code, a list item or a bold field.
type line struct {
	n      int    // 1-based line number in the file
	text   string // the line as written (tabs kept)
	trim   string // text without surrounding white space
	level  int    // heading level 1..6, or 0
	head   string // heading text, when level > 0
	table  bool   // a table row "| … |"
	code   bool   // inside a fenced code block, or a fence line
	item   bool   // a list item
	indent int    // columns of indentation; a tab counts 4
	body   string // list item text without its marker, else trim
	check  int    // list item checkbox: 0 none, 1 "[ ]", 2 "[x]"
	key    string // bold field "**Key**: value": the key
	val    string // and its value
	path   []int  // indexes (in doc.lines) of the enclosing headings, outermost first
	header bool   // in the log's header (before the first level-2 heading, or in Session Info)
	proto  bool   // in a section about the protocol or the repository, not the work
	later  bool   // in a section of work left for later ("Follow-up Actions", "Next Steps")
}

var (
	headingRE  = regexp.MustCompile(`^(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$`)
	fenceRE    = regexp.MustCompile("^(`{3,}|~{3,})")
	itemRE     = regexp.MustCompile(`^(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)`)
	checkRE    = regexp.MustCompile(`^\[([ xX])\](?:[ \t]+|$)`)
	boldKeyRE  = regexp.MustCompile(`^\*\*([^*]{1,80}?)(:?)\*\*(:?)[ \t]*(.*)$`)
	commentRE  = regexp.MustCompile(`<!--.*?-->`)
	headFldRE  = regexp.MustCompile(`(?i)^(status|outcome|result)\s*:\s*(.+)$`)
	tableSepRE = regexp.MustCompile(`^\|?[\s:|-]+\|?$`)
)

// doc is a session log split into lines.
type doc struct {
	lines   []line
	firstH2 int // index of the first level-2 heading, or len(lines)
}

// newDoc splits normalised text (LF line ends, valid UTF-8) into lines.
func newDoc(src string) *doc {
	raw := strings.Split(src, "\n")
	d := &doc{lines: make([]line, 0, len(raw))}
	var stack []int // heading indexes by level
	fence := ""
	for i, text := range raw {
		l := line{n: i + 1, text: text, trim: strings.TrimSpace(text)}
		l.indent = indentOf(text)
		switch {
		case fence != "":
			l.code = true
			if strings.HasPrefix(l.trim, fence) && strings.Trim(l.trim, fence[:1]) == "" {
				fence = ""
			}
		case fenceRE.MatchString(l.trim):
			l.code = true
			m := fenceRE.FindString(l.trim)
			fence = m
		case l.indent < 4 && headingRE.MatchString(l.trim):
			m := headingRE.FindStringSubmatch(l.trim)
			l.level = len(m[1])
			l.head = cleanHeading(m[2])
		case strings.HasPrefix(l.trim, "|"):
			l.table = true
		}
		if !l.code && l.level == 0 && !l.table {
			l.body = l.trim
			if m := itemRE.FindString(l.trim); m != "" {
				l.item = true
				l.body = strings.TrimSpace(l.trim[len(m):])
				if c := checkRE.FindStringSubmatch(l.body); c != nil {
					l.check = 1
					if c[1] != " " {
						l.check = 2
					}
					l.body = strings.TrimSpace(l.body[len(c[0]):])
				}
			}
			l.key, l.val = boldField(l.body)
		}
		for len(stack) > 0 && l.level > 0 && d.lines[stack[len(stack)-1]].level >= l.level {
			stack = stack[:len(stack)-1]
		}
		l.path = append([]int(nil), stack...)
		if l.level > 0 {
			stack = append(stack, i)
		}
		d.lines = append(d.lines, l)
	}
	d.firstH2 = len(d.lines)
	for i, l := range d.lines {
		if l.level == 2 {
			d.firstH2 = i
			break
		}
	}
	for i := range d.lines {
		l := &d.lines[i]
		l.header = i < d.firstH2 || d.under(i, infoHeadRE)
		l.proto = len(l.path) > 0 && notWorkRE.MatchString(d.lines[l.path[len(l.path)-1]].head)
		l.later = d.under(i, laterRE)
	}
	return d
}

// boldField reads "**Key**: value" or "**Key:** value"; the colon is what
// makes bold text a field rather than emphasis.
func boldField(s string) (key, val string) {
	m := boldKeyRE.FindStringSubmatch(s)
	if m == nil || (m[2] == "" && m[3] == "") {
		return "", ""
	}
	return strings.TrimSpace(m[1]), strings.TrimSpace(m[4])
}

// headField reads a heading that is itself a field: "### Status: ✅ COMPLETE".
func headField(head string) (key, val string, ok bool) {
	m := headFldRE.FindStringSubmatch(head)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

func cleanHeading(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, "**", ""))
}

func indentOf(s string) int {
	n := 0
	for _, r := range s {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n
		}
	}
	return n
}

// under reports whether line i lies in a section whose heading (at any
// level above it) matches re.
func (d *doc) under(i int, re *regexp.Regexp) bool {
	for _, h := range d.lines[i].path {
		if re.MatchString(d.lines[h].head) {
			return true
		}
	}
	return false
}

// notWork reports whether line i is in a section about the protocol or
// the repository rather than the work (its nearest heading is "Git
// State", "Session Start (COMPLETE ALL before work)", …).
func (d *doc) notWork(i int) bool { return d.lines[i].proto }

// heading returns the text of the nearest heading above line i that is
// not matched by skip (nil: any), or "".
func (d *doc) heading(i int, skip *regexp.Regexp) string {
	p := d.lines[i].path
	for k := len(p) - 1; k >= 0; k-- {
		h := d.lines[p[k]].head
		if skip == nil || !skip.MatchString(h) {
			return h
		}
	}
	return ""
}

// sectionEnd returns the index after the last line of the section that
// heading h opens.
func (d *doc) sectionEnd(h int) int {
	for i := h + 1; i < len(d.lines); i++ {
		if l := d.lines[i]; l.level > 0 && l.level <= d.lines[h].level {
			return i
		}
	}
	return len(d.lines)
}

// tableCells splits a table row into trimmed cells; a separator row gives
// nil.
func tableCells(s string) []string {
	s = strings.TrimSpace(s)
	if tableSepRE.MatchString(s) {
		return nil
	}
	s = strings.TrimPrefix(strings.TrimSuffix(s, "|"), "|")
	cells := strings.Split(s, "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(strings.ReplaceAll(cells[i], "**", ""))
	}
	return cells
}

// block is the content that follows a label ("**Decisions made**:" or a
// "### Decisions" heading): its top-level list items, each with the text
// of its nested items, or else its first paragraph as one item.
type block struct {
	items []blockItem
	end   int // index after the block's last line
}

type blockItem struct {
	text  string   // the item's own text
	sub   []string // nested items and continuation lines
	first int      // index of the item's first line
	lines []int    // every line index the item covers
}

// listAfter collects the block that starts at line i (the line after the
// label), stopping at a heading, a table, code, a new bold label or the
// end of the list. One blank line may separate the label from its list.
func (d *doc) listAfter(i, limit int) block {
	for i < limit && d.lines[i].trim == "" {
		i++
	}
	if i >= limit {
		return block{end: i}
	}
	if !d.lines[i].item {
		return d.paragraphAfter(i, limit)
	}
	base := d.lines[i].indent
	var b block
	blank := false
	for ; i < limit; i++ {
		l := d.lines[i]
		if l.level > 0 || l.table || l.code {
			break
		}
		if l.trim == "" {
			blank = true
			continue
		}
		switch {
		case l.item && l.indent <= base:
			b.items = append(b.items, blockItem{text: l.body, first: i, lines: []int{i}})
		case len(b.items) > 0 && (l.indent > base || (!blank && !isLabel(l))):
			it := &b.items[len(b.items)-1]
			it.sub = append(it.sub, l.body)
			it.lines = append(it.lines, i)
		default:
			b.end = i
			return b
		}
		blank = false
	}
	b.end = i
	return b
}

// paragraphAfter takes the paragraph starting at line i as one item.
func (d *doc) paragraphAfter(i, limit int) block {
	var it blockItem
	it.first = i
	for ; i < limit; i++ {
		l := d.lines[i]
		if l.trim == "" || l.level > 0 || l.table || l.code || l.item || (len(it.lines) > 0 && isLabel(l)) {
			break
		}
		if it.text == "" {
			it.text = l.body
		} else {
			it.sub = append(it.sub, l.body)
		}
		it.lines = append(it.lines, i)
	}
	if len(it.lines) == 0 {
		return block{end: i}
	}
	return block{items: []blockItem{it}, end: i}
}

// isLabel reports a bold field line without a value: "**Files changed**:".
func isLabel(l line) bool {
	return l.key != "" && l.val == "" && !l.item
}
