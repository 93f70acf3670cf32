package aiagents

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// conversion is one episode on its way to markdown.
type conversion struct {
	path   string
	want   Episode  // the episode as the JSON has it
	md     Episode  // as the markdown writes it: its ids, links to them
	titles []string // decision headings
	ids    partIDs  // the markdown's ids
	side   sidecar
	top    map[string]bool // extra keys written as front matter keys
	// private: the JSON withholds the episode, so the markdown must too.
	private bool
}

func newConversion(filePath string, data []byte, n *note.Note) *conversion {
	want, _ := plainEpisode(n)
	rawFields(filePath, data, &want)
	c := &conversion{path: filePath, want: want, top: map[string]bool{}, private: n.Private}
	for _, d := range n.Episode.Decisions {
		c.titles = append(c.titles, d.Title)
	}
	for k := range want.Extra {
		if !reservedKeys[k] {
			c.top[k] = true
		}
	}
	c.chooseIDs()
	return c
}

// rawFields adds the keys Decode does not keep (the rows marked raw):
// a top-level one as an extra key, which the markdown writes as a front
// matter key of its own; a decision's or an event's into its value,
// which the sidecar keeps.
func rawFields(filePath string, data []byte, e *Episode) {
	d := newDecoder(filePath, data)
	root, err := readTree(d.src)
	if err != nil || root.kind != kindObject {
		return
	}
	f := d.object(root)
	for _, row := range episodeFields {
		if m := f[row.key]; row.raw && m != nil {
			e.Extra[row.key] = d.plain(m.val)
		}
	}
	rawParts(d, f, "decisions", decisionFields, e.Decisions)
	rawParts(d, f, "events", eventFields, e.Events)
}

// rawParts reads the raw keys of each decision or event; they are text.
func rawParts[R, N, F any](d *decoder, f fields, key string, table []field[R, N, F], parts []F) {
	var raw []field[R, N, F]
	for _, row := range table {
		if row.raw && row.file != nil {
			raw = append(raw, row)
		}
	}
	if len(raw) == 0 {
		return
	}
	k := 0
	for _, v := range d.list(f, key, key) {
		if v.kind != kindObject {
			continue // Decode skips it too
		}
		for _, row := range raw {
			if s, _, _ := d.text(d.object(v), row.key, ""); s != "" && k < len(parts) {
				row.file(&parts[k]).set(s)
			}
		}
		k++
	}
}

// reservedKeys are front matter keys engram reads: an extra JSON key of
// that name goes into ai_agents.extra, so that it cannot change the note.
// A private episode is written with a top-level private: true of its own
// (see render), so that the markdown is withheld as the JSON is.
var reservedKeys = map[string]bool{
	"title": true, "type": true, "tags": true, "permalink": true, "date": true, "due": true,
	"private": true, "outcome": true, "task": true, "metrics": true, "session": true,
	"source_thread": true, "concepts": true, "duration_minutes": true, sidecarKey: true,
	"episodes": true, "trigger": true, "action": true, "success_rate": true,
	"occurrences": true, "last_validated": true,
}

// decisionIDRE is an id that a "### id: title" heading and a [[id]] link
// keep as it is, and that a sidecar key can hold.
var decisionIDRE = regexp.MustCompile(`^[^\s:\[\]|#.]+$`)

