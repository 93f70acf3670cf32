package aiagents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/note"
)

// Episode is an ai-agents episode file (episode.schema.json), as Export
// writes it. Extra holds the top-level keys outside the schema; they are
// written after the others, sorted.
type Episode struct {
	ID        string
	Session   string
	Timestamp string
	Outcome   string
	Task      string
	Decisions []Decision
	Events    []Event
	Metrics   map[string]float64
	Lessons   []string
	Extra     map[string]any
}

// Decision is a decision of an episode file.
type Decision struct {
	ID        string   `json:"id"`
	Timestamp string   `json:"timestamp"`
	Type      string   `json:"type"`
	Context   string   `json:"context"`
	Options   []string `json:"options"`
	Chosen    string   `json:"chosen"`
	Rationale string   `json:"rationale"`
	Outcome   string   `json:"outcome"`
	Effects   []string `json:"effects"`
}

// Event is an event of an episode file. SourceSession is the writer's
// bookkeeping field _source_session (schema of 2026-08).
type Event struct {
	ID            string   `json:"id"`
	Timestamp     string   `json:"timestamp"`
	Type          string   `json:"type"`
	Content       string   `json:"content"`
	CausedBy      []string `json:"caused_by"`
	LeadsTo       []string `json:"leads_to"`
	SourceSession string   `json:"_source_session,omitempty"`
}

