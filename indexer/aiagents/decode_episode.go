package aiagents

import (
	"encoding/json"
	"math"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// episode maps the top-level object through episodeFields.
func (d *decoder) episode(root *value) note.Note {
	p := &part{d: d, v: root, f: d.object(root), kind: "episode", name: "episode", need: needOf(episodeFields)}
	folded := foldKeys(d, root, p.f, episodeFields, "episode")
	it := episodeItem{n: note.Note{Path: d.path, Kind: note.KindEpisode, Type: "episode", Episode: &note.Episode{}}}
	it.n.Extra = d.extra(root.members, p.f, folded)
	read(p, episodeFields, &it)
	n, ep := it.n, it.n.Episode
	ep.Decisions, ep.Events = d.link(it.decisions, it.events, it.causalVersion >= 2)
	n.Private = d.private(root)
	return n
}

// readEpisodeOutcome reads the episode's outcome: required, and one of
// the outcomes.
func readEpisodeOutcome(p *part, it *episodeItem) {
	if s, v, missing := p.d.text(p.f, "outcome", "outcome"); missing {
		p.d.missing(p.v, v, "outcome")
	} else {
		it.n.Episode.Outcome = p.d.outcome(s, v, "episode")
	}
}

// readEpisodeTime reads the episode's timestamp as the note's date.
func readEpisodeTime(p *part, it *episodeItem) {
	if s, v, missing := p.d.text(p.f, "timestamp", "timestamp"); missing {
		p.d.missing(p.v, v, "timestamp")
	} else if s != "" {
		it.n.Date, _ = p.d.time(s, v.off, "episode timestamp")
	}
}

// private reads "private" as a markdown note's front matter is read, and
// fails closed in the same way (SPEC §6): "private": true, a value that is
// not clearly true or false, a key like "private" ("Private", "privte")
// and a "private" that any of its repeats sets withhold the episode, with
// a diagnostic saying why.
func (d *decoder) private(root *value) bool {
	private := false
	for _, m := range root.members {
		switch {
		case m.key == "private":
			p, clear := parse.PrivateValue(d.plain(m.val))
			if !clear {
				got := m.val.kind.withArticle()
				if m.val.kind == kindString || m.val.kind == kindNumber {
					got = strconv.Quote(m.val.text)
				}
				d.report(m.val.off, note.Error, "private-value", "\"private\" must be true or false, not %s; the episode is withheld as private", got)
			} else if p {
				d.report(m.off, note.Info, "private-json", "\"private\": true: the episode is withheld from the output")
			}
			private = private || p || !clear
		case parse.NearPrivacyKey(m.key):
			d.report(m.off, note.Warning, "private-key", "key %q looks like \"private\"; the episode is withheld as private: write \"private\": true or false", m.key)
			private = true
		}
	}
	return private
}

// title is the episode id, or the file name when there is none.
func (d *decoder) title(root *value, f fields) string {
	id, v, missing := d.text(f, "id", "id")
	if id != "" {
		return id
	}
	name := strings.TrimSuffix(path.Base(d.path), ".json")
	if missing {
		off := root.off
		if v != nil {
			off = v.off
		}
		d.report(off, note.Warning, "aiagents-missing-id", "episode has no id; the title is the file name %q", name)
	}
	return name
}

// required returns a top-level string that the schema requires.
func (d *decoder) required(root *value, f fields, key string) string {
	s, v, missing := d.text(f, key, key)
	if missing {
		d.missing(root, v, key)
	}
	return s
}

// missing reports a required top-level field that is absent (v nil), null
// or empty.
func (d *decoder) missing(root, v *value, key string) {
	switch {
	case v == nil:
		d.report(root.off, note.Warning, "aiagents-missing-field", "episode has no %s", key)
	case v.kind == kindNull:
		d.report(v.off, note.Warning, "aiagents-missing-field", "episode %s is null", key)
	default:
		d.report(v.off, note.Warning, "aiagents-missing-field", "episode %s is empty", key)
	}
}

// outcome checks an outcome and lower-cases it, as markdown episodes'
// outcomes are; what names its owner.
func (d *decoder) outcome(s string, v *value, what string) note.Outcome {
	if s == "" {
		return ""
	}
	o, ok := note.ParseOutcome(s)
	if !ok {
		d.report(v.off, note.Warning, "aiagents-outcome", "%s outcome %q is not %s; kept as written", what, s, note.OutcomeList)
	}
	return o
}

// readCausalVersion reads causal_order_version, and keeps a number in
// Note.Extra, as the file gives it, for the export.
// A null is kept too, so that the file comes back as it was.
func readCausalVersion(p *part, it *episodeItem) {
	m := p.f["causal_order_version"]
	v, ok := p.d.causalVersion(p.f)
	if !ok && (m == nil || m.val.kind != kindNull) {
		return
	}
	it.causalVersion = v
	if it.n.Extra == nil {
		it.n.Extra = map[string]any{}
	}
	it.n.Extra["causal_order_version"] = p.d.plain(m.val)
}

// causalVersion reads causal_order_version; ok is false when it is
// absent, null or unreadable (reported).
func (d *decoder) causalVersion(f fields) (float64, bool) {
	m := f["causal_order_version"]
	if m == nil || m.val.kind == kindNull {
		return 0, false
	}
	if m.val.kind != kindNumber {
		d.wrongType(m.val, "causal_order_version", "a number")
		return 0, false
	}
	v, err := strconv.ParseFloat(m.val.text, 64)
	if err != nil {
		d.report(m.val.off, note.Warning, "aiagents-type", "causal_order_version %s is out of range; ignored", m.val.text)
		return 0, false
	}
	return v, true
}

// time parses a timestamp and returns it with its normalised form (RFC
// 3339 in UTC), or the text as written when it is not a date.
func (d *decoder) time(s string, off int, what string) (time.Time, string) {
	t, naive, ok := parseTime(s)
	switch {
	case !ok:
		d.report(off, note.Warning, "aiagents-time", "%s %q is not an RFC 3339 date; kept as written", what, s)
		return time.Time{}, s
	case naive:
		d.report(off, note.Info, "aiagents-naive-time", "%s %q has no time zone; read as UTC", what, s)
	}
	return t, t.Format(time.RFC3339Nano)
}

// Timestamp layouts. Go accepts a fraction of any length after the
// seconds even when a layout has none, which covers .NET's 7 digits.
var (
	zonedLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02 15:04:05Z07:00"}
	naiveLayouts = []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02"}
)

// parseTime reads an RFC 3339 or ISO 8601 timestamp into UTC; naive says
// it had no zone.
func parseTime(s string) (t time.Time, naive, ok bool) {
	for i, layouts := range [][]string{zonedLayouts, naiveLayouts} {
		for _, layout := range layouts {
			if t, err := time.Parse(layout, s); err == nil {
				// A zone can push year 0001 or 9999 out of the four-digit
				// years that JSON and Hugo read back.
				t = t.UTC()
				return t, i == 1, t.Year() >= 1 && t.Year() <= 9999
			}
		}
	}
	return time.Time{}, false, false
}

// metrics reads the metrics object; duration_minutes is also returned on
// its own, as markdown episodes give it.
func (d *decoder) metrics(f fields) (map[string]float64, *float64) {
	m := f["metrics"]
	if m == nil {
		return nil, nil
	}
	switch m.val.kind {
	case kindNull:
		d.report(m.val.off, note.Info, "aiagents-null-metric", "metrics is null; read as no metrics")
		return nil, nil
	case kindObject:
	default:
		d.wrongType(m.val, "metrics", "an object of numbers")
		return nil, nil
	}
	mf := d.object(m.val)
	out := make(map[string]float64, len(mf))
	for i := range m.val.members {
		if mm := &m.val.members[i]; mf[mm.key] == mm { // the last of a repeated key
			d.metric(out, mf, *mm)
		}
	}
	var duration *float64
	if v, ok := out["duration_minutes"]; ok {
		duration = &v
	}
	return out, duration
}

// metric adds one metric to out under its snake_case name. A key the file
// writes in snake_case wins over a camelCase one that would take its name.
func (d *decoder) metric(out map[string]float64, f fields, m member) {
	name := snakeCase(m.key)
	if name != m.key {
		if _, taken := out[name]; taken || f[name] != nil {
			d.report(m.off, note.Warning, "aiagents-metric", "metric %q would be %q, which this episode already gives; dropped", m.key, name)
			return
		}
	}
	v, ok := d.number(m)
	if !ok {
		return
	}
	if name != m.key {
		d.report(m.off, note.Info, "aiagents-camelcase-metric", "metric %q is camelCase; read as %q", m.key, name)
	}
	out[name] = v
}

// number reads a metric's value.
func (d *decoder) number(m member) (float64, bool) {
	switch m.val.kind {
	case kindNull:
		d.report(m.val.off, note.Info, "aiagents-null-metric", "metric %q is null; no value", m.key)
		return 0, false
	case kindNumber:
		v, err := strconv.ParseFloat(m.val.text, 64)
		if err != nil || math.IsInf(v, 0) {
			d.report(m.val.off, note.Warning, "aiagents-metric", "metric %q is %s, out of range; dropped", m.key, m.val.text)
			return 0, false
		}
		return v, true
	}
	d.report(m.val.off, note.Warning, "aiagents-metric", "metric %q should be a number, not %s; dropped", m.key, m.val.kind.withArticle())
	return 0, false
}

// snakeCase turns toolCalls into tool_calls and HTTPCalls into
// http_calls; a key without capitals is returned as is.
func snakeCase(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if unicode.IsUpper(c) {
			// A capital starts a word after a lower-case letter or digit,
			// or as the last capital of an acronym (the C of HTTPCalls).
			if i > 0 && r[i-1] != '_' && (!unicode.IsUpper(r[i-1]) || i+1 < len(r) && unicode.IsLower(r[i+1])) {
				b.WriteByte('_')
			}
			c = unicode.ToLower(c)
		}
		b.WriteRune(c)
	}
	return b.String()
}

