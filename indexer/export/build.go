package export

import (
	"math"
	"sort"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/events"
	"github.com/engramhq/engram/indexer/mine"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/poison"
	"github.com/engramhq/engram/indexer/related"
	"github.com/engramhq/engram/indexer/routes"
)

// Input is what the export stage needs from earlier stages.
type Input struct {
	Title   string
	BaseURL string // ends in "/"
	// RelativeLinks: the site has no base URL (BaseURL is "/"); see
	// Site.RelativeLinks.
	RelativeLinks bool
	Generator     string
	Commit        string
	ReferenceTime time.Time
	Notes         []note.Note
	Meta          []Meta // one per note
	Graph         causal.Result
	// Lessons are the clusters of the episodes' lessons (indexer/lessons).
	Lessons []LessonCluster
	// Related holds each note's related work (indexer/related), one per
	// note (nil means none).
	Related [][]related.Work
	// Links are the typed links between episodes (related.Analyze), which
	// graph.json publishes beside the causal edges.
	Links []related.Link
	// Feedback holds each note's echoes and fizzles, one per note (nil
	// means none).
	Feedback []Feedback
	Decay    Decay
	// Diagnostics of every stage, summarised in health.json.
	Diagnostics []note.Diagnostic
	// Events are the execution events within retention (SPEC §2.5),
	// oldest first; RetentionDays is the retention they were kept by.
	Events        []events.Execution
	RetentionDays int
	// Poisoning holds, for each note, the texts flagged for memory
	// poisoning (indexer/poison) that the repository does not allow; nil
	// means none. The graph stage flags the same notes.
	Poisoning [][]poison.Finding
	// Candidates are the pattern candidates mined from the episodes
	// (indexer/mine), published as candidates.json; never advice.
	Candidates mine.Result
	// Sources are the [[sources]] repositories the notes came from
	// besides the one built, for the manifest; none without federation.
	Sources []SourceRepo
}

// LessonCluster is a cluster of lessons that say the same thing (the
// duplicates tier), with the clusters related to it (the related tier).
type LessonCluster struct {
	Text     string
	Count    int
	Episodes []string
	Latest   time.Time
	Wordings []string
	Related  []RelatedLesson
	// Family names the cluster's advice family (indexer/lessons: related
	// clusters joined, a few at most) by its first cluster's text, and
	// FamilyEpisodes are the episodes of all its clusters; both empty
	// for a cluster without one.
	Family         string
	FamilyEpisodes []string
}

// Meta is what the indexer knows of a note besides its content.
type Meta struct {
	Slug       string
	Created    time.Time
	Updated    time.Time
	DateSource string // front_matter, git, title or reference
	Commit     string // last commit that touched the file
	// From is the [[sources]] repository a source's note came from; nil
	// for the built repository's own notes.
	From *From
}

// From is the repository of a source's note, and the file's web address
// there ("" when its url is not configured).
type From struct {
	Namespace, Name, URL string
}

// TimeFormat is how every time is written: RFC 3339 in UTC.
const TimeFormat = "2006-01-02T15:04:05Z07:00"

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(TimeFormat)
}

