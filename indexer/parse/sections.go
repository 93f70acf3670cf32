package parse

import (
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"
	gparser "github.com/yuin/goldmark/parser"

	"github.com/engramhq/engram/indexer/note"
)

// sectionKind says how the list items of a level-2 section are read.
type sectionKind int

const (
	secProse sectionKind = iota
	secObservations
	secDecisions
	secEvents
	secLessons
	secRelations
	secCausal
	secEvidence
)

var sectionKinds = map[string]sectionKind{
	"observations":         secObservations,
	"decisions":            secDecisions,
	"events timeline":      secEvents,
	"events":               secEvents,
	"timeline":             secEvents,
	"lessons learned":      secLessons,
	"lessons":              secLessons,
	"relations":            secRelations,
	"causal relationships": secCausal,
	"evidence episodes":    secEvidence,
	"evidence":             secEvidence,
}

// walker reads the body of one note.
type walker struct {
	s        *state
	b        *body
	kind     sectionKind
	heading  string
	start    int // body line (0-based) where the current section's text starts
	headLine int // absolute line of the current heading
	decision *note.Decision
}

func (s *state) body(md gparser.Parser, src []byte, firstLine int) {
	b := newBody(src, firstLine)
	if !s.withinBudget(b) {
		return
	}
	doc := parseMarkdown(md, src)
	w := &walker{s: s, b: b}
	w.skipTitle(doc)
	walkText(doc, w.links)
	w.misplacedPrivacy(doc)
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.Kind() {
		case ast.KindHeading:
			w.heading2or3(c.(*ast.Heading))
		case ast.KindList:
			w.list(c)
		}
	}
	w.flush(len(b.lineStarts))
	w.closeDecision()
}

// withinBudget reports markdown that costs more than linear time to parse
// or render (SPEC §6): the site shows it as plain text. When its block
// structure or its number of links is the problem, the body is not parsed
// at all: it is kept as one section of text, with no observations,
// relations or links read.
func (s *state) withinBudget(b *body) bool {
	for _, f := range s.markdownFields() {
		if c, over := markdownCost(f.text); over {
			s.diags.Report(s.path, 1, 1, note.Warning, "markdown-cost", "front matter %s: %s; shown as plain text", f.key, c.why)
		}
	}
	c, over := markdownCost(string(b.src))
	if !over {
		return true
	}
	line, col := b.pos(c.off)
	s.diags.Report(s.path, line, col, note.Warning, "markdown-cost", "%s; shown as plain text", c.why)
	if !c.whole {
		return true
	}
	if md := strings.TrimSpace(string(b.src)); md != "" {
		s.n.Sections = append(s.n.Sections, note.Section{Markdown: md, Line: b.firstLine})
	}
	return false
}

// markdownFields are the front matter fields the site renders as markdown.
func (s *state) markdownFields() []struct{ key, text string } {
	switch {
	case s.n.Episode != nil:
		return []struct{ key, text string }{{"task", s.n.Episode.Task}}
	case s.n.Pattern != nil:
		return []struct{ key, text string }{{"trigger", s.n.Pattern.Trigger}, {"action", s.n.Pattern.Action}}
	}
	return nil
}

// report reports a problem at a byte offset of the body.
func (w *walker) report(off int, sev note.Severity, rule, format string, args ...any) {
	line, col := w.b.pos(off)
	w.s.diags.Report(w.s.path, line, col, sev, rule, format, args...)
}

func (w *walker) heading2or3(h *ast.Heading) {
	if h.Lines().Len() == 0 {
		return
	}
	line, _ := w.b.pos(h.Lines().At(0).Start)
	rel := line - w.b.firstLine
	switch {
	case h.Level == 2:
		w.flush(rel)
		w.closeDecision()
		w.heading = headingText(h, w.b.src)
		w.kind = w.sectionKind(w.heading)
		w.headLine = line
		w.start = w.after(h)
	case h.Level == 3 && w.kind == secDecisions:
		w.closeDecision()
		w.openDecision(headingText(h, w.b.src), line)
	}
}

// after is the body line (0-based) after a heading that has text: after
// its underline when it is a setext heading.
func (w *walker) after(h *ast.Heading) int {
	line, _ := w.b.pos(h.Lines().At(0).Start)
	rel := line - w.b.firstLine
	if strings.HasPrefix(strings.TrimLeft(w.b.lineText(rel), " "), "#") {
		return rel + 1
	}
	return rel + h.Lines().Len() + 1
}

// skipTitle leaves out a level-1 heading that starts the body and says
// the note's title: the page shows the title already. Any other heading
// is text of the note, kept.
func (w *walker) skipTitle(doc ast.Node) {
	h, ok := doc.FirstChild().(*ast.Heading)
	if ok && h.Level == 1 && h.Lines().Len() > 0 && strings.EqualFold(headingText(h, w.b.src), w.s.n.Title) {
		w.start = w.after(h)
	}
}