// lessons reads the list of lessons.
func (d *decoder) lessons(f fields) []note.Lesson {
	var out []note.Lesson
	for _, e := range d.list(f, "lessons", "lessons") {
		if e.kind != kindString {
			d.wrongType(e, "a lesson", "a string")
			continue
		}
		line, _ := d.lines.pos(e.off)
		out = append(out, note.Lesson{Text: e.text, Line: line})
	}
	return out
}

// extra returns the top-level keys engram does not interpret: not the
// table's, nor one read as the table's (folded).
func (d *decoder) extra(members []member, f fields, folded map[*member]bool) map[string]any {
	var out map[string]any
	for i := range members {
		m := &members[i]
		if known(episodeFields, m.key) || f[m.key] != m || folded[m] {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		out[m.key] = d.plain(m.val)
	}
	return out
}

// plain turns a value into what encoding/json would give, except that
// integers are ints and a number too large for a float64 stays a
// json.Number, so that it can be written back exactly.
func (d *decoder) plain(v *value) any {
	switch v.kind {
	case kindBool:
		return v.boolean
	case kindString:
		return v.text
	case kindNumber:
		if i, err := strconv.Atoi(v.text); err == nil {
			return i
		}
		if f, err := strconv.ParseFloat(v.text, 64); err == nil {
			return f
		}
		return json.Number(v.text)
	case kindArray:
		out := make([]any, len(v.elems))
		for i, e := range v.elems {
			out[i] = d.plain(e)
		}
		return out
	case kindObject:
		f := d.object(v)
		out := make(map[string]any, len(f))
		for i := range v.members {
			if m := &v.members[i]; f[m.key] == m {
				out[m.key] = d.plain(m.val)
			}
		}
		return out
	}
	return nil
}
