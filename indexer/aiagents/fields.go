package aiagents

import (
	"time"

	"github.com/engramhq/engram/indexer/note"
)

// field is one key of an ai-agents episode file, at one level (the
// episode, a decision, an event), and all that engram does with it. The
// three tables below are the only lists of keys: Decode reads through
// them (and reports keys outside them), export writes through them, and
// import checks through them that its markdown gives the file back.
// Adding a key is adding a row, plus its test (see docs/ARCHITECTURE.md).
//
// R is what Decode reads into (the note part, with the decoder's
// bookkeeping), N the note part the export reads, F the file's type.
type field[R, N, F any] struct {
	key string
	// note says where engram keeps the value: the note field and what
	// the imported markdown shows. For people; read and export do it.
	note string
	need need // when Decode reports the key missing
	// read decodes the key into the note; nil: the key is known but not
	// kept (see raw).
	read func(p *part, into *R)
	// export gives the note's value as the file writes it; nil: the file
	// has no value from the note.
	export func(from *N) any
	// file is the value in the file's type; nil: export does not write
	// the key.
	file func(f *F) slot
	// exact: the key round-trips. Import checks that the markdown gives
	// it back and keeps it in the ai_agents front matter when not.
	exact bool
	// raw: Decode does not keep the value, so import reads it from the
	// JSON and the markdown keeps it (top level: as a front matter key;
	// a part: in the ai_agents front matter).
	raw       bool
	omitEmpty bool
	// bullet is the "- **Bullet**: value" line of a decision in the
	// markdown; "" for none.
	bullet string
}

// episodeItem is an episode being decoded: the note, and its decisions
// and events before their links are checked.
type episodeItem struct {
	n             note.Note
	decisions     []decisionItem
	events        []eventItem
	causalVersion float64
}

// episodeFields are the top-level keys, in the order export writes them.
// Keys outside the table go to Note.Extra (front matter keys of their
// own in the markdown) and are written after these, sorted.
var episodeFields = []field[episodeItem, note.Note, Episode]{
	{key: "id", note: "Note.Title; front matter title", need: nonBlank, exact: true,
		read:   func(p *part, it *episodeItem) { it.n.Title = p.d.title(p.v, p.f) },
		export: func(n *note.Note) any { return n.Title },
		file:   func(e *Episode) slot { return strSlot(&e.ID) }},
	{key: "session", note: "Episode.Session; front matter session", need: nonBlank, exact: true,
		read:   func(p *part, it *episodeItem) { it.n.Episode.Session = p.d.required(p.v, p.f, "session") },
		export: func(n *note.Note) any { return n.Episode.Session },
		file:   func(e *Episode) slot { return strSlot(&e.Session) }},
	{key: "timestamp", note: "Note.Date; front matter date", need: nonBlank, exact: true,
		read:   readEpisodeTime,
		export: func(n *note.Note) any { return formatTime(n.Date) },
		file:   func(e *Episode) slot { return strSlot(&e.Timestamp) }},
	{key: "outcome", note: "Episode.Outcome; front matter outcome", need: nonBlank, exact: true,
		read:   readEpisodeOutcome,
		export: func(n *note.Note) any { return string(n.Episode.Outcome) },
		file:   func(e *Episode) slot { return strSlot(&e.Outcome) }},
	{key: "task", note: "Episode.Task; front matter task", need: nonBlank, exact: true,
		read:   func(p *part, it *episodeItem) { it.n.Episode.Task = p.d.required(p.v, p.f, "task") },
		export: func(n *note.Note) any { return n.Episode.Task },
		file:   func(e *Episode) slot { return strSlot(&e.Task) }},
	{key: "decisions", note: "Episode.Decisions; ## Decisions, one ### heading each",
		read: func(p *part, it *episodeItem) {
			it.decisions = objects(p.d, p.f, "decisions", "a decision", p.d.decision)
		},
		export: func(n *note.Note) any { return exportParts(decisionFields, n.Episode.Decisions) },
		file:   func(e *Episode) slot { return valueSlot(&e.Decisions) }},
	{key: "events", note: "Episode.Events; ## Events Timeline, one numbered line each",
		read:   func(p *part, it *episodeItem) { it.events = objects(p.d, p.f, "events", "an event", p.d.event) },
		export: func(n *note.Note) any { return exportParts(eventFields, n.Episode.Events) },
		file:   func(e *Episode) slot { return valueSlot(&e.Events) }},
	{key: "metrics", note: "Episode.Metrics and DurationMinutes; front matter metrics", exact: true,
		read: func(p *part, it *episodeItem) {
			it.n.Episode.Metrics, it.n.Episode.DurationMinutes = p.d.metrics(p.f)
		},
		export: func(n *note.Note) any { return metricsOf(n.Episode) },
		file:   func(e *Episode) slot { return metricsSlot(&e.Metrics) }},
	{key: "lessons", note: "Episode.Lessons; ## Lessons Learned, one item each (compared one by one)",
		read:   func(p *part, it *episodeItem) { it.n.Episode.Lessons = p.d.lessons(p.f) },
		export: func(n *note.Note) any { return lessonTexts(n.Episode.Lessons) },
		file:   func(e *Episode) slot { return valueSlot(&e.Lessons) }},
	{key: "causal_order_version", note: "Note.Extra, a front matter key of its own; also read for the aiagents-causal-order check",
		read: readCausalVersion},
}

