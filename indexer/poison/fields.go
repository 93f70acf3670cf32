package poison

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/engramhq/engram/indexer/note"
)

// Field is one text of a note that an agent may be handed, named as
// WithheldField and the answers that withhold it name it: "task",
// "context", "decisions/d001/rationale", "events/e003", "lessons/2"
// (numbered from 1), "observations/1", "sections/Notes".
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
	fs := []Field{{Name: "title", Text: n.Title}}
	add := func(name, text string, line int) {
		if strings.TrimSpace(text) != "" {
			fs = append(fs, Field{Name: name, Text: text, Line: line})
		}
	}
	skip := map[string]bool{}
	switch {
	case n.Episode != nil:
		fs = append(fs, episodeFields(n.Episode)...)
		if c := contextSection(n); c != nil {
			add("context", c.Markdown, c.Line)
			skip[strings.ToLower(c.Heading)] = true
		}
	case n.Pattern != nil:
		trigger, action := n.TriggerAction()
		add("trigger", trigger, sectionLine(n, "Trigger", n.Pattern.Trigger))
		add("action", action, sectionLine(n, "Action", n.Pattern.Action))
		skip["trigger"], skip["action"] = n.Pattern.Trigger == "", n.Pattern.Action == ""
	}
	for _, s := range n.Sections {
		if !skip[strings.ToLower(s.Heading)] {
			add(sectionName(s.Heading), s.Markdown, s.Line)
		}
	}
	for i, o := range n.Observations {
		add("observations/"+strconv.Itoa(i+1), strings.TrimSpace(o.Content+" "+o.Context), o.Line)
	}
	for i, r := range n.Relations {
		add("relations/"+strconv.Itoa(i+1), r.Context, r.Line)
	}
	return append(fs, extraFields(n.Extra)...)
}

// episodeFields are an episode's task, decisions, events and lessons.
func episodeFields(e *note.Episode) []Field {
	fs := []Field{{Name: "task", Text: e.Task}}
	for _, d := range e.Decisions {
		for _, p := range []struct{ name, text string }{{"title", d.Title}, {"context", d.Context},
			{"options", strings.Join(d.Options, "\n")}, {"chosen", d.Chosen}, {"rationale", d.Rationale}, {"outcome", d.Outcome}} {
			fs = append(fs, Field{Name: "decisions/" + d.ID + "/" + p.name, Text: p.text, Line: d.Line})
		}
	}
	for _, ev := range e.Events {
		fs = append(fs, Field{Name: "events/" + ev.ID, Text: ev.Text, Line: ev.Line})
	}
	for i, l := range e.Lessons {
		fs = append(fs, Field{Name: "lessons/" + strconv.Itoa(i+1), Text: l.Text, Line: l.Line})
	}
	return fs
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

func sectionName(heading string) string {
	if heading == "" {
		return "sections/(top)"
	}
	return "sections/" + heading
}

// extraFields are the strings among the front matter values that engram
// passes through, by key, in key order.
func extraFields(extra map[string]any) []Field {
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
			fs = append(fs, Field{Name: "extra/" + k, Text: t})
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
