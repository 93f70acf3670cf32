package aiagents

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/parse"
	"go.yaml.in/yaml/v3"
)

// render writes the note: front matter, then Decisions, Events Timeline
// and Lessons Learned (SPEC §2.1).
func (c *conversion) render() []byte {
	var b bytes.Buffer
	e := c.md
	fm := parse.NewFrontMatter()
	fm.Add("title", e.ID)
	fm.Add("type", "episode")
	if e.Timestamp != "" {
		fm.Add("date", e.Timestamp)
	}
	fm.Add("outcome", e.Outcome)
	task := e.Task
	if task == "" {
		task = e.ID // a markdown episode needs a task; the sidecar keeps ""
	}
	fm.Add("task", task)
	if e.Session != "" {
		fm.Add("session", e.Session)
	}
	if len(e.Metrics) > 0 {
		fm.Add("metrics", e.Metrics)
	}
	if c.private {
		fm.Add("private", true)
	}
	for _, k := range sortedKeys(e.Extra) {
		if c.top[k] {
			fm.Add(k, e.Extra[k])
		}
	}
	if len(c.side.Exact) > 0 || len(c.side.Extra) > 0 {
		addSidecar(fm, c.side)
	}
	b.WriteString("---\n")
	b.Write(fm.Bytes())
	b.WriteString("---\n")
	c.renderDecisions(&b)
	if len(e.Events) > 0 {
		b.WriteString("\n## Events Timeline\n\n")
		for i, ev := range e.Events {
			fmt.Fprintf(&b, "%d. %s\n", i+1, eventLine(ev))
		}
	}
	if len(e.Lessons) > 0 {
		b.WriteString("\n## Lessons Learned\n\n")
		for _, l := range e.Lessons {
			b.WriteString("- " + lessonLine(l) + "\n")
		}
	}
	return b.Bytes()
}

func (c *conversion) renderDecisions(b *bytes.Buffer) {
	if len(c.md.Decisions) == 0 {
		return
	}
	b.WriteString("\n## Decisions\n")
	for i, d := range c.md.Decisions {
		b.WriteString("\n### " + d.ID)
		if t := headingText(c.titles[i]); t != "" {
			b.WriteString(": " + t)
		}
		b.WriteString("\n\n")
		for _, row := range decisionFields {
			if row.bullet == "" {
				continue
			}
			if v := bulletText(row.key, row.file(&d).get()); v != "" {
				b.WriteString("- **" + row.bullet + "**: " + oneLine(v) + "\n")
			}
		}
	}
}

// bulletText is a decision's value as its bullet shows it: effects as
// wikilinks, other lists comma-separated.
func bulletText(key string, v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []string:
		if key == "effects" {
			var links []string
			for _, e := range x {
				links = append(links, "[["+e+"]]")
			}
			return strings.Join(links, ", ")
		}
		return joinOptions(x)
	}
	return ""
}

// joinOptions writes options comma-separated, as the parser splits them;
// an option that holds a comma, or is empty, reads back different and
// goes to the sidecar.
func joinOptions(opts []string) string {
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = oneLine(o)
	}
	return strings.Join(out, ", ")
}

var eventTypeWordRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// eventLine is "[ts] content (caused_by e001) (leads_to e003) #type".
func eventLine(ev Event) string {
	var b strings.Builder
	b.WriteString("[" + strings.NewReplacer("[", "(", "]", ")").Replace(oneLine(ev.Timestamp)) + "]")
	if ev.Content != "" {
		b.WriteString(" " + oneLine(ev.Content))
	}
	if len(ev.CausedBy) > 0 {
		b.WriteString(" (caused_by " + strings.Join(ev.CausedBy, ", ") + ")")
	}
	if len(ev.LeadsTo) > 0 {
		b.WriteString(" (leads_to " + strings.Join(ev.LeadsTo, ", ") + ")")
	}
	if eventTypeWordRE.MatchString(ev.Type) {
		b.WriteString(" #" + ev.Type)
	}
	return b.String()
}

// blockStartRE matches text that CommonMark would not read as a paragraph
// at the start of a list item: a heading, quote, list, rule, fence or
// HTML. A backslash before it keeps it text (the parser keeps the
// backslash, so the sidecar keeps the lesson).
var blockStartRE = regexp.MustCompile("^(?:[#>+*_=`~<|-]|[0-9]{1,9}[.)](?:\\s|$))")

// lessonLine is a lesson as one list item's text.
func lessonLine(l string) string {
	l = strings.TrimSpace(oneLine(l))
	switch {
	case l == "":
		return "(empty lesson)"
	case blockStartRE.MatchString(l):
		return `\` + l
	}
	return l
}

// oneLine puts text on one line (a list item's text is one line) and
// replaces NUL, which would make the note a binary file.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\x00") {
		return s
	}
	return strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ", "\x00", "\uFFFD").Replace(s)
}

// headingText is a decision title fit for a "### id: title" heading: one
// line, no wikilink, no closing #s (which a heading drops).
func headingText(t string) string {
	t = strings.NewReplacer("[[", "", "]]", "").Replace(oneLine(t))
	return strings.TrimRight(strings.TrimSpace(t), "# ")
}

// addSidecar adds the ai_agents key, one line per exact value: {value:
// ..., shown: ...}.
func addSidecar(m *parse.FrontMatter, s sidecar) {
	m.Add(sidecarKey, s)
	side := m.Last()
	for i := 0; i+1 < len(side.Content); i += 2 {
		if side.Content[i].Value != "exact" {
			continue
		}
		entries := side.Content[i+1]
		for j := 1; j < len(entries.Content); j += 2 {
			e := entries.Content[j]
			e.Style = yaml.FlowStyle
			if len(e.Content) == 4 && e.Content[0].Value == "shown" {
				e.Content = append(e.Content[2:], e.Content[:2]...)
			}
		}
	}
}

// safeName is s as a file name: letters, digits, '.', '_' and '-', other
// runs as one '-', at most max bytes; a name that had to be cut ends in a
// hash of s, so that it stays unique.
func safeName(s string, max int) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r == '.' || r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
		if !ok {
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		b.WriteRune(r)
		dash = r == '-'
	}
	name := strings.Trim(b.String(), "-.")
	if name != "" && len(name) <= max {
		return name
	}
	sum := sha256.Sum256([]byte(s))
	cut := name
	for len(cut) > max-9 {
		_, size := utf8.DecodeLastRuneInString(cut)
		cut = cut[:len(cut)-size]
	}
	if cut = strings.Trim(cut, "-."); cut == "" {
		cut = "x"
	}
	return cut + "-" + hex.EncodeToString(sum[:])[:8]
}