// decisionFields are the keys of a decision, in the order export writes
// them.
var decisionFields = []field[decisionItem, note.Decision, Decision]{
	{key: "id", note: "Decision.ID; the ### heading's id", need: nonBlank, exact: true,
		read:   func(p *part, it *decisionItem) { it.dec.ID, it.idOff = p.id() },
		export: func(d *note.Decision) any { return d.ID },
		file:   func(d *Decision) slot { return strSlot(&d.ID) }},
	{key: "timestamp", note: "Decision.Timestamp", need: nonBlank, exact: true, bullet: "Timestamp",
		read:   func(p *part, it *decisionItem) { it.dec.Timestamp, _, _ = p.timestamp() },
		export: func(d *note.Decision) any { return d.Timestamp },
		file:   func(d *Decision) slot { return strSlot(&d.Timestamp) }},
	{key: "type", note: "Decision.Type", need: nonBlank, exact: true, bullet: "Type",
		read: func(p *part, it *decisionItem) {
			it.dec.Type = note.DecisionType(p.enum(decisionTypes, "aiagents-decision-type"))
		},
		export: func(d *note.Decision) any { return string(d.Type) },
		file:   func(d *Decision) slot { return strSlot(&d.Type) }},
	{key: "context", note: "Decision.Context; also the heading's title", need: present, exact: true, bullet: "Context",
		read:   func(p *part, it *decisionItem) { it.dec.Context = p.d.decisionContext(p) },
		export: func(d *note.Decision) any { return d.Context },
		file:   func(d *Decision) slot { return strSlot(&d.Context) }},
	{key: "options", note: "Decision.Options, comma-separated", exact: true, bullet: "Options",
		read:   func(p *part, it *decisionItem) { it.dec.Options = p.strings("options") },
		export: func(d *note.Decision) any { return d.Options },
		file:   func(d *Decision) slot { return listSlot(&d.Options) }},
	{key: "chosen", note: "Decision.Chosen", need: present, exact: true, bullet: "Chosen",
		read:   func(p *part, it *decisionItem) { it.dec.Chosen, _ = p.text("chosen") },
		export: func(d *note.Decision) any { return d.Chosen },
		file:   func(d *Decision) slot { return strSlot(&d.Chosen) }},
	{key: "rationale", note: "Decision.Rationale", exact: true, bullet: "Rationale",
		read:   func(p *part, it *decisionItem) { it.dec.Rationale, _ = p.text("rationale") },
		export: func(d *note.Decision) any { return d.Rationale },
		file:   func(d *Decision) slot { return strSlot(&d.Rationale) }},
	{key: "outcome", note: "Decision.Outcome", need: nonBlank, exact: true, bullet: "Outcome",
		read: func(p *part, it *decisionItem) {
			s, v := p.text("outcome")
			it.dec.Outcome = p.d.outcome(s, v, p.name)
		},
		export: func(d *note.Decision) any { return string(d.Outcome) },
		file:   func(d *Decision) slot { return strSlot(&d.Outcome) }},
	{key: "effects", note: "Decision.Effects, [[wikilinks]]", exact: true, bullet: "Effects",
		read:   func(p *part, it *decisionItem) { it.effects = p.d.refs(p.f, "effects", p.name+" effects") },
		export: func(d *note.Decision) any { return effectTargets(d.Effects) },
		file:   func(d *Decision) slot { return listSlot(&d.Effects) }},
	// Some writers give a summary instead of context: read as context.
	{key: "summary", note: "Decision.Context when there is no context (read with context)"},
}

