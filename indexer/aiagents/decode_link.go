package aiagents

import (
	"strings"

	"github.com/engramhq/engram/indexer/note"
)

// ids indexes the events and decisions of an episode by id, matched
// case-insensitively as the causal stage matches them. The first of a
// repeated id is the one links point to.
type ids struct {
	events    map[string]int // index in the events array
	decisions map[string]bool
}

// link checks the ids the decisions and events name, drops those that
// name nothing, and returns the domain values. causalV2 is
// causal_order_version >= 2: such files order links by measured time,
// so a link against the array order is no news.
func (d *decoder) link(decs []decisionItem, evs []eventItem, causalV2 bool) ([]note.Decision, []note.Event) {
	x := d.index(decs, evs)
	d.eventOrder(evs)
	var events []note.Event
	for i := range evs {
		ev := evs[i].ev
		ev.CausedBy = d.eventLinks(x, evs, i, "caused_by", evs[i].causedBy, causalV2)
		ev.LeadsTo = d.eventLinks(x, evs, i, "leads_to", evs[i].leadsTo, causalV2)
		events = append(events, ev)
	}
	var decisions []note.Decision
	for _, it := range decs {
		dec := it.dec
		for _, r := range it.effects {
			key := strings.ToLower(r.id)
			if _, ok := x.events[key]; !ok && !x.decisions[key] {
				d.report(r.off, note.Warning, "aiagents-effect-ref", "%s effect %q names no decision or event of this episode; dropped", it.name, r.id)
				continue
			}
			line, col := d.lines.pos(r.off)
			dec.Effects = append(dec.Effects, note.Link{Target: r.id, Line: line, Col: col})
		}
		decisions = append(decisions, dec)
	}
	return decisions, events
}

// index builds the id index, reporting repeated ids.
func (d *decoder) index(decs []decisionItem, evs []eventItem) ids {
	x := ids{events: map[string]int{}, decisions: map[string]bool{}}
	for i, it := range evs {
		key := strings.ToLower(it.ev.ID)
		if key == "" {
			continue
		}
		if j, dup := x.events[key]; dup {
			d.report(it.idOff, note.Warning, "aiagents-duplicate-id", "event id %q is also event #%d's; links to it go to the first", it.ev.ID, j+1)
			continue
		}
		x.events[key] = i
	}
	for _, it := range decs {
		key := strings.ToLower(it.dec.ID)
		if key == "" {
			continue
		}
		if x.decisions[key] {
			d.report(it.idOff, note.Warning, "aiagents-duplicate-id", "decision id %q is used twice", it.dec.ID)
		}
		x.decisions[key] = true
	}
	return x
}

// eventLinks checks the ids of one caused_by or leads_to list of event i.
func (d *decoder) eventLinks(x ids, evs []eventItem, i int, field string, refs []ref, causalV2 bool) []string {
	name := evs[i].name
	var out []string
	for _, r := range refs {
		key := strings.ToLower(r.id)
		j, ok := x.events[key]
		switch {
		case !ok && x.decisions[key]:
			d.report(r.off, note.Info, "aiagents-decision-ref", "%s %s names decision %q; engram links events to events only, so it is dropped", name, field, r.id)
			continue
		case !ok:
			d.report(r.off, note.Warning, "aiagents-event-ref", "%s %s names %q, which is no event of this episode; dropped", name, field, r.id)
			continue
		case causalV2:
		case field == "leads_to" && j < i:
			d.report(r.off, note.Info, "aiagents-causal-order", "%s leads_to %s, which comes before it in the events array", name, r.id)
		case field == "caused_by" && j > i:
			d.report(r.off, note.Info, "aiagents-causal-order", "%s is caused_by %s, which comes after it in the events array", name, r.id)
		}
		out = append(out, r.id)
	}
	return out
}

// eventOrder reports each event whose time is before the previous dated
// event's.
func (d *decoder) eventOrder(evs []eventItem) {
	prev := -1
	for i, it := range evs {
		if it.t.IsZero() {
			continue
		}
		if prev >= 0 && it.t.Before(evs[prev].t) {
			p := evs[prev]
			d.report(it.tsOff, note.Info, "aiagents-event-order", "%s at %s is earlier than %s before it at %s; events keep their file order",
				it.name, it.ev.Timestamp, p.name, p.ev.Timestamp)
		}
		prev = i
	}
}