// Documents builds every document of the site.
func Documents(in Input) *Site {
	x := newExporter(in)
	s := &Site{Title: in.Title, BaseURL: in.BaseURL, RelativeLinks: in.RelativeLinks, ReferenceTime: in.ReferenceTime, RetentionDays: in.RetentionDays}
	for i := range in.Notes {
		n := &in.Notes[i]
		switch {
		case n.Episode != nil:
			s.Episodes = append(s.Episodes, x.episode(i))
		case n.Pattern != nil:
			s.Patterns = append(s.Patterns, x.pattern(i))
		default:
			s.Notes = append(s.Notes, x.note(i))
		}
	}
	sort.Slice(s.Episodes, func(i, j int) bool {
		a, b := s.Episodes[i], s.Episodes[j]
		return a.Date > b.Date || a.Date == b.Date && a.ID < b.ID
	})
	sort.Slice(s.Patterns, func(i, j int) bool { return s.Patterns[i].ID < s.Patterns[j].ID })
	sort.Slice(s.Notes, func(i, j int) bool { return s.Notes[i].ID < s.Notes[j].ID })
	s.Graph = x.graph(s.Patterns)
	s.Antipatterns = antipatterns(s.Patterns)
	s.Lessons = x.lessons()
	s.DueItems = x.dueItems()
	s.Pending = []PendingItem{}
	for _, i := range in.Graph.Provenance.Pending {
		s.Pending = append(s.Pending, PendingItem{ID: in.Notes[i].Title, Type: typeOf(&in.Notes[i]), URL: x.url(i)})
	}
	sort.Slice(s.Pending, func(i, j int) bool { return s.Pending[i].ID < s.Pending[j].ID })
	s.Health = x.health()
	s.Diagnostics = diagnostics(in.Diagnostics)
	s.Workflows = x.workflows()
	s.Candidates = x.candidates()
	s.Manifest = Manifest{
		Version:       SchemaVersion,
		Generator:     in.Generator,
		Commit:        in.Commit,
		ReferenceTime: formatTime(in.ReferenceTime),
		Lambda:        in.Decay.Lambda,
		Sources:       in.Sources,
		// The slices are made later (Site.With); a manifest without
		// them lists none.
		BootstrapSlices: []BootstrapSlice{},
		Counts: map[string]int{
			"episodes":     len(s.Episodes),
			"patterns":     len(s.Patterns),
			"antipatterns": countAntipatterns(s.Patterns),
			"notes":        len(s.Notes),
			"nodes":        len(s.Graph.Nodes),
			"edges":        len(s.Graph.Edges),
			"lessons":      len(s.Lessons),
			"pending":      len(s.Pending),
			"workflows":    len(s.Workflows),
			"events":       len(in.Events),
			"candidates":   len(s.Candidates.Items),
		},
	}
	return s
}

// diagnostics lists the diagnostics as diagnostics.json does, in the
// order they come in (sorted by the indexer).
func diagnostics(ds []note.Diagnostic) []Diagnostic {
	out := make([]Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = Diagnostic{Path: d.Path, Line: d.Line, Col: d.Col, Severity: d.Severity.String(), Message: d.Message, Rule: d.Rule}
	}
	return out
}