// eventFields are the keys of an event, in the order export writes them.
var eventFields = []field[eventItem, note.Event, Event]{
	{key: "id", note: "Event.ID; the markdown numbers events e001, e002, ...", need: nonBlank, exact: true,
		read:   func(p *part, it *eventItem) { it.ev.ID, it.idOff = p.id() },
		export: func(e *note.Event) any { return e.ID },
		file:   func(e *Event) slot { return strSlot(&e.ID) }},
	{key: "timestamp", note: "Event.Timestamp; [timestamp] at the line's start", need: nonBlank, exact: true,
		read:   func(p *part, it *eventItem) { it.ev.Timestamp, it.t, it.tsOff = p.timestamp() },
		export: func(e *note.Event) any { return e.Timestamp },
		file:   func(e *Event) slot { return strSlot(&e.Timestamp) }},
	{key: "type", note: "Event.Type; #type at the line's end", need: nonBlank, exact: true,
		read:   func(p *part, it *eventItem) { it.ev.Type = p.enum(eventTypes, "aiagents-event-type") },
		export: func(e *note.Event) any { return e.Type },
		file:   func(e *Event) slot { return strSlot(&e.Type) }},
	{key: "content", note: "Event.Text; the line's text", need: present, exact: true,
		read:   func(p *part, it *eventItem) { it.ev.Text, _ = p.text("content") },
		export: func(e *note.Event) any { return e.Text },
		file:   func(e *Event) slot { return strSlot(&e.Content) }},
	{key: "caused_by", note: "Event.CausedBy; (caused_by e001)", exact: true,
		read:   func(p *part, it *eventItem) { it.causedBy = p.d.refs(p.f, "caused_by", p.name+" caused_by") },
		export: func(e *note.Event) any { return e.CausedBy },
		file:   func(e *Event) slot { return listSlot(&e.CausedBy) }},
	{key: "leads_to", note: "Event.LeadsTo; (leads_to e003)", exact: true,
		read:   func(p *part, it *eventItem) { it.leadsTo = p.d.refs(p.f, "leads_to", p.name+" leads_to") },
		export: func(e *note.Event) any { return e.LeadsTo },
		file:   func(e *Event) slot { return listSlot(&e.LeadsTo) }},
	// The writer's bookkeeping (schema of 2026-08): note.Event has no
	// room for it, so only an imported note keeps it.
	{key: "_source_session", note: "not kept: import keeps it in the ai_agents front matter", exact: true, raw: true, omitEmpty: true,
		file: func(e *Event) slot { return strSlot(&e.SourceSession) }},
}

// need says when a field counts as missing.
type need int

const (
	optional need = iota
	// present: absent or null is missing, but an empty string is free
	// text that happens to be empty (real decisions have "context": "").
	present
	// nonBlank: an empty string is not a valid id, date or enum value.
	nonBlank
)

// read decodes the keys of one object through a table.
func read[R, N, F any](p *part, table []field[R, N, F], into *R) {
	for _, f := range table {
		if f.read != nil {
			f.read(p, into)
		}
	}
}

// known reports whether a table has the key.
func known[R, N, F any](table []field[R, N, F], key string) bool {
	return rowOf(table, key) != nil
}

func rowOf[R, N, F any](table []field[R, N, F], key string) *field[R, N, F] {
	for i := range table {
		if table[i].key == key {
			return &table[i]
		}
	}
	return nil
}

// exportPart fills a file's part from a note's part.
func exportPart[R, N, F any](table []field[R, N, F], from *N, to *F) {
	for _, f := range table {
		if f.export != nil && f.file != nil {
			f.file(to).set(f.export(from))
		}
	}
}

func exportParts[R, N, F any](table []field[R, N, F], from []N) []F {
	var out []F
	for i := range from {
		var f F
		exportPart(table, &from[i], &f)
		out = append(out, f)
	}
	return out
}

// exactSlot is the value of a round-tripping key, for the sidecar; ok is
// false when the table has no such key.
func exactSlot[R, N, F any](table []field[R, N, F], f *F, key string) (slot, bool) {
	row := rowOf(table, key)
	if row == nil || !row.exact || row.file == nil {
		return slot{}, false
	}
	return row.file(f), true
}

func effectTargets(links []note.Link) []string {
	var out []string
	for _, l := range links {
		t := l.Target
		if l.Heading != "" {
			t += "#" + l.Heading
		}
		out = append(out, t)
	}
	return out
}

func lessonTexts(ls []note.Lesson) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Text)
	}
	return out
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}
