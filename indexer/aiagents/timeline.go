package aiagents

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/note"
)

// The schema's enums (.claude/skills/memory/resources/schemas/
// episode.schema.json, unchanged from 2026-01 to 2026-08).
var (
	eventTypes    = map[string]bool{"tool_call": true, "error": true, "milestone": true, "handoff": true, "commit": true, "test": true}
	decisionTypes = map[string]bool{"design": true, "implementation": true, "test": true, "recovery": true, "routing": true}
)

// Keys of decisions and events that engram reads. _source_session is in
// the schema since 2026-08 and only serves the writer's own bookkeeping;
// summary is what a few writers put instead of context.
var (
	eventKeys = map[string]bool{
		"id": true, "timestamp": true, "type": true, "content": true,
		"caused_by": true, "leads_to": true, "_source_session": true,
	}
	decisionKeys = map[string]bool{
		"id": true, "timestamp": true, "type": true, "context": true, "options": true,
		"chosen": true, "rationale": true, "outcome": true, "effects": true, "summary": true,
	}
)

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

// part reads the fields of a decision or an event and collects the names
// of the required ones that are missing, to report them in one diagnostic.
type part struct {
	d       *decoder
	f       fields
	name    string // "decision d001", "event e003"
	missing []string
}

// need says when a field of a part counts as missing.
type need int

const (
	optional need = iota
	// present: absent or null is missing, but an empty string is free
	// text that happens to be empty (real decisions have "context": "").
	present
	// nonBlank: an empty string is not a valid id, date or enum value.
	nonBlank
)

func (p *part) text(key string, n need) (string, *value) {
	s, v, missing := p.d.text(p.f, key, p.name+" "+key)
	if missing && (n == nonBlank || n == present && (v == nil || v.kind == kindNull)) {
		p.missing = append(p.missing, key)
	}
	return s, v
}

func (p *part) timestamp() (string, time.Time, int) {
	s, v := p.text("timestamp", nonBlank)
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

func (d *decoder) newPart(v *value, keys map[string]bool, kind string, i int) *part {
	p := &part{d: d, f: d.object(v), name: fmt.Sprintf("%s #%d", kind, i+1)}
	for _, m := range v.members {
		if !keys[m.key] {
			d.report(m.off, note.Info, "aiagents-unknown-field", "%s field %q is not one engram reads; dropped", kind, m.key)
		}
	}
	return p
}

// objects reads an array of objects (decisions, events): each element
// through read, an element that is not an object reported as a wrong type
// (what names it) and left out.
func objects[T any](d *decoder, f fields, key, what string, read func(v *value, i int) T) []T {
	var out []T
	for i, v := range d.list(f, key, key) {
		if v.kind != kindObject {
			d.wrongType(v, what, "an object")
			continue
		}
		out = append(out, read(v, i))
	}
	return out
}

func (d *decoder) decision(v *value, i int) decisionItem {
	p := d.newPart(v, decisionKeys, "decision", i)
	var it decisionItem
	dec := &it.dec
	dec.Line, _ = d.lines.pos(v.off)
	id, idv := p.text("id", nonBlank)
	if id != "" {
		dec.ID, it.idOff, p.name = id, idv.off, "decision "+id
	}
	dec.Timestamp, _, _ = p.timestamp()
	dec.Type, _ = p.text("type", nonBlank)
	if dec.Type != "" && !decisionTypes[strings.ToLower(dec.Type)] {
		d.report(p.f["type"].val.off, note.Info, "aiagents-decision-type", "%s type %q is not design, implementation, test, recovery or routing; kept as written", p.name, dec.Type)
	}
	dec.Context = d.decisionContext(p)
	for _, o := range d.refs(p.f, "options", p.name+" options") {
		dec.Options = append(dec.Options, o.id)
	}
	dec.Chosen, _ = p.text("chosen", present)
	dec.Rationale, _ = p.text("rationale", optional)
	outcome, ov := p.text("outcome", nonBlank)
	dec.Outcome = d.outcome(outcome, ov, p.name)
	it.effects = d.refs(p.f, "effects", p.name+" effects")
	it.name = p.name
	dec.Title = firstNonEmpty(shorten(dec.Context), shorten(dec.Chosen), dec.ID)
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
	p := d.newPart(v, eventKeys, "event", i)
	var it eventItem
	ev := &it.ev
	ev.Line, _ = d.lines.pos(v.off)
	id, idv := p.text("id", nonBlank)
	if id != "" {
		ev.ID, it.idOff, p.name = id, idv.off, "event "+id
	}
	ev.Timestamp, it.t, it.tsOff = p.timestamp()
	ev.Type, _ = p.text("type", nonBlank)
	if ev.Type != "" && !eventTypes[strings.ToLower(ev.Type)] {
		d.report(p.f["type"].val.off, note.Info, "aiagents-event-type", "%s type %q is not tool_call, error, milestone, handoff, commit or test; kept as written", p.name, ev.Type)
	}
	ev.Text, _ = p.text("content", present)
	it.causedBy = d.refs(p.f, "caused_by", p.name+" caused_by")
	it.leadsTo = d.refs(p.f, "leads_to", p.name+" leads_to")
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
