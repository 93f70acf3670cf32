package site

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/afero"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
)

// page is one generated Hugo content file. Its front matter holds only
// keys engram wrote; its body is empty, so nothing a note contains can
// reach Hugo's markdown or shortcodes.
type page struct {
	path string // relative to content/
	fm   frontMatter
	// The page's JSON twin, index.json beside its index.html: the API
	// file api names, or twin.
	api  string
	twin any
}

type frontMatter struct {
	Title   string         `json:"title"`
	Date    string         `json:"date,omitempty"`
	Lastmod string         `json:"lastmod,omitempty"`
	Outputs []string       `json:"outputs,omitempty"`
	Params  map[string]any `json:"params"`
}

// homeLessons and homeItems cap the home page's lists; the index pages
// have the rest.
const (
	homeLessons = 5
	homeItems   = 10
)

// pages builds the content of the site from the export documents.
func pages(s *export.Site, md markdown) []page {
	ix := newIndex(s)
	ps := []page{
		{path: "_index.md", api: "api/v1/index.json", fm: frontMatter{Title: s.Title, Outputs: []string{"html", "rss"}, Params: map[string]any{
			"kind": "home", "counts": s.Manifest.Counts, "commit": s.Manifest.Commit,
			"reference_time": s.Manifest.ReferenceTime, "antipatterns": antipatternSlugs(s), "best": bestPatternSlugs(s, homeItems),
			"health": health(s), "pending": s.Pending,
			"lessons": lessonViews(s, homeLessons), "chart": ix.chart,
		}}},
		{path: "episodes/_index.md", api: "api/v1/episodes.json", fm: frontMatter{Title: "Episodes", Outputs: []string{"html", "rss"},
			Params: map[string]any{"kind": "episodes", "outcomes": ix.outcomes, "tags": ix.episodeTags(20), "all_tags": ix.episodeTags(500), "months": len(ix.months)}}},
		{path: "patterns/_index.md", api: "api/v1/patterns.json", fm: frontMatter{Title: "Patterns", Params: map[string]any{"kind": "patterns"}}},
		{path: "notes/_index.md", twin: notesList(s), fm: frontMatter{Title: "Notes", Params: map[string]any{"kind": "notes"}}},
		{path: "search/_index.md", api: "api/v1/search/meta.json", fm: frontMatter{Title: "Search", Params: map[string]any{"kind": "search"}}},
		{path: "graph/_index.md", fm: frontMatter{Title: "Causal graph", Params: graphParams(s)}},
		{path: "lessons/_index.md", api: "api/v1/lessons.json", fm: frontMatter{Title: "Lessons", Params: map[string]any{"kind": "lessons",
			"lessons": lessonViews(s, maxLessons), "total": len(s.Lessons)}}},
		{path: "workflows/_index.md", api: "api/v1/workflows.json", fm: frontMatter{Title: "Workflows", Params: map[string]any{"kind": "workflows",
			"workflows": workflowSummaries(s), "retention_days": s.RetentionDays}}},
		{path: "antipatterns/_index.md", api: "api/v1/antipatterns.json", fm: frontMatter{Title: "Antipatterns", Params: map[string]any{"kind": "antipatterns",
			"antipatterns": antipatternSlugs(s)}}},
		{path: "pending/_index.md", api: "api/v1/pending.json", fm: frontMatter{Title: "Pending threads", Params: map[string]any{"kind": "pending",
			"pending": s.Pending}}},
		{path: "diagnostics/_index.md", api: "api/v1/diagnostics.json", fm: frontMatter{Title: "Diagnostics", Params: map[string]any{"kind": "diagnostics",
			"files": diagnosticFiles(s.Diagnostics), "health": s.Health.Diagnostics}}},
	}
	ps = append(ps, ix.pages(s)...)
	// Each page carries its document, less what the templates take from
	// the rendered HTML instead (prose, resolved links, extra keys): Hugo
	// decodes every byte of front matter.
	for i, e := range s.Episodes {
		h := episodeHTML(e, md)
		// The patterns that cite the episode have their own list: the
		// other backlinks are "linked from".
		params := map[string]any{"kind": "episode", "html": h, "cited_by": ix.citedBy[e.ID], "tags": ix.tagLinks(e.Tags),
			"linked_from": without(e.Backlinks, ix.citedBy[e.ID]), "flag_notes": flagNotes(e.Flags, false)}
		// Episodes are sorted newest first: the previous one is older.
		if i+1 < len(s.Episodes) {
			params["prev"] = export.Ref{ID: s.Episodes[i+1].ID, Type: "episode", URL: s.Episodes[i+1].URL}
		}
		if i > 0 {
			params["next"] = export.Ref{ID: s.Episodes[i-1].ID, Type: "episode", URL: s.Episodes[i-1].URL}
		}
		e.Links, e.Sections, e.Extra = nil, nil, nil
		params["doc"] = e
		ps = append(ps, page{path: "episodes/" + slug(e.URL) + ".md", api: apiPath(e.JSONURL, s.BaseURL), fm: frontMatter{
			Title: e.Title, Date: e.Created, Lastmod: e.Updated, Params: params,
		}})
	}
	graphs := ix.neighbourhoodSVGs(s.Patterns)
	for i, p := range s.Patterns {
		h := patternHTML(p, md)
		h["interval"] = intervalChart(p)
		h["graph"] = graphs[i]
		params := map[string]any{"kind": "pattern", "html": h, "edges_out": ix.edgeViews(p.EdgesOut, false), "edges_in": ix.edgeViews(p.EdgesIn, true),
			"tags": ix.tagLinks(p.Tags), "flag_notes": flagNotes(p.Flags, p.StatsSource == "declared")}
		p.Links, p.Sections = nil, nil
		params["doc"] = p
		ps = append(ps, page{path: "patterns/" + slug(p.URL) + ".md", api: apiPath(p.JSONURL, s.BaseURL), fm: frontMatter{
			Title: p.Title, Date: p.Source.Created, Lastmod: p.Source.Updated, Params: params,
		}})
	}
	for _, n := range s.Notes {
		h := noteHTML(n, md)
		n.Links, n.Sections = nil, nil
		ps = append(ps, page{path: "notes/" + slug(n.URL) + ".md", api: apiPath(n.JSONURL, s.BaseURL), fm: frontMatter{
			Title: n.Title, Date: n.Source.Created, Lastmod: n.Source.Updated,
			Params: map[string]any{"kind": "note", "doc": n, "html": h, "tags": ix.tagLinks(n.Tags)},
		}})
	}
	for _, w := range s.Workflows {
		ps = append(ps, page{path: "workflows/" + slug(w.URL) + ".md", api: apiPath(w.JSONURL, s.BaseURL), fm: frontMatter{
			Title: w.ID, Date: w.First, Lastmod: w.Last,
			Params: map[string]any{"kind": "workflow", "doc": workflowPage(w)},
		}})
	}
	return ps
}

