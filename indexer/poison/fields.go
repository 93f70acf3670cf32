package poison

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/engramhq/engram/indexer/note"
)

// Field is one text of a note that an agent may be handed, named as the
// answers that withhold it name it: "task", "context",
// "decisions/d001/rationale", "events/e003", "lessons/2" (numbered from
// 1), "observations/1", "sections/Notes".
type Field struct {
	Name string
	Text string
	// Line is the line of the file the field starts on (or its item's
	// heading), 0 when the note does not say (front matter values).
	Line int
}

// Fields are the texts of a note that an agent may be handed: the
// title; an episode's task, context, decisions, events and lessons; a
// pattern's trigger and action; every note's prose sections,
// observations, relations' contexts and the string values of the front
// matter keys engram passes through.
func Fields(n *note.Note) []Field {
	var fs []Field
	walk(n, func(ref fieldRef, text string, line int) {
		fs = append(fs, Field{Name: ref.name(), Text: text, Line: line})
	})
	return fs
}

// fieldRef names a field without making its name: most are never named
// (nothing is found in them).
type fieldRef struct {
	kind string // title, task, context, trigger, action, decisions, events, lessons, observations, relations, sections, extra
	id   string // a decision's or an event's id, a section's heading, a front matter key
	num  int    // a lesson's, an observation's or a relation's number, from 1
	part string // a decision's field
}

func (f fieldRef) name() string {
	switch {
	case f.part != "":
		return f.kind + "/" + f.id + "/" + f.part
	case f.num > 0:
		return f.kind + "/" + strconv.Itoa(f.num)
	case f.kind == "sections" && f.id == "":
		return "sections/(top)"
	case f.id != "" || f.kind == "sections":
		return f.kind + "/" + f.id
	}
	return f.kind
}

// walk calls fn with each text of n an agent may be handed (see Fields),
// skipping empty ones.
func walk(n *note.Note, fn func(ref fieldRef, text string, line int)) {
	add := func(ref fieldRef, text string, line int) {
		if strings.TrimSpace(text) != "" {
			fn(ref, text, line)
		}
	}
	add(fieldRef{kind: "title"}, n.Title, 0)
	skip := map[string]bool{}
	switch {
	case n.Episode != nil:
		walkEpisode(n.Episode, add)
		if c := contextSection(n); c != nil {
			add(fieldRef{kind: "context"}, c.Markdown, c.Line)
			skip[strings.ToLower(c.Heading)] = true
		}
	case n.Pattern != nil:
		trigger, action := n.TriggerAction()
		add(fieldRef{kind: "trigger"}, trigger, sectionLine(n, "Trigger", n.Pattern.Trigger))
		add(fieldRef{kind: "action"}, action, sectionLine(n, "Action", n.Pattern.Action))
		skip["trigger"], skip["action"] = n.Pattern.Trigger == "", n.Pattern.Action == ""
	}
	for _, s := range n.Sections {
		if !skip[strings.ToLower(s.Heading)] {
			add(fieldRef{kind: "sections", id: s.Heading}, s.Markdown, s.Line)
		}
	}
	for i, o := range n.Observations {
		text := o.Content
		if o.Context != "" {
			text += " " + o.Context
		}
		add(fieldRef{kind: "observations", num: i + 1}, text, o.Line)
	}
	for i, r := range n.Relations {
		add(fieldRef{kind: "relations", num: i + 1}, r.Context, r.Line)
	}
	for _, f := range extraFields(n.Extra) {
		add(fieldRef{kind: "extra", id: f.Name}, f.Text, 0)
	}
}

// walkEpisode gives an episode's task, decisions, events and lessons.
func walkEpisode(e *note.Episode, add func(fieldRef, string, int)) {
	add(fieldRef{kind: "task"}, e.Task, 0)
	for _, d := range e.Decisions {
		ref := fieldRef{kind: "decisions", id: d.ID}
		for _, p := range [...]struct{ part, text string }{{"title", d.Title}, {"context", d.Context}, {"chosen", d.Chosen}, {"rationale", d.Rationale}, {"outcome", string(d.Outcome)}} {
			ref.part = p.part
			add(ref, p.text, d.Line)
		}
		if len(d.Options) > 0 {
			ref.part = "options"
			add(ref, strings.Join(d.Options, "\n"), d.Line)
		}
	}
	for _, ev := range e.Events {
		add(fieldRef{kind: "events", id: ev.ID}, ev.Text, ev.Line)
	}
	for i, l := range e.Lessons {
		add(fieldRef{kind: "lessons", num: i + 1}, l.Text, l.Line)
	}
}

// contextSection is the section an episode publishes as its context.
func contextSection(n *note.Note) *note.Section {
	for i := range n.Sections {
		if strings.EqualFold(n.Sections[i].Heading, "Context") {
			return &n.Sections[i]
		}
	}
	return nil
}

// sectionLine is the line of the section a pattern's trigger or action
// comes from, or 0 when the front matter gives it.
func sectionLine(n *note.Note, heading, frontMatter string) int {
	if frontMatter != "" {
		return 0
	}
	for _, s := range n.Sections {
		if strings.EqualFold(s.Heading, heading) {
			return s.Line
		}
	}
	return 0
}

// extraFields are the strings among the front matter values that engram
// passes through, by key (in Name), in key order.
func extraFields(extra map[string]any) []Field {
	if len(extra) == 0 {
		return nil
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var fs []Field
	for _, k := range keys {
		var texts []string
		collect(extra[k], &texts, 0)
		if t := strings.Join(texts, "\n"); strings.TrimSpace(t) != "" {
			fs = append(fs, Field{Name: k, Text: t})
		}
	}
	return fs
}

// collect gathers the strings of a front matter value, depth first, to
// the depth the parser allows.
func collect(v any, out *[]string, depth int) {
	if depth > 32 {
		return
	}
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case []any:
		for _, e := range x {
			collect(e, out, depth+1)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			collect(x[k], out, depth+1)
		}
	case fmt.Stringer:
		*out = append(*out, x.String())
	}
}
