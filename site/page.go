package site

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/export"
)

// A page kind is one Go file here, page_<kind>.go, with the struct of
// what its pages show and the function that makes them; one template,
// templates/layouts/<kind>.html; and one entry in kinds, which says all
// else of the kind. Hugo finds the template by the layout each page's
// front matter names, the kind.

// kind is a kind of page.
type kind struct {
	// name is also the name of its template.
	name  string
	pages func(in input) []page
	// about is the meta description of a page that has none of its own,
	// what its kind of page lists: a format in which %[1]s is the site's
	// name and %[2]s the page's title; "" for "<title> — <site>.".
	about string
	// list: the kind's template shows other pages (site.GetPage,
	// .Pages), so its pages are rendered every time (pagecache.go).
	list bool
	// twin is the schema of the JSON twin the kind's pages write
	// themselves (page.twin), nil for a kind whose pages link an API
	// file or have none (schemas.go).
	twin *twinSchema
}

// kinds are the page kinds, in the order their pages are made.
func kinds() []kind {
	return []kind{
		{name: "home", pages: homePages, list: true,
			about: "What the agents of %[1]s remember: recent episodes, the patterns that work, antipatterns to avoid, recurring lessons and the health of the causal graph."},
		{name: "episodes", pages: episodesPages, list: true,
			about: "Every episode of %[1]s, newest first: what each session set out to do and how it ended, to filter by outcome, tag and date."},
		{name: "patterns", pages: patternsPages, list: true,
			about: "The patterns of %[1]s: trigger and action rules, with their measured success rates and confidence."},
		{name: "notes", pages: notesPages, list: true,
			about: "The notes of %[1]s that are neither episodes nor patterns: threads, sessions, concepts.",
			twin:  twinOf("notes", "engram notes page's JSON twin: the notes that are neither episodes nor patterns", export.List[export.Ref]{})},
		{name: "search", pages: searchPages, about: "Search the episodes, patterns and notes of %[1]s."},
		{name: "graph", pages: graphPages,
			about: "The causal graph of %[1]s: how episodes, decisions, events and patterns cause, enable and prevent each other.",
			twin:  &twinSchema{graphDataPath, "engram graph explorer's data (graph/index.json): the causal graph laid out, edges naming nodes by index", graphDoc{}}},
		{name: "lessons", pages: lessonsPages, about: "The lessons that recur across the episodes of %[1]s, most frequent first."},
		{name: "workflows", pages: workflowsPages, about: "The workflows of %[1]s: execution events grouped by workflow."},
		{name: "antipatterns", pages: antipatternsPages, list: true,
			about: "The antipatterns of %[1]s: rules whose measured success is too low, and those declared to avoid."},
		{name: "pending", pages: pendingPages, about: "Threads and sessions of %[1]s that no episode derives from yet."},
		{name: "diagnostics", pages: diagnosticsPages, about: "Problems engram found in the notes of %[1]s, by file and position."},
		{name: "tags", pages: tagsPages, about: "Every tag of %[1]s and how many notes carry it.",
			twin: twinOf("tags", "engram tags page's JSON twin: every tag and how many notes have it", export.List[tagRow]{})},
		{name: "tag", pages: tagPages, about: "The notes of %[1]s tagged %[2]s.",
			twin: twinOf("tags/*", "engram tag page's JSON twin (tags/<slug>/index.json): every note with the tag", tagGroup{})},
		{name: "timeline", pages: timelinePages, about: "The episodes of %[1]s month by month, with their outcomes.",
			twin: twinOf("timeline", "engram timeline page's JSON twin: the months and their outcomes", export.List[monthRow]{})},
		{name: "month", pages: monthPages, about: "%[2]s in the memory of %[1]s, newest first, with their outcomes and tasks.",
			twin: twinOf("timeline/*", "engram month page's JSON twin (timeline/<yyyy-mm>/index.json): the month's episode summaries", export.List[export.EpisodeSummary]{})},
		{name: "outcome", pages: outcomePages, about: "%[2]s in the memory of %[1]s, newest first.",
			twin: twinOf("outcomes/*", "engram outcome page's JSON twin (outcomes/<outcome>/index.json): the outcome's episode summaries", export.List[export.EpisodeSummary]{})},
		{name: "outcomes", pages: outcomesPages, about: "The episodes of %[1]s by outcome: success, partial, failure.",
			twin: twinOf("outcomes", "engram outcomes page's JSON twin: how many episodes have each outcome", export.List[outcomeCount]{})},
		{name: "episode", pages: episodePages},
		{name: "pattern", pages: patternPages},
		{name: "note", pages: notePages},
		{name: "workflow", pages: workflowPages, about: "Workflow %[2]s of %[1]s: its summary and its events in order."},
		{name: "decisions", pages: decisionsPages, about: "Every decision recorded in the episodes of %[1]s, newest first.",
			twin: twinOf("decisions", "engram decisions page's JSON twin: every decision of every episode, newest episode first", export.List[decisionRow]{})},
		{name: "candidates", pages: candidatesPages,
			about: "Pattern candidates mined from the episodes of %[1]s: situations that recur, the choices made in them and how they turned out; proposals to review, never advice."},
	}
}