// apiPath is the path of an API file in the output, from its URL.
func apiPath(jsonURL, baseURL string) string {
	return strings.TrimPrefix(jsonURL, baseURL)
}

// without is refs less those in drop.
func without(refs, drop []export.Ref) []export.Ref {
	out := []export.Ref{}
	for _, r := range refs {
		if !slices.ContainsFunc(drop, func(d export.Ref) bool { return d.ID == r.ID }) {
			out = append(out, r)
		}
	}
	return out
}

func first[T any](xs []T, n int) []T {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}

// workflowView is a workflow as its page shows it. Hugo lower-cases the
// keys of maps in front matter, so event types and data keys, which are
// the user's, travel as lists and JSON text instead.
type workflowView struct {
	export.WorkflowSummary
	Counts        []typeCount `json:"counts"`
	Tasks         []string    `json:"tasks"`
	ReferenceTime string      `json:"reference_time"`
	RetentionDays int         `json:"retention_days"`
	Timeline      []eventView `json:"timeline,omitempty"`
	// Omitted counts the older events the page leaves to the JSON.
	Omitted int `json:"omitted"`
}

// maxPageEvents caps a workflow page's timeline: Hugo decodes every byte
// of a page's front matter, and the JSON file has the whole timeline.
const maxPageEvents = 500