// chooseIDs names events e001, e002, ... (the markdown has no other way)
// and keeps decision ids that a heading can hold, and rewrites the links.
func (c *conversion) chooseIDs() {
	c.md = c.want
	c.md.Decisions = append([]Decision(nil), c.want.Decisions...)
	c.md.Events = append([]Event(nil), c.want.Events...)
	// Ids a heading can hold are kept, the first of each; the others get
	// d<position> (never an id that another decision keeps).
	taken := map[string]bool{}
	keep := make([]bool, len(c.want.Decisions))
	for i, d := range c.want.Decisions {
		if key := strings.ToLower(d.ID); decisionIDRE.MatchString(d.ID) && !taken[key] {
			taken[key], keep[i] = true, true
		}
	}
	decIDs := map[string]string{}
	for i, d := range c.want.Decisions {
		id := d.ID
		if !keep[i] {
			id = fmt.Sprintf("d%03d", i+1)
			for taken[strings.ToLower(id)] {
				id += "x"
			}
			taken[strings.ToLower(id)] = true
		}
		if _, seen := decIDs[strings.ToLower(d.ID)]; !seen {
			decIDs[strings.ToLower(d.ID)] = id
		}
		c.md.Decisions[i].ID = id
		c.ids.decisions = append(c.ids.decisions, id)
	}
	evIDs := map[string]string{}
	for i, ev := range c.want.Events {
		id := fmt.Sprintf("e%03d", i+1)
		if _, seen := evIDs[strings.ToLower(ev.ID)]; !seen {
			evIDs[strings.ToLower(ev.ID)] = id
		}
		c.md.Events[i].ID = id
		c.ids.events = append(c.ids.events, id)
	}
	for i := range c.md.Decisions {
		c.md.Decisions[i].Effects = relink(c.md.Decisions[i].Effects, decIDs, evIDs)
	}
	for i := range c.md.Events {
		c.md.Events[i].CausedBy = relink(c.md.Events[i].CausedBy, evIDs)
		c.md.Events[i].LeadsTo = relink(c.md.Events[i].LeadsTo, evIDs)
	}
}

// relink maps ids, matched case-insensitively as Decode and the causal
// stage match them, to the markdown's.
func relink(refs []string, maps ...map[string]string) []string {
	var out []string
	for _, r := range refs {
		for _, m := range maps {
			if id, ok := m[strings.ToLower(r)]; ok {
				r = id
				break
			}
		}
		out = append(out, r)
	}
	return out
}

// markdown renders the note, parses it back, keeps in the sidecar what
// did not survive, and renders it again with the sidecar. It fails when
// the note would not parse without error, or (a bug) loses a list item.
func (c *conversion) markdown(p *parse.Parser) ([]byte, []note.Diagnostic, error) {
	c.side = sidecar{Exact: map[string]exact{}, Extra: map[string]string{}}
	for i, d := range c.want.Decisions {
		if d.ID != c.ids.decisions[i] {
			c.side.Exact["decisions."+c.ids.decisions[i]+".id"] = exact{Value: d.ID, Shown: c.ids.decisions[i]}
		}
	}
	for i, ev := range c.want.Events {
		if ev.ID != c.ids.events[i] {
			c.side.Exact["events."+c.ids.events[i]+".id"] = exact{Value: ev.ID, Shown: c.ids.events[i]}
		}
	}
	got, err := c.roundTrip(p)
	if err != nil {
		return nil, []note.Diagnostic{diagOf(err)}, err
	}
	c.diff(got)
	c.extras(got)
	if got, err = c.roundTrip(p); err != nil {
		return nil, []note.Diagnostic{diagOf(err)}, err
	}
	var diags []note.Diagnostic
	if lost := append(diffKeys(c.want, got, c.ids), lostExtras(c.want, got)...); len(lost) > 0 {
		diags = append(diags, fileDiag(c.path, note.Warning, "aiagents-import-loss", "the markdown note cannot keep "+strings.Join(lost, ", ")+"; export will differ there"))
	}
	return c.render(), diags, nil
}

// roundTrip renders and parses the note, and returns the episode Export
// would make of it (with the sidecar as it is so far).
func (c *conversion) roundTrip(p *parse.Parser) (Episode, error) {
	n, err := parseBack(p, c.path, "episodes/"+safeName(c.want.ID, 120)+".md", c.render())
	if err != nil {
		return Episode{}, err
	}
	if n.Episode == nil || len(n.Episode.Decisions) != len(c.want.Decisions) || len(n.Episode.Events) != len(c.want.Events) || len(n.Episode.Lessons) != len(c.want.Lessons) {
		return Episode{}, errorOf(fileDiag(c.path, note.Error, "aiagents-import", "the markdown note lost a decision, event or lesson (a bug in engram import); not imported"))
	}
	e, _ := EpisodeOf(&n, time.Time{})
	return e, nil
}

