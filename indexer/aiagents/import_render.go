package aiagents

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// render writes the note: front matter, then Decisions, Events Timeline
// and Lessons Learned (SPEC §2.1).
func (c *conversion) render() []byte {
	var b bytes.Buffer
	e := c.md
	fm := newYAMLMap()
	fm.add("title", e.ID)
	fm.add("type", "episode")
	if e.Timestamp != "" {
		fm.add("date", e.Timestamp)
	}
	fm.add("outcome", e.Outcome)
	task := e.Task
	if task == "" {
		task = e.ID // a markdown episode needs a task; the sidecar keeps ""
	}
	fm.add("task", task)
	if e.Session != "" {
		fm.add("session", e.Session)
	}
	if len(e.Metrics) > 0 {
		fm.add("metrics", e.Metrics)
	}
	if c.private {
		fm.add("private", true)
	}
	for _, k := range sortedKeys(e.Extra) {
		if c.top[k] {
			fm.add(k, e.Extra[k])
		}
	}
	if len(c.side.Exact) > 0 || len(c.side.Extra) > 0 {
		fm.addSidecar(c.side)
	}
	b.WriteString("---\n")
	b.Write(fm.bytes())
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

// yamlMap builds front matter with its keys in a fixed order.
type yamlMap struct{ n yaml.Node }

func newYAMLMap() *yamlMap { return &yamlMap{n: yaml.Node{Kind: yaml.MappingNode}} }

func (m *yamlMap) add(key string, v any) {
	var k yaml.Node
	k.SetString(key)
	m.n.Content = append(m.n.Content, &k, yamlNode(plainJSON(v)))
}

// plainJSON turns v into the values encoding/json decodes (maps, slices,
// strings, json.Number, bools, nil).
func plainJSON(v any) any {
	b, err := marshal(v)
	if err != nil {
		return fmt.Sprint(v) // only plain values come here
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	_ = dec.Decode(&out)
	return out
}

// yamlNode builds the node of a plain value. yaml.v3's own Node.Encode is
// not used: it fails on some strings (a tab, then a line break) because
// it reads back what it writes as a block scalar. Such strings are
// double-quoted here, which YAML reads back exactly.
func yamlNode(v any) *yaml.Node {
	switch x := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for _, k := range sortedKeys(x) {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Style: quoteStyle(k)}, yamlNode(x[k]))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range x {
			n.Content = append(n.Content, yamlNode(e))
		}
		return n
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: x, Style: quoteStyle(x)}
	case json.Number:
		tag := "!!float"
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			tag = "!!int"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(x)}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

// quoteStyle is double quotes for text with control characters (line
// breaks, tabs), else the encoder's choice.
func quoteStyle(s string) yaml.Style {
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\uFEFF' {
			return yaml.DoubleQuotedStyle
		}
	}
	return 0
}

// addSidecar adds the ai_agents key, one line per exact value: {value:
// ..., shown: ...}.
func (m *yamlMap) addSidecar(s sidecar) {
	m.add(sidecarKey, s)
	side := m.n.Content[len(m.n.Content)-1]
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

func (m *yamlMap) bytes() []byte {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&m.n); err != nil {
		panic(fmt.Sprintf("aiagents: encode front matter: %v", err)) // plain values cannot fail
	}
	enc.Close()
	return b.Bytes()
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