// lessons scores the lesson clusters (SPEC §3): count/(count+1), decayed
// from the latest member's date; most recurring and recent first.
func (x *exporter) lessons() []Lesson {
	out := []Lesson{}
	poisoned := x.poisonedLessons()
	for _, c := range x.in.Lessons {
		_, d := x.decay(float64(c.Count)/float64(c.Count+1), c.Latest, Feedback{})
		related := c.Related
		if related == nil {
			related = []RelatedLesson{}
		}
		out = append(out, Lesson{Text: c.Text, Count: c.Count, Episodes: c.Episodes, Score: d.Score, Latest: formatTime(c.Latest), Wordings: c.Wordings, Related: related,
			Family: c.Family, FamilyEpisodes: c.FamilyEpisodes, Flags: lessonFlags(c.Wordings, poisoned)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// dueItems lists the notes that have a due date, soonest first.
func (x *exporter) dueItems() []DueItem {
	var out []DueItem
	for i := range x.in.Notes {
		if n := &x.in.Notes[i]; !n.Due.IsZero() {
			out = append(out, DueItem{ID: n.Title, URL: x.url(i), Due: n.Due, Flags: x.flags(i)})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Due.Before(out[j].Due) || out[i].Due.Equal(out[j].Due) && out[i].ID < out[j].ID
	})
	return out
}

func countAntipatterns(ps []Pattern) int {
	n := 0
	for _, p := range ps {
		if p.Antipattern {
			n++
		}
	}
	return n
}

type exporter struct {
	in                Input
	edgesOut, edgesIn map[string][]note.Edge // by node id, in edge order
}

func newExporter(in Input) *exporter {
	x := &exporter{in: in, edgesOut: map[string][]note.Edge{}, edgesIn: map[string][]note.Edge{}}
	for _, e := range in.Graph.Edges {
		x.edgesOut[e.Source] = append(x.edgesOut[e.Source], e)
		x.edgesIn[e.Target] = append(x.edgesIn[e.Target], e)
	}
	return x
}

func (x *exporter) url(i int) string {
	return x.in.BaseURL + routes.Page(Folder(&x.in.Notes[i]), x.in.Meta[i].Slug)
}

func (x *exporter) jsonURL(i int) string {
	return x.in.BaseURL + routes.Document(Folder(&x.in.Notes[i]), x.in.Meta[i].Slug)
}

// Folder is the folder of a note's page and JSON file.
func Folder(n *note.Note) string {
	switch {
	case n.Episode != nil:
		return routes.EpisodeFolder
	case n.Pattern != nil:
		return routes.PatternFolder
	}
	return routes.NoteFolder
}

func typeOf(n *note.Note) string {
	switch {
	case n.Episode != nil:
		return "episode"
	case n.Pattern != nil && n.IsAntipattern():
		return "antipattern"
	case n.Pattern != nil:
		return "pattern"
	case n.Type != "":
		return n.Type
	}
	return "note"
}

func (x *exporter) source(i int) Source {
	m := x.in.Meta[i]
	s := Source{Path: x.in.Notes[i].Path, Commit: m.Commit, Created: formatTime(m.Created), Updated: formatTime(m.Updated)}
	if f := m.From; f != nil {
		s.Namespace, s.Name, s.URL = f.Namespace, f.Name, f.URL
	}
	return s
}

func (x *exporter) ref(i int) Ref {
	return Ref{ID: x.in.Notes[i].Title, Type: typeOf(&x.in.Notes[i]), URL: x.url(i)}
}

func (x *exporter) backlinks(i int) []Ref {
	out := []Ref{}
	for _, j := range x.in.Graph.Backlinks[i] {
		out = append(out, x.ref(j))
	}
	sort.Slice(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	return out
}

// links resolves a note's wikilinks, in file order.
func (x *exporter) links(i int) []Link {
	n := &x.in.Notes[i]
	out := make([]Link, 0, len(n.Links))
	for j, l := range n.Links {
		out = append(out, x.link(l.Target, x.in.Graph.Links[i][j]))
	}
	return out
}

func (x *exporter) link(target string, to int) Link {
	switch to {
	case causal.Missing:
		return Link{Target: target, Missing: true}
	case causal.Local:
		return Link{Target: target, Decision: target}
	}
	return Link{Target: target, ID: x.in.Notes[to].Title, URL: x.url(to)}
}

// resolve finds the note a target names, as the graph stage did.
func (x *exporter) resolve(i int, target string) Link {
	for j, l := range x.in.Notes[i].Links {
		if l.Target == target {
			return x.link(target, x.in.Graph.Links[i][j])
		}
	}
	return Link{Target: target, Missing: true}
}

func (x *exporter) relations(i int) []Relation {
	out := []Relation{}
	for _, r := range x.in.Notes[i].Relations {
		l := x.resolve(i, r.Target)
		out = append(out, Relation{Type: r.Type, Target: r.Target, Context: r.Context, URL: l.URL, Missing: l.Missing})
	}
	return out
}

func (x *exporter) observations(i int) []Observation {
	n := &x.in.Notes[i]
	out := []Observation{}
	for _, o := range n.Observations {
		tags := o.Tags
		if tags == nil {
			tags = []string{}
		}
		out = append(out, Observation{Category: o.Category, ID: o.ID, Content: o.Content, Tags: tags, Context: o.Context,
			Strength: strength(tags)})
	}
	return out
}

// feedback is a note's feedback.
func (x *exporter) feedback(i int) Feedback {
	if i < len(x.in.Feedback) {
		return x.in.Feedback[i]
	}
	return Feedback{}
}

// sections returns prose sections except those given their own field.
func sections(n *note.Note, skip ...string) []Section {
	var out []Section
outer:
	for _, s := range n.Sections {
		for _, k := range skip {
			if strings.EqualFold(s.Heading, k) {
				continue outer
			}
		}
		out = append(out, Section{Heading: s.Heading, Markdown: s.Markdown})
	}
	return out
}

func tagsOf(n *note.Note) []string {
	if n.Tags == nil {
		return []string{}
	}
	return n.Tags
}

// round keeps four decimals: enough for rates and weights, and stable
// across platforms.
func round(f float64) float64 { return math.Round(f*1e4) / 1e4 }
