package parse

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/engramhq/engram/indexer/note"
)

// Format is the one writer of the note format that Parse reads (SPEC
// §2.1–2.2): every note engram writes (engram new, the MCP write tools,
// ai-agents import) is a note.Note given to Format. The issue names it
// note.Format; it lives here, beside its reader, because package note
// imports nothing and has no YAML, and because the reader and the writer
// share the grammar's words (wordPattern) and its escaping.
//
// Format writes the front matter (through FrontMatter), then n.Sections
// as "## Heading" prose sections, then an episode's Decisions, Events
// Timeline and Lessons Learned, or a pattern's Causal Relationships and
// Evidence Episodes. What it writes reads back as n (FuzzFormat holds
// it), except what the format cannot carry, which Normalize says:
//   - a value of one line (a decision field, an event, a lesson, a
//     trigger) has its line breaks made spaces (OneLine) and is trimmed;
//   - a lesson that would start another block is escaped with a
//     backslash, which the parser keeps (ItemText); an empty one is left
//     out; a decision title loses wikilink brackets and closing #s, which a
//     heading drops (headingText); an event timestamp has [ ] made ( );
//   - an event type that is not one word is left out; types are read in
//     lower case;
//   - section markdown is written as it is: a writer of plain text makes
//     it markdown with ProseText, and a writer of markdown checks that it
//     reads back (a "## " line in it starts another section).
//
// Front matter keys come in a fixed order per kind (frontKeys), then
// private: true when n.Private, then n.Extra's other keys in sorted
// order, then o.Extra in its order.
func Format(n note.Note, o FormatOptions) []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(frontMatterOf(n, o).Bytes())
	b.WriteString("---\n")
	for _, s := range n.Sections {
		b.WriteString("\n## " + s.Heading + "\n\n" + s.Markdown + "\n")
	}
	if e := n.Episode; e != nil {
		writeDecisions(&b, e.Decisions)
		writeEvents(&b, e.Events)
		writeLessons(&b, e.Lessons)
	}
	if p := n.Pattern; p != nil {
		writeCausal(&b, p.Causal)
		writeEvidence(&b, p.Evidence)
	}
	return b.Bytes()
}

// FormatOptions is what Format writes that a note.Note does not hold.
type FormatOptions struct {
	// Dates are the text of the date keys (date, due, last_validated) as
	// the writer was given it: a note.Note holds a time, which does not
	// say whether 2026-05-01 or 2026-05-01T00:00:00Z was written. A key
	// not here is written from the note's time in RFC 3339, when not zero.
	Dates map[string]string
	// Extra are front matter entries written last, in this order.
	Extra []Entry
}

// Entry is a front matter key and its value.
type Entry struct {
	Key   string
	Value any
	// Style, when set, restyles the value's YAML node (ai-agents import
	// writes each exact value of its sidecar on one line).
	Style func(*yaml.Node)
}

// frontKeys are the keys Format writes from a note's fields, in order.
func frontKeys(n note.Note, o FormatOptions) []Entry {
	date := dateEntry("date", n.Date, o)
	switch {
	case n.Episode != nil:
		e := n.Episode
		return []Entry{date, {Key: "outcome", Value: e.Outcome}, {Key: "task", Value: e.Task},
			listEntry("tags", n.Tags), textEntry("session", e.Session), textEntry("source_thread", e.SourceThread),
			listEntry("concepts", e.Concepts), ptrEntry("duration_minutes", e.DurationMinutes),
			mapEntry("metrics", e.Metrics)}
	case n.Pattern != nil:
		p := n.Pattern
		return []Entry{listEntry("tags", n.Tags), {Key: "trigger", Value: p.Trigger}, {Key: "action", Value: p.Action},
			ptrEntry("success_rate", p.DeclaredRate), ptrEntry("occurrences", p.DeclaredOccurrences),
			dateEntry("last_validated", p.LastValidated, o)}
	}
	return []Entry{date, dateEntry("due", n.Due, o), listEntry("tags", n.Tags), textEntry("permalink", n.Permalink)}
}

