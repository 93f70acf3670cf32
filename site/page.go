package site

import (
	"context"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/export"
)

// A page kind is one Go file here, page_<kind>.go, with the struct of
// what its pages show and the function that makes them; one template,
// templates/layouts/<kind>.html; and one line in kinds. Hugo finds the
// template by the layout each page's front matter names, the kind.

// kind is a kind of page: its name, which is also the name of its
// template, and the function that makes its pages.
type kind struct {
	name  string
	pages func(in input) []page
}

// kinds are the page kinds, in the order their pages are made.
func kinds() []kind {
	return []kind{
		{"home", homePages},
		{"episodes", episodesPages},
		{"patterns", patternsPages},
		{"notes", notesPages},
		{"search", searchPages},
		{"graph", graphPages},
		{"lessons", lessonsPages},
		{"workflows", workflowsPages},
		{"antipatterns", antipatternsPages},
		{"pending", pendingPages},
		{"diagnostics", diagnosticsPages},
		{"tags", tagsPages},
		{"tag", tagPages},
		{"timeline", timelinePages},
		{"month", monthPages},
		{"outcome", outcomePages},
		{"outcomes", outcomesPages},
		{"episode", episodePages},
		{"pattern", patternPages},
		{"note", notePages},
		{"workflow", workflowPages},
		{"decisions", decisionsPages},
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
	path  string // relative to content/
	kind  string // set by pages from the kind that made it
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
			p.kind = k.name
			p.heads = in.ix.headsIn(p.params)
			if p.linkTitle == "" {
				p.linkTitle = p.title
			}
			p.linkTitle = export.Clip(p.linkTitle, max(24, titleRunes-3-utf8.RuneCountInString(s.Title)))
			if p.description == "" {
				p.description = kindDescription(k.name, p.title, s.Title)
			}
			ps = append(ps, p)
		}
	}
	return ps, nil
}

// titleRunes bounds a page's <title>, its short title and the site's
// name: what a browser's tab and a search engine's result show.
const titleRunes = 70

// kindDescription is the meta description of a page that has none of
// its own: what its kind of page lists.
func kindDescription(kind, title, site string) string {
	switch kind {
	case "home":
		return "What the agents of " + site + " remember: recent episodes, the patterns that work, antipatterns to avoid, recurring lessons and the health of the causal graph."
	case "episodes":
		return "Every episode of " + site + ", newest first: what each session set out to do and how it ended, to filter by outcome, tag and date."
	case "patterns":
		return "The patterns of " + site + ": trigger and action rules, with their measured success rates and confidence."
	case "antipatterns":
		return "The antipatterns of " + site + ": rules whose measured success is too low, and those declared to avoid."
	case "lessons":
		return "The lessons that recur across the episodes of " + site + ", most frequent first."
	case "graph":
		return "The causal graph of " + site + ": how episodes, decisions, events and patterns cause, enable and prevent each other."
	case "timeline":
		return "The episodes of " + site + " month by month, with their outcomes."
	case "tags":
		return "Every tag of " + site + " and how many notes carry it."
	case "outcomes":
		return "The episodes of " + site + " by outcome: success, partial, failure."
	case "notes":
		return "The notes of " + site + " that are neither episodes nor patterns: threads, sessions, concepts."
	case "workflows":
		return "The workflows of " + site + ": execution events grouped by workflow."
	case "pending":
		return "Threads and sessions of " + site + " that no episode derives from yet."
	case "diagnostics":
		return "Problems engram found in the notes of " + site + ", by file and position."
	case "decisions":
		return "Every decision recorded in the episodes of " + site + ", newest first."
	case "search":
		return "Search the episodes, patterns and notes of " + site + "."
	case "tag":
		return "The notes of " + site + " tagged " + title + "."
	case "month":
		return title + " in the memory of " + site + ", newest first, with their outcomes and tasks."
	case "outcome":
		return title + " in the memory of " + site + ", newest first."
	case "workflow":
		return "Workflow " + title + " of " + site + ": its summary and its events in order."
	}
	return title + " — " + site + "."
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