type typeCount struct {
	Type  string `json:"type"`
	Count int    `json:"count"`
}

type eventView struct {
	ID          string      `json:"id"`
	EventType   string      `json:"event_type"`
	UnknownType bool        `json:"unknown_type"`
	TaskID      string      `json:"task_id"`
	Timestamp   string      `json:"timestamp"`
	Outcome     string      `json:"outcome"`
	Data        []dataField `json:"data"`
	Source      string      `json:"source"`
}

// dataField is one key of an event's data, its value as compact JSON.
type dataField struct {
	Key  string `json:"key"`
	JSON string `json:"json"`
}

func workflowSummaries(s *export.Site) []workflowView {
	out := []workflowView{}
	for _, w := range s.Workflows {
		out = append(out, workflowView{WorkflowSummary: w.WorkflowSummary, Counts: typeCounts(w.Counts)})
	}
	return out
}

func workflowPage(w export.Workflow) workflowView {
	v := workflowView{WorkflowSummary: w.WorkflowSummary, Counts: typeCounts(w.Counts), Tasks: w.Tasks,
		ReferenceTime: w.ReferenceTime, RetentionDays: w.RetentionDays, Timeline: []eventView{}}
	timeline := w.Timeline
	if len(timeline) > maxPageEvents {
		v.Omitted = len(timeline) - maxPageEvents
		timeline = timeline[v.Omitted:]
	}
	for _, e := range timeline {
		v.Timeline = append(v.Timeline, eventView{ID: e.ID, EventType: e.EventType, UnknownType: e.UnknownType, TaskID: e.TaskID,
			Timestamp: e.Timestamp, Outcome: e.Outcome, Data: dataFields(e.Data), Source: fmt.Sprintf("%s:%d", e.Source.Path, e.Source.Line)})
	}
	return v
}