// frontMatterOf is n's front matter. An extra key of the same name as
// one the note's fields wrote is left out: the field is the note's.
func frontMatterOf(n note.Note, o FormatOptions) *FrontMatter {
	var entries []Entry
	for _, e := range append([]Entry{{Key: "title", Value: n.Title}, textEntry("type", n.Type)}, frontKeys(n, o)...) {
		if e.Value != nil {
			entries = append(entries, e) // a field the note does not give is left out
		}
	}
	if n.Private {
		entries = append(entries, Entry{Key: "private", Value: true})
	}
	for _, k := range sortedKeys(n.Extra) {
		entries = append(entries, Entry{Key: k, Value: n.Extra[k]})
	}
	entries = append(entries, o.Extra...)
	fm := NewFrontMatter()
	written := map[string]bool{}
	for _, e := range entries {
		if written[e.Key] {
			continue // a key the note's own field wrote
		}
		written[e.Key] = true
		fm.Add(e.Key, e.Value)
		if e.Style != nil {
			e.Style(fm.Last())
		}
	}
	return fm
}

func textEntry(key, s string) Entry {
	if s == "" {
		return Entry{Key: key}
	}
	return Entry{Key: key, Value: s}
}

func listEntry(key string, l []string) Entry {
	if len(l) == 0 {
		return Entry{Key: key}
	}
	return Entry{Key: key, Value: l}
}

func mapEntry(key string, m map[string]float64) Entry {
	if len(m) == 0 {
		return Entry{Key: key}
	}
	return Entry{Key: key, Value: m}
}

func ptrEntry[T any](key string, p *T) Entry {
	if p == nil {
		return Entry{Key: key}
	}
	return Entry{Key: key, Value: *p}
}

// dateEntry is a date key: its text as given in o.Dates, else t in RFC
// 3339, else nothing.
func dateEntry(key string, t time.Time, o FormatOptions) Entry {
	if s := o.Dates[key]; s != "" {
		return Entry{Key: key, Value: s}
	}
	if t.IsZero() {
		return Entry{Key: key}
	}
	return Entry{Key: key, Value: t.Format(time.RFC3339Nano)}
}

func writeDecisions(b *bytes.Buffer, ds []note.Decision) {
	if len(ds) == 0 {
		return
	}
	b.WriteString("\n## Decisions\n")
	for _, d := range ds {
		b.WriteString("\n### " + d.ID)
		if t := titleText(d.Title); t != "" {
			b.WriteString(": " + t)
		}
		b.WriteString("\n\n")
		for _, f := range decisionBullets(d) {
			if v := OneLine(f[1]); v != "" {
				b.WriteString("- **" + f[0] + "**: " + v + "\n")
			}
		}
	}
}

// decisionBullets are a decision's fields as "- **Key**: value" writes
// them, in order: options comma-separated, effects as wikilinks.
func decisionBullets(d note.Decision) [][2]string {
	opts := make([]string, len(d.Options))
	for i, o := range d.Options {
		opts[i] = OneLine(o)
	}
	effects := make([]string, len(d.Effects))
	for i, l := range d.Effects {
		effects[i] = wikilink(l)
	}
	return [][2]string{{"Timestamp", d.Timestamp}, {"Type", string(d.Type)}, {"Context", d.Context},
		{"Options", strings.Join(opts, ", ")}, {"Chosen", d.Chosen}, {"Rationale", d.Rationale},
		{"Outcome", string(d.Outcome)}, {"Effects", strings.Join(effects, ", ")}}
}

// wikilink is l as [[Target#Heading|Alias]].
func wikilink(l note.Link) string {
	s := l.Target
	if l.Heading != "" {
		s += "#" + l.Heading
	}
	if l.Alias != "" {
		s += "|" + l.Alias
	}
	return "[[" + s + "]]"
}

func writeEvents(b *bytes.Buffer, es []note.Event) {
	if len(es) == 0 {
		return
	}
	b.WriteString("\n## Events Timeline\n\n")
	for i, e := range es {
		fmt.Fprintf(b, "%d. %s\n", i+1, eventLine(e))
	}
}

