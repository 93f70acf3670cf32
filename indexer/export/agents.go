package export

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/routes"
)

// Feed is feed.json: the episodes as a JSON Feed 1.1
// (https://jsonfeed.org/version/1.1), newest first.
type Feed struct {
	Version     string     `json:"version"`
	Title       string     `json:"title"`
	HomePageURL string     `json:"home_page_url"`
	FeedURL     string     `json:"feed_url"`
	Description string     `json:"description"`
	Language    string     `json:"language"`
	Items       []FeedItem `json:"items"`
}

// FeedItem is one episode of the feed.
type FeedItem struct {
	ID            string   `json:"id"`
	URL           string   `json:"url"`
	Title         string   `json:"title"`
	ContentText   string   `json:"content_text"`
	Summary       string   `json:"summary"`
	DatePublished string   `json:"date_published"`
	DateModified  string   `json:"date_modified"`
	Tags          []string `json:"tags"`
}

// FeedVersion is the JSON Feed version feed.json follows.
const feedVersion = "https://jsonfeed.org/version/1.1"

// feed is feed.json. An item is titled by its episode's headline (its
// task), as the RSS feed's item is by its page's title, not by its id.
func (s *Site) feed() Feed {
	f := Feed{
		Version: feedVersion, Title: s.Title + ": episodes", HomePageURL: s.atRoot(s.BaseURL), FeedURL: s.atRoot(s.BaseURL + routes.Feed),
		Description: "Episodes of agent memory: what happened in each session, and how it ended.", Language: "en",
		Items: []FeedItem{},
	}
	for _, e := range s.Episodes {
		var text strings.Builder
		fmt.Fprintf(&text, "Outcome: %s.\nTask: %s\n", e.Outcome, e.Task)
		for _, l := range e.Lessons {
			fmt.Fprintf(&text, "Lesson: %s\n", l)
		}
		f.Items = append(f.Items, FeedItem{
			ID: s.atRoot(e.URL), URL: s.atRoot(e.URL), Title: EpisodeHeadline(e.Task, e.ID), ContentText: text.String(),
			Summary: string(e.Outcome) + ": " + e.Task, DatePublished: e.Created, DateModified: e.Updated, Tags: e.Tags,
		})
	}
	return f
}

// llmsTxt is llms.txt (https://llmstxt.org): a Markdown index of the site
// for agents. An H1 with the site's name, a blockquote summary, then
// sections of "- [name](url): notes" links; the "Optional" section is what
// an agent may skip. The links are the registry's: each family's LLMs
// line, by section and rank.
func (s *Site) llmsTxt() []byte {
	var w strings.Builder
	fmt.Fprintf(&w, "# %s\n\n", MarkdownText(strings.TrimSpace(s.Title)))
	fmt.Fprintf(&w, "> Agent memory built by engram: %d episodes (what happened in past sessions), %d patterns and antipatterns (what works and what fails), and the causal graph between them. Start with the bootstrap; every file is static JSON.\n\n",
		len(s.Episodes), len(s.Patterns))
	w.WriteString("At session start, read the bootstrap. Before repeating a risky action, check the antipatterns. For the detail of a note, follow its `json_url`.\n")
	docs := s.Registry()
	for _, section := range llmsSections {
		fmt.Fprintf(&w, "\n## %s\n\n", section)
		var lines []LLMsLine
		for _, d := range docs {
			if d.LLMs.Section == section {
				lines = append(lines, d.LLMs)
				lines[len(lines)-1].Link = cmp.Or(d.LLMs.Link, d.Path)
			}
		}
		slices.SortStableFunc(lines, func(a, b LLMsLine) int { return cmp.Compare(a.Rank, b.Rank) })
		for _, l := range lines {
			fmt.Fprintf(&w, "- [%s](%s): %s\n", l.Name, s.atRoot(s.BaseURL+l.Link), l.About(s))
		}
	}
	// The site itself is no file of the registry: its pages are Hugo's.
	fmt.Fprintf(&w, "- [Site](%s): the same memory as web pages, for people\n", s.atRoot(s.BaseURL))
	return []byte(w.String())
}

// atRoot is the link to u (a URL made with the base URL) from a file at
// the site's root: u itself, or without a base URL the path from the root
// ("episodes/x/", "./" for the root itself).
func (s *Site) atRoot(u string) string {
	if !s.RelativeLinks || !strings.HasPrefix(u, "/") {
		return u
	}
	if u == "/" {
		return "./"
	}
	return u[1:]
}

// MarkdownText makes text from notes or configuration literal on one line
// of Markdown that agents read (bootstrap.md, llms.txt), however the
// Markdown is later rendered: nothing in it becomes HTML, an autolink
// (<, >), a link or an image ([, ]), a code span (`), or a character
// reference (&lt; stays those four characters, not "<"), and a line break
// cannot start a block. Bare URLs are left as written: CommonMark links
// none, and GitHub's extension links only http, https and www ones, to
// the address the text shows; "javascript:" written bare is text in
// every renderer.
func MarkdownText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '<', '>', '[', ']', '`':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '&':
			if isCharRef(s[i:]) {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		case '\n', '\r':
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isCharRef reports whether s starts with an HTML character reference as
// CommonMark reads one: &name;, &#digits; or &#xhex;.
func isCharRef(s string) bool {
	i, digits, max := 1, "", 31
	switch {
	case strings.HasPrefix(s, "&#x") || strings.HasPrefix(s, "&#X"):
		i, digits, max = 3, "0123456789abcdefABCDEF", 6
	case strings.HasPrefix(s, "&#"):
		i, digits, max = 2, "0123456789", 7
	}
	n := 0
	for ; i < len(s) && n < max+1; i, n = i+1, n+1 {
		c := s[i]
		ok := digits != "" && strings.IndexByte(digits, c) >= 0 ||
			digits == "" && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || n > 0 && c >= '0' && c <= '9')
		if !ok {
			break
		}
	}
	return n > 0 && n <= max && i < len(s) && s[i] == ';'
}