// MarshalJSON writes the schema's keys in the schema's order, lists as []
// rather than null, then the extra keys.
func (e Episode) MarshalJSON() ([]byte, error) {
	type schema struct {
		ID        string             `json:"id"`
		Session   string             `json:"session"`
		Timestamp string             `json:"timestamp"`
		Outcome   string             `json:"outcome"`
		Task      string             `json:"task"`
		Decisions []Decision         `json:"decisions"`
		Events    []Event            `json:"events"`
		Metrics   map[string]float64 `json:"metrics"`
		Lessons   []string           `json:"lessons"`
	}
	s := schema{e.ID, e.Session, e.Timestamp, e.Outcome, e.Task, e.Decisions, e.Events, e.Metrics, e.Lessons}
	s.Decisions = orEmpty(s.Decisions)
	s.Events = orEmpty(s.Events)
	s.Lessons = orEmpty(s.Lessons)
	if s.Metrics == nil {
		s.Metrics = map[string]float64{}
	}
	for i := range s.Decisions {
		s.Decisions[i].Options = orEmpty(s.Decisions[i].Options)
		s.Decisions[i].Effects = orEmpty(s.Decisions[i].Effects)
	}
	for i := range s.Events {
		s.Events[i].CausedBy = orEmpty(s.Events[i].CausedBy)
		s.Events[i].LeadsTo = orEmpty(s.Events[i].LeadsTo)
	}
	b, err := marshal(s)
	if err != nil || len(e.Extra) == 0 {
		return b, err
	}
	var buf bytes.Buffer
	buf.Write(b[:len(b)-1])
	for _, k := range sortedKeys(e.Extra) {
		if schemaKeys[k] {
			continue
		}
		kb, _ := marshal(k)
		vb, err := marshal(e.Extra[k])
		if err != nil {
			return nil, fmt.Errorf("episode %s: key %s: %w", e.ID, k, err)
		}
		buf.WriteByte(',')
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// marshal is json.Marshal without escaping <, > and &: episodes are
// read by people too.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// schemaKeys are the keys MarshalJSON writes itself.
var schemaKeys = map[string]bool{
	"id": true, "session": true, "timestamp": true, "outcome": true, "task": true,
	"decisions": true, "events": true, "metrics": true, "lessons": true,
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	// A copy, so that filling in empty lists never writes to the caller's.
	return append([]T{}, s...)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// EpisodeOf returns an episode note (markdown, or JSON as Decode reads
// it) as an episode file. created stands in for the timestamp when the
// note has no date. A note that engram import wrote keeps, in its
// ai_agents front matter, the values its markdown cannot hold exactly
// (sub-second times, event ids, options with commas, ...): each is used
// while the markdown still shows what the import wrote there, so an edit
// of the note wins over it. The diagnostics say when some were set aside.
func EpisodeOf(n *note.Note, created time.Time) (Episode, []note.Diagnostic) {
	e, mdIDs := plainEpisode(n)
	var diags []note.Diagnostic
	if raw, ok := n.Extra[sidecarKey]; ok {
		s, err := readSidecar(raw)
		if err != nil {
			diags = append(diags, sidecarDiag(n, "ai_agents front matter is unreadable (%v); ignored", err))
		} else if stale := s.apply(&e, mdIDs); len(stale) > 0 {
			diags = append(diags, sidecarDiag(n, "ai_agents values %s no longer match the note, which was edited; the note's values are exported", strings.Join(stale, ", ")))
		}
	}
	if e.Timestamp == "" && !created.IsZero() {
		e.Timestamp = created.UTC().Format(time.RFC3339Nano)
	}
	return e, diags
}

func sidecarDiag(n *note.Note, format string, args ...any) note.Diagnostic {
	return note.Diagnostic{Path: n.Path, Line: 1, Col: 1, Severity: note.Info, Rule: "aiagents-export", Message: fmt.Sprintf(format, args...)}
}

// partIDs are the ids of an episode's decisions and events as its note
// writes them, before the sidecar maps them back.
type partIDs struct{ decisions, events []string }

// plainEpisode maps the note's fields one to one.
func plainEpisode(n *note.Note) (Episode, partIDs) {
	ep := n.Episode
	e := Episode{ID: n.Title, Session: ep.Session, Outcome: ep.Outcome, Task: ep.Task, Extra: map[string]any{}}
	if !n.Date.IsZero() {
		e.Timestamp = n.Date.UTC().Format(time.RFC3339Nano)
	}
	var ids partIDs
	for _, d := range ep.Decisions {
		var effects []string
		for _, l := range d.Effects {
			t := l.Target
			if l.Heading != "" {
				t += "#" + l.Heading
			}
			effects = append(effects, t)
		}
		e.Decisions = append(e.Decisions, Decision{ID: d.ID, Timestamp: d.Timestamp, Type: d.Type, Context: d.Context,
			Options: d.Options, Chosen: d.Chosen, Rationale: d.Rationale, Outcome: d.Outcome, Effects: effects})
		ids.decisions = append(ids.decisions, d.ID)
	}
	for _, ev := range ep.Events {
		e.Events = append(e.Events, Event{ID: ev.ID, Timestamp: ev.Timestamp, Type: ev.Type, Content: ev.Text, CausedBy: ev.CausedBy, LeadsTo: ev.LeadsTo})
		ids.events = append(ids.events, ev.ID)
	}
	e.Metrics = metricsOf(ep)
	for _, l := range ep.Lessons {
		e.Lessons = append(e.Lessons, l.Text)
	}
	for k, v := range n.Extra {
		if k != sidecarKey {
			e.Extra[k] = v
		}
	}
	return e, ids
}

// metricsOf returns the metrics, with duration_minutes from the front
// matter field when the metrics lack it; nil for none.
func metricsOf(ep *note.Episode) map[string]float64 {
	var m map[string]float64
	for k, v := range ep.Metrics {
		if m == nil {
			m = map[string]float64{}
		}
		m[k] = v
	}
	if d := ep.DurationMinutes; d != nil {
		if _, ok := m["duration_minutes"]; !ok {
			if m == nil {
				m = map[string]float64{}
			}
			m["duration_minutes"] = *d
		}
	}
	return m
}

// File is a file to write, at a slash-separated path under the export
// directory.
type File struct {
	Path string
	Data []byte
}

// Input is a loaded repository, in plain types: this package cannot
// import the graph stage (whose tests read ai-agents files).
type Input struct {
	Notes []note.Note
	// Created holds each note's creation time (its first commit, or its
	// date): the timestamp of an episode without one, the created of a
	// pattern row.
	Created []time.Time
	Nodes   []Node
	Edges   []Edge
	// Stats holds each note's pattern statistics; zero for other notes.
	Stats []Stats
	// Updated is the graph's updated time: the build's reference time.
	Updated time.Time
}

// Node is a node of engram's causal graph; Note indexes Input.Notes.
type Node struct {
	ID, Type, Label string
	Note            int
}

// Edge is an edge of engram's causal graph.
type Edge struct {
	Source, Target, Type string
	Weight               float64
	EvidenceCount        int
}

// Stats are a pattern's statistics; Source is "evidence", "declared" or
// "" (none).
type Stats struct {
	Source      string
	SuccessRate float64
	Occurrences int
	Evidence    []EvidenceRef
}

// EvidenceRef is a counted evidence episode.
type EvidenceRef struct{ ID, Outcome string }

// Export writes every episode note as an episode file
// (episodes/episode-<name>.json) and the graph as
// causality/causal-graph.json, in the order of in.Notes.
func Export(in Input) ([]File, []note.Diagnostic, error) {
	var files []File
	var diags []note.Diagnostic
	names := map[string]bool{}
	ids := nodeIDs{}
	for i := range in.Notes {
		n := &in.Notes[i]
		if n.Episode == nil {
			continue
		}
		e, ds := EpisodeOf(n, timeAt(in.Created, i))
		diags = append(diags, ds...)
		ids.add(n, e)
		data, err := encodeJSON(e)
		if err != nil {
			return nil, diags, err
		}
		files = append(files, File{Path: "episodes/" + uniqueName(names, episodeFileName(n.Title)) + ".json", Data: data})
	}
	data, err := encodeJSON(graphOf(in, ids))
	if err != nil {
		return nil, diags, err
	}
	files = append(files, File{Path: "causality/causal-graph.json", Data: data})
	return files, diags, nil
}

func timeAt(ts []time.Time, i int) time.Time {
	if i < len(ts) {
		return ts[i]
	}
	return time.Time{}
}

// encodeJSON indents with two spaces, as ai-agents' writers do, and keeps
// <, > and & as they are.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// episodeFileName is "episode-<name>" for IsEpisodeFile, from a title:
// "EPISODE-2026-08-03-session-01" gives "episode-2026-08-03-session-01".
func episodeFileName(title string) string {
	name := safeName(title, 120)
	if len(name) >= len("episode-") && strings.EqualFold(name[:len("episode-")], "episode-") {
		name = name[len("episode-"):]
	}
	return "episode-" + name
}

// uniqueName returns name, or name-2, name-3, ... when a name that
// differs only by case was given before (file systems that ignore case).
func uniqueName(taken map[string]bool, name string) string {
	out := name
	for k := 2; taken[strings.ToLower(out)]; k++ {
		out = fmt.Sprintf("%s-%d", name, k)
	}
	taken[strings.ToLower(out)] = true
	return out
}

// nodeIDs maps the graph's node ids of episodes, decisions and events to
// the ids of the episode files: an imported note's events are e001... in
// markdown but keep their JSON ids in the export, and so do its nodes.
type nodeIDs map[string]string

func (x nodeIDs) add(n *note.Note, e Episode) {
	x[n.Title] = e.ID
	for i, d := range n.Episode.Decisions {
		if i < len(e.Decisions) {
			x[PartID(n.Title, d.ID)] = PartID(e.ID, e.Decisions[i].ID)
		}
	}
	for i, ev := range n.Episode.Events {
		if i < len(e.Events) {
			x[PartID(n.Title, ev.ID)] = PartID(e.ID, e.Events[i].ID)
		}
	}
}

func (x nodeIDs) of(id string) string {
	if v, ok := x[id]; ok {
		return v
	}
	return id
}

// PartID is the node id of a decision or event, as the graph stage
// names it.
func PartID(episode, part string) string { return episode + "#" + part }

// graphOf builds causal-graph.json. A node lists the episode it belongs
// to (an episode, decision or event) or its evidence episodes (a
// pattern); an edge lists the episode its source belongs to.
func graphOf(in Input, ids nodeIDs) Graph {
	g := Graph{Version: "1.0", Updated: formatTime(in.Updated), Nodes: []GraphNode{}, Edges: []GraphEdge{}, Patterns: []GraphPattern{}}
	episodeOf := map[string]string{}
	evidence := map[int][]string{}
	for i, s := range in.Stats {
		for _, ev := range s.Evidence {
			evidence[i] = append(evidence[i], ev.ID)
		}
	}
	for _, nd := range in.Nodes {
		gn := GraphNode{ID: ids.of(nd.ID), Type: nd.Type, Label: nd.Label, Episodes: []string{}, Created: formatTime(timeAt(in.Created, nd.Note))}
		if n := &in.Notes[nd.Note]; n.Episode != nil {
			episodeOf[nd.ID] = ids.of(n.Title)
			gn.Episodes = append(gn.Episodes, ids.of(n.Title))
		} else {
			gn.Episodes = append(gn.Episodes, evidence[nd.Note]...)
		}
		g.Nodes = append(g.Nodes, gn)
	}
	for _, e := range in.Edges {
		ge := GraphEdge{Source: ids.of(e.Source), Target: ids.of(e.Target), Type: e.Type, Weight: e.Weight, EvidenceCount: e.EvidenceCount, Episodes: []string{}}
		if ep, ok := episodeOf[e.Source]; ok {
			ge.Episodes = append(ge.Episodes, ep)
		}
		g.Edges = append(g.Edges, ge)
	}
	for i := range in.Notes {
		if in.Notes[i].Pattern != nil {
			var s Stats
			if i < len(in.Stats) {
				s = in.Stats[i]
			}
			g.Patterns = append(g.Patterns, PatternRow(&in.Notes[i], s, timeAt(in.Created, i)))
		}
	}
	return g
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// sidecarKey is the front matter key where engram import keeps what the
// markdown of a note cannot hold exactly.
const sidecarKey = "ai_agents"

// sidecar is the ai_agents front matter of an imported episode.
//
// Exact maps a field (task, lessons.2, decisions.d001.options,
// events.e003.timestamp, ...; decisions and events named by their ids in
// the markdown) to its value in the JSON and to what the markdown shows
// instead; the value is exported only while the note still shows that.
// Events is the number of events the import wrote: when it changed, the
// events.* entries no longer line up and are set aside. Extra holds
// top-level JSON keys that front matter cannot carry as they are (keys
// engram reads, numbers beyond float64), as JSON text.
type sidecar struct {
	Events int               `json:"events,omitempty" yaml:"events,omitempty"`
	Exact  map[string]exact  `json:"exact,omitempty" yaml:"exact,omitempty"`
	Extra  map[string]string `json:"extra,omitempty" yaml:"extra,omitempty"`
}

type exact struct {
	Value any `json:"value" yaml:"value"`
	Shown any `json:"shown" yaml:"shown"`
}

// readSidecar reads front matter (YAML or TOML values) through JSON.
func readSidecar(raw any) (sidecar, error) {
	var s sidecar
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	return s, err
}

// apply puts the exact values into e, whose decisions and events the note
// names ids; it returns the entries set aside.
func (s sidecar) apply(e *Episode, ids partIDs) []string {
	var stale []string
	eventsOK := s.Events == 0 || s.Events == len(e.Events)
	decIDs, evIDs := map[string]string{}, map[string]string{}
	for key, x := range s.Exact {
		sec, id, field := splitKey(key)
		if field != "id" || sec == "events" && !eventsOK {
			continue
		}
		if v, ok := x.Value.(string); ok && canonical(x.Shown) == canonical(id) {
			if sec == "decisions" {
				decIDs[id] = v
			} else {
				evIDs[id] = v
			}
		}
	}
	renameParts(e, decIDs, evIDs)
	for _, key := range sortedKeys(s.Exact) {
		x := s.Exact[key]
		sec, _, field := splitKey(key)
		if field == "id" && sec != "" {
			continue
		}
		if sec == "events" && !eventsOK {
			stale = append(stale, key)
			continue
		}
		get, set := slot(e, ids, key)
		if get == nil || canonical(get()) != canonical(x.Shown) || !set(x.Value) {
			stale = append(stale, key)
		}
	}
	for _, k := range sortedKeys(s.Extra) {
		dec := json.NewDecoder(strings.NewReader(s.Extra[k]))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil {
			e.Extra[k] = v
		}
	}
	return stale
}

// splitKey splits "decisions.d001.context" into its section, part id and
// field; a top-level key ("task") has only a field, "lessons.2" a section
// and an id.
func splitKey(key string) (sec, id, field string) {
	sec, rest, ok := strings.Cut(key, ".")
	if !ok {
		return "", "", key
	}
	if sec == "lessons" {
		return sec, rest, ""
	}
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return sec, rest, ""
	}
	return sec, rest[:i], rest[i+1:]
}

// renameParts gives decisions and events their JSON ids, in their own
// fields and in the links that name them.
func renameParts(e *Episode, decIDs, evIDs map[string]string) {
	if len(decIDs) == 0 && len(evIDs) == 0 {
		return
	}
	rename := func(ids []string, maps ...map[string]string) []string {
		var out []string
		for _, id := range ids {
			for _, m := range maps {
				if v, ok := m[id]; ok {
					id = v
					break
				}
			}
			out = append(out, id)
		}
		return out
	}
	for i := range e.Decisions {
		d := &e.Decisions[i]
		if v, ok := decIDs[d.ID]; ok {
			d.ID = v
		}
		d.Effects = rename(d.Effects, decIDs, evIDs)
	}
	for i := range e.Events {
		ev := &e.Events[i]
		if v, ok := evIDs[ev.ID]; ok {
			ev.ID = v
		}
		ev.CausedBy = rename(ev.CausedBy, evIDs)
		ev.LeadsTo = rename(ev.LeadsTo, evIDs)
	}
}

// slot returns accessors of the field a key names, nil when there is no
// such field. set reports whether the value had the field's type.
func slot(e *Episode, ids partIDs, key string) (get func() any, set func(any) bool) {
	sec, id, field := splitKey(key)
	switch sec {
	case "":
		return topSlot(e, field)
	case "lessons":
		var k int
		if _, err := fmt.Sscanf(id, "%d", &k); err != nil || k < 1 || k > len(e.Lessons) {
			return nil, nil
		}
		return strSlot(&e.Lessons[k-1])
	case "decisions":
		if i := indexOf(ids.decisions, id); i >= 0 && i < len(e.Decisions) {
			return decisionSlot(&e.Decisions[i], field)
		}
	case "events":
		if i := indexOf(ids.events, id); i >= 0 && i < len(e.Events) {
			return eventSlot(&e.Events[i], field)
		}
	}
	return nil, nil
}

func topSlot(e *Episode, field string) (func() any, func(any) bool) {
	if field == "metrics" {
		return func() any { return e.Metrics }, func(v any) bool {
			m, ok := asMetrics(v)
			if ok {
				e.Metrics = m
			}
			return ok
		}
	}
	strs := map[string]*string{"id": &e.ID, "session": &e.Session, "timestamp": &e.Timestamp, "outcome": &e.Outcome, "task": &e.Task}
	return fieldSlot(strs, nil, field)
}

func decisionSlot(d *Decision, field string) (func() any, func(any) bool) {
	strs := map[string]*string{"timestamp": &d.Timestamp, "type": &d.Type, "context": &d.Context, "chosen": &d.Chosen, "rationale": &d.Rationale, "outcome": &d.Outcome}
	return fieldSlot(strs, map[string]*[]string{"options": &d.Options, "effects": &d.Effects}, field)
}

func eventSlot(ev *Event, field string) (func() any, func(any) bool) {
	strs := map[string]*string{"timestamp": &ev.Timestamp, "type": &ev.Type, "content": &ev.Content, "_source_session": &ev.SourceSession}
	return fieldSlot(strs, map[string]*[]string{"caused_by": &ev.CausedBy, "leads_to": &ev.LeadsTo}, field)
}

func fieldSlot(strs map[string]*string, lists map[string]*[]string, field string) (func() any, func(any) bool) {
	if p, ok := strs[field]; ok {
		return strSlot(p)
	}
	if p, ok := lists[field]; ok {
		return listSlot(p)
	}
	return nil, nil
}

func strSlot(p *string) (func() any, func(any) bool) {
	return func() any { return *p }, func(v any) bool {
		s, ok := v.(string)
		if ok {
			*p = s
		}
		return ok
	}
}

func listSlot(p *[]string) (func() any, func(any) bool) {
	return func() any { return *p }, func(v any) bool {
		l, ok := asStrings(v)
		if ok {
			*p = l
		}
		return ok
	}
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func asStrings(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return l, true
	case []any:
		out := make([]string, 0, len(l))
		for _, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	case nil:
		return nil, true
	}
	return nil, false
}

func asMetrics(v any) (map[string]float64, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, v == nil
	}
	out := make(map[string]float64, len(m))
	for k, x := range m {
		f, ok := x.(float64)
		if !ok {
			return nil, false
		}
		out[k] = f
	}
	return out, true
}

// canonical is a value's JSON text, with an absent list the same as an
// empty one.
func canonical(v any) string {
	switch l := v.(type) {
	case nil:
		return "[]"
	case []string:
		v = orEmpty(l)
	case []any, map[string]float64, map[string]any:
		if reflect.ValueOf(l).Len() == 0 {
			return "[]"
		}
	}
	b, _ := marshal(v)
	return string(b)
}