// typeCounts lists counts by type, most frequent first, then by type.
func typeCounts(m map[string]int) []typeCount {
	out := []typeCount{}
	for t, n := range m {
		out = append(out, typeCount{Type: t, Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Count > out[j].Count || out[i].Count == out[j].Count && out[i].Type < out[j].Type
	})
	return out
}

// dataFields lists data's keys: SPEC §2.5's four first, in its order,
// then the others sorted.
func dataFields(data map[string]any) []dataField {
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	rank := map[string]int{"context": 1, "prediction": 2, "result": 3, "decision": 4}
	sort.Slice(keys, func(i, j int) bool {
		ri, rj := rank[keys[i]], rank[keys[j]]
		if ri == 0 {
			ri = 5
		}
		if rj == 0 {
			rj = 5
		}
		return ri < rj || ri == rj && keys[i] < keys[j]
	})
	out := make([]dataField, 0, len(keys))
	for _, k := range keys {
		js, err := json.Marshal(data[k])
		if err != nil {
			js = []byte("?")
		}
		out = append(out, dataField{Key: k, JSON: string(js)})
	}
	return out
}

// lessonView is a lesson cluster as a page lists it: its newest
// episodes and wordings, with counts of the rest (lessons.json has them
// all).
type lessonView struct {
	Anchor       string        `json:"anchor"`
	Text         string        `json:"text"`
	Count        int           `json:"count"`
	Latest       string        `json:"latest"`
	Episodes     int           `json:"episodes"`
	EpisodeRefs  []export.Ref  `json:"episode_refs"`
	Wordings     []string      `json:"wordings"`
	MoreWordings int           `json:"more_wordings"`
	Related      []relatedView `json:"related"`
}

// relatedView is a related lesson, with its place on the lessons page
// ("" when the page does not list it).
type relatedView struct {
	export.RelatedLesson
	Anchor string `json:"anchor"`
}

// Caps of the lessons page: at 10,000 notes it listed every cluster with
// every episode, 1.4 MB of HTML.
const (
	maxLessons        = 200
	maxLessonEpisodes = 10
	maxLessonWordings = 10
)

func lessonViews(s *export.Site, n int) []lessonView {
	urls := map[string]string{}
	for _, e := range s.Episodes {
		urls[e.ID] = e.URL
	}
	// Clusters never share a wording: the text names one.
	anchors := map[string]string{}
	for i, l := range first(s.Lessons, maxLessons) {
		anchors[l.Text] = fmt.Sprintf("lesson-%d", i+1)
	}
	out := []lessonView{}
	for _, l := range first(s.Lessons, n) {
		v := lessonView{Anchor: anchors[l.Text], Text: l.Text, Count: l.Count, Latest: l.Latest, Episodes: len(l.Episodes), EpisodeRefs: []export.Ref{},
			Wordings: first(l.Wordings, maxLessonWordings), MoreWordings: max(0, len(l.Wordings)-maxLessonWordings), Related: []relatedView{}}
		for _, id := range first(l.Episodes, maxLessonEpisodes) {
			v.EpisodeRefs = append(v.EpisodeRefs, export.Ref{ID: id, Type: "episode", URL: urls[id]})
		}
		for _, r := range l.Related {
			v.Related = append(v.Related, relatedView{RelatedLesson: r, Anchor: anchors[r.Text]})
		}
		out = append(out, v)
	}
	return out
}

// antipatternSlugs lists the antipatterns' page slugs in SPEC §3's order.
func antipatternSlugs(s *export.Site) []string {
	out := []string{}
	for _, p := range s.Antipatterns {
		out = append(out, slug(p.URL))
	}
	return out
}

// bestPatternSlugs are the page slugs of the n best patterns by decayed
// score: neither antipatterns nor flagged by graph health, which the
// bootstrap never offers as advice either.
func bestPatternSlugs(s *export.Site, n int) []string {
	var ps []export.Pattern
	for _, p := range s.Patterns {
		if !p.Antipattern && len(p.Flags) == 0 {
			ps = append(ps, p)
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Score > ps[j].Score })
	out := []string{}
	for _, p := range first(ps, n) {
		out = append(out, slug(p.URL))
	}
	return out
}

// flagNote says what one health flag means, for a note's banner.
type flagNote struct {
	Flag string `json:"flag"`
	Text string `json:"text"`
}

// flagTexts explain the flags of graph health (SPEC §3) to a reader.
var flagTexts = map[string]string{
	causal.FlagFixture:     "It comes from test fixtures, not from real work.",
	causal.FlagEmpty:       "It records nothing beyond a task of one or two words.",
	causal.FlagTautology:   "Its action only restates its trigger.",
	causal.FlagPlaceholder: "Its trigger or action is missing, a template or a placeholder.",
	causal.FlagDefaultRate: "Its success rate is not a measurement: every evidence line gives one outcome that none of the evidence episodes records itself, an extractor's default.",
}

// declaredText is the default_rate note of a rate declared with no
// evidence.
const declaredText = "Its success rate is not a measurement: it is declared, with no evidence episode behind it."

// flagNotes explain a note's flags; declared says a pattern's rate is
// declared, not computed from evidence.
func flagNotes(flags []string, declared bool) []flagNote {
	out := []flagNote{}
	for _, f := range flags {
		text := flagTexts[f]
		if f == causal.FlagDefaultRate && declared {
			text = declaredText
		}
		out = append(out, flagNote{Flag: f, Text: text})
	}
	return out
}

// healthView is health.json with a page for every id it names.
type healthView struct {
	export.Health
	TautologyRefs      []export.Ref `json:"tautology_refs"`
	PlaceholderRefs    []export.Ref `json:"placeholder_refs"`
	FixtureRefs        []export.Ref `json:"fixture_refs"`
	DefaultRateRefs    []export.Ref `json:"default_rate_refs"`
	FixtureEpisodeRefs []export.Ref `json:"fixture_episode_refs"`
	EmptyEpisodeRefs   []export.Ref `json:"empty_episode_refs"`
	IsolatedPercent    float64      `json:"isolated_percent"`
	ConsecutivePercent float64      `json:"consecutive_percent"`
}

func health(s *export.Site) healthView {
	urls := map[string]string{}
	for _, p := range s.Patterns {
		urls[p.ID] = p.URL
	}
	for _, e := range s.Episodes {
		urls[e.ID] = e.URL
	}
	refs := func(typ string, ids []string) []export.Ref {
		out := []export.Ref{}
		for _, id := range ids {
			out = append(out, export.Ref{ID: id, Type: typ, URL: urls[id]})
		}
		return out
	}
	h := s.Health
	return healthView{Health: h, TautologyRefs: refs("pattern", h.Tautologies), PlaceholderRefs: refs("pattern", h.Placeholders),
		FixtureRefs: refs("pattern", h.Fixtures), DefaultRateRefs: refs("pattern", h.DefaultRates),
		FixtureEpisodeRefs: refs("episode", h.FixtureEpisodes), EmptyEpisodeRefs: refs("episode", h.EmptyEpisodes),
		IsolatedPercent: math.Round(h.IsolatedShare * 100), ConsecutivePercent: math.Round(h.LeadsToConsecutiveShare * 100)}
}

// slug is the last path element of a page URL.
func slug(url string) string {
	return path.Base(strings.TrimSuffix(url, "/"))
}

func writePages(fsys afero.Fs, dir string, ps []page) error {
	for _, p := range ps {
		data, err := json.Marshal(p.fm)
		if err != nil {
			return fmt.Errorf("write page %s: %w", p.path, err)
		}
		full := path.Join(dir, "content", p.path)
		if err := fsys.MkdirAll(path.Dir(full), 0o755); err != nil {
			return fmt.Errorf("write page %s: %w", p.path, err)
		}
		if err := afero.WriteFile(fsys, full, append(data, '\n'), 0o644); err != nil {
			return fmt.Errorf("write page %s: %w", p.path, err)
		}
	}
	return nil
}

// resolver resolves wikilinks the way the graph stage did for this note.
func resolver(links []export.Link) Resolver {
	m := make(map[string]export.Link, len(links))
	for _, l := range links {
		m[l.Target] = l
	}
	return func(target string) (string, bool) {
		l, ok := m[target]
		switch {
		case !ok || l.Missing:
			return "", false
		case l.Decision != "":
			return "#" + anchor(l.Decision), true
		}
		return l.URL, true
	}
}

func anchor(id string) string { return export.DecisionAnchor(id) }

type sectionHTML struct {
	Heading string `json:"heading"`
	HTML    string `json:"html"`
}

func renderSections(ss []export.Section, md markdown, r Resolver) []sectionHTML {
	out := []sectionHTML{}
	for _, s := range ss {
		out = append(out, sectionHTML{Heading: s.Heading, HTML: md.Block(s.Markdown, r)})
	}
	return out
}

func observationsHTML(os []export.Observation, md markdown, r Resolver) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = md.Inline(o.Content, r)
	}
	return out
}