// eventLine is "[ts] text (caused_by e001) (leads_to e003) #type".
func eventLine(e note.Event) string {
	var b strings.Builder
	b.WriteString("[" + strings.NewReplacer("[", "(", "]", ")").Replace(OneLine(e.Timestamp)) + "]")
	if e.Text != "" {
		b.WriteString(" " + OneLine(e.Text))
	}
	if len(e.CausedBy) > 0 {
		b.WriteString(" (caused_by " + strings.Join(e.CausedBy, ", ") + ")")
	}
	if len(e.LeadsTo) > 0 {
		b.WriteString(" (leads_to " + strings.Join(e.LeadsTo, ", ") + ")")
	}
	if IsWord(e.Type) {
		b.WriteString(" #" + e.Type)
	}
	return b.String()
}

func writeLessons(b *bytes.Buffer, ls []note.Lesson) {
	var items []string
	for _, l := range ls {
		if t := ItemText(l.Text); t != "" {
			items = append(items, t)
		}
	}
	writeItems(b, "Lessons Learned", items)
}

func writeCausal(b *bytes.Buffer, cs []note.CausalLink) {
	var items []string
	for _, c := range cs {
		item := string(c.Type) + " [[" + c.Target + "]]"
		if c.Weight != nil {
			item += " (weight " + strconv.FormatFloat(*c.Weight, 'g', -1, 64) + ")"
		}
		items = append(items, item)
	}
	writeItems(b, "Causal Relationships", items)
}

func writeEvidence(b *bytes.Buffer, es []note.Evidence) {
	var items []string
	for _, e := range es {
		items = append(items, strings.TrimSpace("[["+e.Target+"]] - "+string(e.Outcome)+" "+OneLine(e.Text)))
	}
	writeItems(b, "Evidence Episodes", items)
}

// writeItems writes a section of list items, which are markdown already.
func writeItems(b *bytes.Buffer, heading string, items []string) {
	if len(items) == 0 {
		return
	}
	b.WriteString("\n## " + heading + "\n\n")
	for _, it := range items {
		b.WriteString("- " + it + "\n")
	}
}

// wordPattern is one word: an event's #type, a decision's id. The reader
// (eventTypeRE) and the writer (IsWord) share it.
const wordPattern = `[A-Za-z_][A-Za-z0-9_-]*`

var wordRE = regexp.MustCompile(`^` + wordPattern + `$`)

// IsWord reports whether s is one word, as an event type or a decision id
// must be to read back.
func IsWord(s string) bool { return wordRE.MatchString(s) }

// OneLine puts text on one line (a list item's text is one line) and
// replaces NUL, which would make the note a binary file.
func OneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\x00") {
		return s
	}
	return strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ", "\x00", "\uFFFD").Replace(s)
}

// blockStartRE matches text that CommonMark would not read as a paragraph
// at the start of a list item: a heading, quote, list, rule, fence or
// HTML.
var blockStartRE = regexp.MustCompile("^(?:[#>+*_=`~<|-]|[0-9]{1,9}[.)](?:\\s|$))")

// ItemText is text as the text of one list item: on one line, trimmed,
// and escaped with a backslash where it would start another block. The
// parser keeps the backslash: "\# x" reads back as "\# x".
func ItemText(s string) string {
	s = strings.TrimSpace(OneLine(s))
	if blockStartRE.MatchString(s) {
		return `\` + s
	}
	return s
}

// titleText is a decision title fit for a "### id: title" heading: one
// line, no wikilink, no closing #s (which a heading drops).
func titleText(t string) string {
	t = strings.NewReplacer("[[", "", "]]", "").Replace(OneLine(t))
	return strings.TrimRight(strings.TrimSpace(t), "# ")
}

// ProseText makes plain text the markdown of a prose section that stays
// in its section: a line that would be a heading, or a heading's
// underline, is escaped with a backslash.
func ProseText(s string) string {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"), "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") || t != "" && strings.Trim(t, "=- ") == "" {
			lines[i] = `\` + strings.TrimLeft(l, " ")
		}
	}
	return strings.ReplaceAll(strings.Join(lines, "\n"), "\x00", "\uFFFD")
}