// sectionKind maps a heading to how its items are read. Episode sections
// in other notes, and pattern sections in other notes, are plain prose.
func (w *walker) sectionKind(heading string) sectionKind {
	k := sectionKinds[strings.ToLower(heading)]
	switch k {
	case secDecisions, secEvents, secLessons:
		if w.s.n.Episode == nil {
			return secProse
		}
	case secCausal, secEvidence:
		if w.s.n.Pattern == nil {
			return secProse
		}
	}
	return k
}

// flush keeps the text of a prose section, up to body line end. A
// heading with nothing under it is kept too: it is text the author wrote
// ("Title" underlined by "---" is one).
func (w *walker) flush(end int) {
	if w.kind != secProse {
		return
	}
	var lines []string
	for i := w.start; i < end; i++ {
		lines = append(lines, w.b.lineText(i))
	}
	md := strings.TrimSpace(strings.Join(lines, "\n"))
	if md == "" && w.heading == "" {
		return
	}
	line := w.headLine
	if line == 0 {
		line = w.b.firstLine
	}
	w.s.n.Sections = append(w.s.n.Sections, note.Section{Heading: w.heading, Markdown: md, Line: line})
}

func (w *walker) list(l ast.Node) {
	for li := l.FirstChild(); li != nil; li = li.NextSibling() {
		if blk := firstBlock(li); blk != nil {
			w.item(blockText(blk, w.b.src))
		}
		for c := li.FirstChild(); c != nil; c = c.NextSibling() {
			if c.Kind() == ast.KindList {
				w.list(c)
			}
		}
	}
}

func (w *walker) item(it item) {
	text := strings.TrimSpace(it.text)
	switch w.kind {
	case secObservations:
		if checkboxRE.MatchString(text) {
			return // a task list item, not an observation
		}
		if !w.observationOrRelation(it) {
			w.report(it.off, note.Warning, "observation-syntax", "not an observation: write \"- [category] text #tag (context)\"")
		}
	case secRelations:
		if !w.observationOrRelation(it) {
			w.report(it.off, note.Warning, "relation-syntax", "not a relation: write \"- relation_type [[Target]] (context)\"")
		}
	case secDecisions:
		w.decisionField(it)
	case secEvents:
		w.event(it)
	case secLessons:
		if text != "" {
			line, _ := w.b.pos(it.off)
			w.s.n.Episode.Lessons = append(w.s.n.Episode.Lessons, note.Lesson{Text: text, Line: line})
		}
	case secCausal:
		w.causal(it)
	case secEvidence:
		w.evidence(it)
	default:
		w.observationOrRelation(it)
	}
}

func (w *walker) observationOrRelation(it item) bool {
	line, col := w.b.pos(it.off)
	if o, ok := observation(it.text); ok {
		o.Line = line
		w.s.n.Observations = append(w.s.n.Observations, o)
		return true
	}
	if r, ok := relation(it.text); ok {
		r.Line, r.Col = line, col
		w.s.n.Relations = append(w.s.n.Relations, r)
		return true
	}
	return false
}

// links records every wikilink of a block.
func (w *walker) links(n ast.Node) {
	it := blockText(n, w.b.src)
	for _, m := range wikilinkRE.FindAllStringSubmatchIndex(blankCode(it.text), -1) {
		l := splitLink(it.text[m[2]:m[3]])
		off := it.offset(m[0])
		if l.Target == "" {
			w.report(off, note.Warning, "link-empty", "wikilink has no target")
			continue
		}
		l.Line, l.Col = w.b.pos(off)
		w.s.n.Links = append(w.s.n.Links, l)
	}
}

func (w *walker) event(it item) {
	ts, text, typ, links, ok := event(strings.TrimSpace(it.text))
	if !ok {
		w.report(it.off, note.Warning, "event-syntax", "event has no [timestamp]: write \"[2026-08-04T09:15:00Z] text #type\"")
	}
	if ts != "" {
		if t, err := ParseTime(ts); err == nil {
			ts = t.Format("2006-01-02T15:04:05Z07:00")
		} else {
			w.report(it.off, note.Warning, "event-timestamp", "event timestamp %q is not a date; kept as written", ts)
		}
	}
	line, _ := w.b.pos(it.off)
	ep := w.s.n.Episode
	ep.Events = append(ep.Events, note.Event{ID: fmt.Sprintf("e%03d", len(ep.Events)+1), Timestamp: ts, Type: typ, Text: text,
		CausedBy: links.causedBy, LeadsTo: links.leadsTo, Line: line})
}