func episodeHTML(e export.Episode, md markdown) map[string]any {
	r := resolver(e.Links)
	decisions := make([]map[string]string, len(e.Decisions))
	for i, d := range e.Decisions {
		decisions[i] = map[string]string{
			"anchor": anchor(d.ID), "context": md.Inline(d.Context, r), "rationale": md.Inline(d.Rationale, r),
		}
	}
	events := make([]string, len(e.Events))
	for i, ev := range e.Events {
		events[i] = md.Inline(ev.Content, r)
	}
	lessons := make([]string, len(e.Lessons))
	for i, l := range e.Lessons {
		lessons[i] = md.Inline(l, r)
	}
	return map[string]any{
		"context":      md.Block(e.Context, r),
		"sections":     renderSections(e.Sections, md, r),
		"observations": observationsHTML(e.Observations, md, r),
		"decisions":    decisions,
		"events":       events,
		"lessons":      lessons,
		"task":         md.Inline(e.Task, r),
	}
}

func patternHTML(p export.Pattern, md markdown) map[string]any {
	r := resolver(p.Links)
	return map[string]any{
		"trigger":      md.Block(p.Trigger, r),
		"action":       md.Block(p.Action, r),
		"sections":     renderSections(p.Sections, md, r),
		"observations": observationsHTML(p.Observations, md, r),
	}
}

func noteHTML(n export.Note, md markdown) map[string]any {
	r := resolver(n.Links)
	return map[string]any{
		"sections":     renderSections(n.Sections, md, r),
		"observations": observationsHTML(n.Observations, md, r),
	}
}
