package aiagents

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// Imported is what Import makes of an ai-agents memory directory: the
// notes to write, at slash-separated paths relative to the memory
// repository (episodes/<id>.md, patterns/PATTERN-<name>.md).
type Imported struct {
	Files []File
	// Episodes and Patterns count the notes made; Skipped the episode
	// files and pattern rows that made none (the diagnostics say why).
	Episodes, Patterns, Skipped int
}

// maxInput is the largest file Import reads: an episode note over
// parse.MaxNoteBytes cannot be published anyway, and a causal graph is
// rarely over a few megabytes.
const maxInput = 64 << 20

// Import converts every episode file (**/episodes/episode-*.json) of fsys
// into an episode note, and every pattern row of every
// **/causality/causal-graph.json into a pattern note. A file that cannot
// be read is an error diagnostic and the others go on. Diagnostics name
// paths in fsys.
//
// Each note is parsed back before it is returned: it has no error
// diagnostic, and what its markdown cannot hold exactly is kept in its
// ai_agents front matter (see EpisodeOf), so that Export gives back the
// episode that was imported.
func Import(fsys fs.FS) (Imported, []note.Diagnostic) {
	var imp Imported
	episodes, graphs, diags := findInputs(fsys)
	p := parse.New(parse.Roots{})
	titles := map[string]string{} // lower-case title -> file
	outcomes := map[string]string{}
	names := map[string]bool{}
	for _, f := range episodes {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			diags = append(diags, fileDiag(f, note.Error, "read", err.Error()))
			imp.Skipped++
			continue
		}
		md, n, ds, err := episodeMarkdown(p, f, data)
		diags = append(diags, ds...)
		if err != nil {
			imp.Skipped++
			continue
		}
		key := strings.ToLower(n.Title)
		if first, dup := titles[key]; dup {
			diags = append(diags, fileDiag(f, note.Error, "aiagents-import", fmt.Sprintf("episode id %q is also the id of %s; not imported, as note titles must be unique", n.Title, first)))
			imp.Skipped++
			continue
		}
		titles[key] = f
		outcomes[key] = n.Episode.Outcome
		imp.Files = append(imp.Files, File{Path: "episodes/" + uniqueName(names, safeName(n.Title, 120)) + ".md", Data: md})
		imp.Episodes++
	}
	for _, f := range graphs {
		files, skipped, ds := importGraph(p, fsys, f, outcomes, names)
		diags = append(diags, ds...)
		imp.Files = append(imp.Files, files...)
		imp.Patterns += len(files)
		imp.Skipped += skipped
	}
	note.SortDiagnostics(diags)
	return imp, diags
}

func fileDiag(p string, sev note.Severity, rule, msg string) note.Diagnostic {
	return note.Diagnostic{Path: p, Line: 1, Col: 1, Severity: sev, Rule: rule, Message: msg}
}

// findInputs lists the episode and graph files of fsys in lexical order,
// never following symbolic links.
func findInputs(fsys fs.FS) (episodes, graphs []string, diags []note.Diagnostic) {
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			diags = append(diags, fileDiag(p, note.Error, "read", err.Error()))
			return nil
		}
		isGraph := path.Base(p) == "causal-graph.json" && path.Base(path.Dir(p)) == "causality"
		switch {
		case d.IsDir() && d.Name() == ".git":
			return fs.SkipDir
		case d.IsDir() || !IsEpisodeFile(p) && !isGraph:
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			diags = append(diags, fileDiag(p, note.Warning, "aiagents-import", "symbolic link; not followed"))
			return nil
		}
		if info, err := d.Info(); err == nil && info.Size() > maxInput {
			diags = append(diags, fileDiag(p, note.Error, "aiagents-import", fmt.Sprintf("file is %d bytes, over the limit of %d; not imported", info.Size(), maxInput)))
			return nil
		}
		if isGraph {
			graphs = append(graphs, p)
		} else {
			episodes = append(episodes, p)
		}
		return nil
	})
	if err != nil {
		diags = append(diags, fileDiag(".", note.Error, "read", err.Error()))
	}
	return episodes, graphs, diags
}