// parseBack parses a note made from the file at from; an error diagnostic
// fails it.
func parseBack(p *parse.Parser, from, notePath string, md []byte) (note.Note, error) {
	n, ds, err := p.Parse(notePath, md)
	for _, d := range ds {
		if d.Severity == note.Error {
			err = fmt.Errorf("line %d: %s [%s]", d.Line, d.Message, d.Rule)
			break
		}
	}
	if err != nil {
		return n, errorOf(fileDiag(from, note.Error, "aiagents-import", "the markdown note would not parse ("+err.Error()+"); not imported"))
	}
	return n, nil
}

// diff records in the sidecar each field whose markdown reads back
// different from the JSON.
func (c *conversion) diff(got Episode) {
	for _, key := range diffKeys(c.want, got, c.ids) {
		if sec, _, field := splitKey(key); field == "id" && sec != "" {
			continue // already there
		}
		w, _ := slotOf(&c.want, c.ids, key)
		g, _ := slotOf(&got, c.ids, key)
		c.side.Exact[key] = exact{Value: plainValue(w.get()), Shown: plainValue(g.get())}
	}
	for key := range c.side.Exact {
		if strings.HasPrefix(key, "events.") {
			c.side.Events = len(c.want.Events)
		}
	}
}

// plainValue gives lists as non-nil slices, so that YAML writes [].
func plainValue(v any) any {
	if l, ok := v.([]string); ok {
		return orEmpty(l)
	}
	return v
}

// extras moves to the sidecar each extra key whose front matter value
// reads back different (a number beyond float64, or a key engram reads).
func (c *conversion) extras(got Episode) {
	for _, k := range sortedKeys(c.want.Extra) {
		w, _ := marshal(c.want.Extra[k])
		g, _ := marshal(got.Extra[k])
		if _, ok := got.Extra[k]; ok && c.top[k] && bytes.Equal(w, g) {
			continue
		}
		delete(c.top, k)
		c.side.Extra[k] = string(w)
	}
}

// lostExtras lists the extra keys whose values differ.
func lostExtras(want, got Episode) []string {
	var keys []string
	for _, k := range sortedKeys(want.Extra) {
		w, _ := marshal(want.Extra[k])
		g, _ := marshal(got.Extra[k])
		if !bytes.Equal(w, g) {
			keys = append(keys, k)
		}
	}
	return keys
}

// diffKeys lists the fields where got differs from want, as sidecar keys
// named by the markdown's ids (got's decisions and events are in want's
// order).
func diffKeys(want, got Episode, ids partIDs) []string {
	keys := diffFields(nil, "", episodeFields, &want, &got)
	for i := range min(len(want.Lessons), len(got.Lessons)) {
		if canonical(want.Lessons[i]) != canonical(got.Lessons[i]) {
			keys = append(keys, fmt.Sprintf("lessons.%d", i+1))
		}
	}
	for i := range min(len(want.Decisions), len(got.Decisions)) {
		keys = diffFields(keys, "decisions."+ids.decisions[i]+".", decisionFields, &want.Decisions[i], &got.Decisions[i])
	}
	for i := range min(len(want.Events), len(got.Events)) {
		keys = diffFields(keys, "events."+ids.events[i]+".", eventFields, &want.Events[i], &got.Events[i])
	}
	return keys
}

// diffFields adds the round-tripping keys of a table whose values differ.
func diffFields[R, N, F any](keys []string, prefix string, table []field[R, N, F], want, got *F) []string {
	for _, row := range table {
		if !row.exact || row.file == nil {
			continue
		}
		if canonical(row.file(want).get()) != canonical(row.file(got).get()) {
			keys = append(keys, prefix+row.key)
		}
	}
	return keys
}
