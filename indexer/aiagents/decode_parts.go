package aiagents

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/note"
)

// The schema's enums (.claude/skills/memory/resources/schemas/
// episode.schema.json, unchanged from 2026-01 to 2026-08).
var eventTypes = []string{"tool_call", "error", "milestone", "handoff", "commit", "test"}

// decisionTypes are the schema's decision types: engram's (SPEC §2.1)
// less "other", which the schema does not have. Made once: decode reads
// them for every decision.
var decisionTypes = schemaDecisionTypes()

func schemaDecisionTypes() []string {
	var out []string
	for _, t := range note.DecisionTypes() {
		if t != note.DecisionOther {
			out = append(out, string(t))
		}
	}
	return out
}

// decisionItem is a decision before its effects are checked against the
// ids of the episode.
type decisionItem struct {
	dec     note.Decision
	name    string // for messages: "decision d001", or "decision #2" without id
	idOff   int
	effects []ref
}

// eventItem is an event before its links are checked.
type eventItem struct {
	ev                note.Event
	name              string
	idOff             int
	t                 time.Time // zero when the timestamp is not a date
	tsOff             int
	causedBy, leadsTo []ref
}

// part reads the keys of one object (the episode, a decision, an event)
// through its table, and collects the names of the required ones that
// are missing, to report them in one diagnostic.
type part struct {
	d       *decoder
	v       *value
	f       fields
	kind    string // "decision", "event"
	name    string // "decision d001", "event e003"
	need    func(key string) need
	missing []string
}

// text reads a string key, noting it missing as the table's need says.
func (p *part) text(key string) (string, *value) {
	n := p.need(key)
	s, v, missing := p.d.text(p.f, key, p.name+" "+key)
	if missing && (n == nonBlank || n == present && (v == nil || v.kind == kindNull)) {
		p.missing = append(p.missing, key)
	}
	return s, v
}

// id reads the part's id, which names it in later messages.
func (p *part) id() (string, int) {
	id, v := p.text("id")
	if id == "" {
		return "", 0
	}
	p.name = p.kind + " " + id
	return id, v.off
}

// enum reads the type, which should be one of values; another is kept.
func (p *part) enum(values []string, rule string) string {
	s, v := p.text("type")
	if s != "" && !slices.Contains(values, strings.ToLower(s)) {
		p.d.report(v.off, note.Info, rule, "%s type %q is not %s; kept as written", p.name, s, orList(values))
	}
	return s
}

// orList is "a, b or c".
func orList(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// strings reads a list of strings.
func (p *part) strings(key string) []string {
	var out []string
	for _, r := range p.d.refs(p.f, key, p.name+" "+key) {
		out = append(out, r.id)
	}
	return out
}

func (p *part) timestamp() (string, time.Time, int) {
	s, v := p.text("timestamp")
	if s == "" {
		return "", time.Time{}, 0
	}
	t, norm := p.d.time(s, v.off, p.name+" timestamp")
	return norm, t, v.off
}

// done reports the missing fields at the part's opening brace.
func (p *part) done(v *value) {
	if len(p.missing) > 0 {
		p.d.report(v.off, note.Warning, "aiagents-missing-field", "%s has no %s", p.name, strings.Join(p.missing, ", "))
	}
}

// newPart starts reading a decision or an event (kind) through its
// table; keys outside the table are reported.
func newPart[R, N, F any](d *decoder, v *value, table []field[R, N, F], kind string, i int) *part {
	p := &part{d: d, v: v, f: d.object(v), kind: kind, name: fmt.Sprintf("%s #%d", kind, i+1), need: needOf(table)}
	folded := foldKeys(d, v, p.f, table, kind)
	for i := range v.members {
		if m := &v.members[i]; !known(table, m.key) && !folded[m] {
			d.report(m.off, note.Info, "aiagents-unknown-field", "%s field %q is not one engram reads; dropped", kind, m.key)
		}
	}
	return p
}

func needOf[R, N, F any](table []field[R, N, F]) func(string) need {
	return func(key string) need {
		if row := rowOf(table, key); row != nil {
			return row.need
		}
		return optional
	}
}

// objects reads an array of objects (decisions, events): each element
// through each, an element that is not an object reported as a wrong type
// (what names it) and left out.
func objects[T any](d *decoder, f fields, key, what string, each func(v *value, i int) T) []T {
	var out []T
	for i, v := range d.list(f, key, key) {
		if v.kind != kindObject {
			d.wrongType(v, what, "an object")
			continue
		}
		out = append(out, each(v, i))
	}
	return out
}

func (d *decoder) decision(v *value, i int) decisionItem {
	p := newPart(d, v, decisionFields, "decision", i)
	var it decisionItem
	it.dec.Line, _ = d.lines.pos(v.off)
	read(p, decisionFields, &it)
	it.name = p.name
	it.dec.Title = firstNonEmpty(shorten(it.dec.Context), shorten(it.dec.Chosen), it.dec.ID)
	p.done(v)
	return it
}

// decisionContext reads context, or summary where a writer put that
// instead.
func (d *decoder) decisionContext(p *part) string {
	summary, sv, _ := d.text(p.f, "summary", p.name+" summary")
	context, cv, _ := d.text(p.f, "context", p.name+" context")
	switch {
	case context != "":
		if summary != "" {
			d.report(sv.off, note.Info, "aiagents-unknown-field", "%s has both context and summary; summary is dropped", p.name)
		}
	case summary != "":
		return summary
	case cv == nil || cv.kind == kindNull:
		p.missing = append(p.missing, "context")
	}
	return context
}

func (d *decoder) event(v *value, i int) eventItem {
	p := newPart(d, v, eventFields, "event", i)
	var it eventItem
	it.ev.Line, _ = d.lines.pos(v.off)
	read(p, eventFields, &it)
	it.name = p.name
	p.done(v)
	return it
}

// maxTitle is how many characters of a decision's context make its title.
const maxTitle = 80

// shorten returns the first line of s, cut at a word boundary to at most
// maxTitle characters.
func shorten(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= maxTitle {
		return s
	}
	r := []rune(s)[:maxTitle-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > maxTitle/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.-") + "…"
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