// EpisodeMarkdown converts one episode file into a markdown episode note
// (SPEC §2.1) and returns it with the note as Decode reads the JSON. The
// diagnostics are Decode's and the import's; the error is non-nil when no
// note can be made: the file is not a JSON object, or the episode has no
// valid outcome (markdown episodes must have one).
func EpisodeMarkdown(filePath string, data []byte) ([]byte, note.Note, []note.Diagnostic, error) {
	return episodeMarkdown(parse.New(parse.Roots{}), filePath, data)
}

func episodeMarkdown(p *parse.Parser, filePath string, data []byte) ([]byte, note.Note, []note.Diagnostic, error) {
	n, diags, err := Decode(filePath, data)
	if err != nil {
		return nil, n, diags, err
	}
	if !outcomes[n.Episode.Outcome] {
		d := fileDiag(filePath, note.Error, "aiagents-import", fmt.Sprintf("episode outcome %q is not success, partial or failure; a markdown episode needs one, so it is not imported", n.Episode.Outcome))
		return nil, n, append(diags, d), errorOf(d)
	}
	c := newConversion(filePath, data, &n)
	md, ds, err := c.markdown(p)
	diags = append(diags, ds...)
	return md, n, diags, err
}

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

// rawFields adds what Decode does not keep: causal_order_version, and the
// events' _source_session.
func rawFields(filePath string, data []byte, e *Episode) {
	d := newDecoder(filePath, data)
	root, err := readTree(d.src)
	if err != nil || root.kind != kindObject {
		return
	}
	f := d.object(root)
	if m := f["causal_order_version"]; m != nil {
		e.Extra["causal_order_version"] = d.plain(m.val)
	}
	k := 0
	for _, v := range d.list(f, "events", "events") {
		if v.kind != kindObject {
			continue // Decode skips it too
		}
		if s, _, _ := d.text(d.object(v), "_source_session", ""); s != "" && k < len(e.Events) {
			e.Events[k].SourceSession = s
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
		wget, _ := slot(&c.want, c.ids, key)
		gget, _ := slot(&got, c.ids, key)
		c.side.Exact[key] = exact{Value: plainValue(wget()), Shown: plainValue(gget())}
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
	var keys []string
	add := func(key string, a, b any) {
		if canonical(a) != canonical(b) {
			keys = append(keys, key)
		}
	}
	for _, f := range []string{"id", "session", "timestamp", "outcome", "task", "metrics"} {
		wget, _ := topSlot(&want, f)
		gget, _ := topSlot(&got, f)
		add(f, wget(), gget())
	}
	for i := range min(len(want.Lessons), len(got.Lessons)) {
		add(fmt.Sprintf("lessons.%d", i+1), want.Lessons[i], got.Lessons[i])
	}
	for i := range min(len(want.Decisions), len(got.Decisions)) {
		prefix := "decisions." + ids.decisions[i] + "."
		for _, f := range []string{"id", "timestamp", "type", "context", "options", "chosen", "rationale", "outcome", "effects"} {
			wget, _ := decisionSlot(&want.Decisions[i], f)
			gget, _ := decisionSlot(&got.Decisions[i], f)
			if f == "id" {
				wget, gget = func() any { return want.Decisions[i].ID }, func() any { return got.Decisions[i].ID }
			}
			add(prefix+f, wget(), gget())
		}
	}
	for i := range min(len(want.Events), len(got.Events)) {
		prefix := "events." + ids.events[i] + "."
		add(prefix+"id", want.Events[i].ID, got.Events[i].ID)
		for _, f := range []string{"timestamp", "type", "content", "caused_by", "leads_to", "_source_session"} {
			wget, _ := eventSlot(&want.Events[i], f)
			gget, _ := eventSlot(&got.Events[i], f)
			add(prefix+f, wget(), gget())
		}
	}
	return keys
}

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
		var effects []string
		for _, e := range d.Effects {
			effects = append(effects, "[["+e+"]]")
		}
		for _, f := range [][2]string{
			{"Timestamp", d.Timestamp}, {"Type", d.Type}, {"Context", d.Context},
			{"Options", joinOptions(d.Options)}, {"Chosen", d.Chosen}, {"Rationale", d.Rationale},
			{"Outcome", d.Outcome}, {"Effects", strings.Join(effects, ", ")},
		} {
			if f[1] != "" {
				b.WriteString("- **" + f[0] + "**: " + oneLine(f[1]) + "\n")
			}
		}
	}
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