// input is what the pages are made from: the export documents, what is
// looked up across them, and the renderer of their prose.
type input struct {
	s  *export.Site
	ix *index
	md markdown
}

// page is one generated Hugo content file. Its front matter holds only
// keys engram wrote; its body is empty, so nothing a note contains can
// reach Hugo's markdown or shortcodes.
type page struct {
	path string // relative to content/
	// kind is the kind that made the page, and list whether it is a
	// list kind; set by pages.
	kind  string
	list  bool
	title string
	// linkTitle is the page's short title, for its <title>: at most
	// titleRunes with the site's name (set by pages when empty).
	linkTitle string
	// description is the page's meta description: what the page is
	// about in a sentence or two, plain text.
	description string
	date        string
	lastmod     string
	outputs     []string
	// params is the struct of the page's kind, what its template shows.
	params any
	// The page's JSON twin: the API file api names, which the page links
	// as its alternate (and _redirects serves at index.json beside its
	// index.html), or twin, written as that index.json.
	api  string
	twin any
	// heads are the headlines of the notes the page links to, by URL
	// (headline.go).
	heads map[string]string
}

type frontMatter struct {
	Title string `json:"title"`
	// LinkTitle is Hugo's .LinkTitle, the page's <title> before the
	// site's name.
	LinkTitle string `json:"linkTitle,omitempty"`
	// Description is Hugo's .Description, the page's meta description.
	Description string   `json:"description,omitempty"`
	Date        string   `json:"date,omitempty"`
	Lastmod     string   `json:"lastmod,omitempty"`
	Outputs     []string `json:"outputs,omitempty"`
	// Layout is the page's kind: Hugo renders it with layouts/<kind>.html.
	Layout string `json:"layout"`
	// Twin is the API file that is the page's JSON twin, when it has
	// one (api/v1/episodes/x.json): the page links it as its alternate.
	Twin   string `json:"twin,omitempty"`
	Params any    `json:"params"`
	// Heads are the headlines of the notes the page links to, by URL:
	// the templates show a link's headline, then its id.
	Heads map[string]string `json:"heads"`
	// Build is Hugo's build options: a page whose bytes come from a
	// PageCache is only linked, not rendered (pagecache.go).
	Build *buildOptions `json:"build,omitempty"`
}

type buildOptions struct {
	Render string `json:"render"`
}

// pages builds the content of the site from the export documents,
// until ctx ends (checked between kinds: the largest, the episodes,
// takes a tenth of a second at 1,000 notes).
func pages(ctx context.Context, s *export.Site, md markdown) ([]page, error) {
	in := input{s: s, ix: newIndex(s), md: md}
	var ps []page
	for _, k := range kinds() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for _, p := range k.pages(in) {
			p.kind, p.list = k.name, k.list
			p.heads = in.ix.headsIn(p.params)
			if p.linkTitle == "" {
				p.linkTitle = p.title
			}
			p.linkTitle = export.Clip(p.linkTitle, max(24, titleRunes-3-utf8.RuneCountInString(s.Title)))
			if p.description == "" {
				p.description = k.description(p.title, s.Title)
			}
			ps = append(ps, p)
		}
	}
	return ps, nil
}

// titleRunes bounds a page's <title>, its short title and the site's
// name: what a browser's tab and a search engine's result show.
const titleRunes = 70

// description is the meta description of a page of kind k titled
// title that has none of its own.
func (k kind) description(title, site string) string {
	if k.about == "" {
		return title + " — " + site + "."
	}
	return fmt.Sprintf(k.about, site, title)
}

// apiPath is the path of an API file in the output, from its URL.
func apiPath(jsonURL, baseURL string) string {
	return strings.TrimPrefix(jsonURL, baseURL)
}

// slug is the last path element of a page URL.
func slug(url string) string {
	return path.Base(strings.TrimSuffix(url, "/"))
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
