package site

import (
	"strings"

	"github.com/engramhq/engram/indexer/export"
)

// The prose of a note, rendered for its page: the templates place this
// HTML as is.

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

// observationHTML is an observation as its page shows it: the text
// without the tags that end it, those tags, and its strength in words
// when it is less than stated (SPEC §2.3: #implied, #inferred).
type observationHTML struct {
	HTML     string   `json:"html"`
	Tags     []string `json:"tags"`
	Strength string   `json:"strength,omitempty"`
}

// strengthWords are the strength tags, which say how sure the note is,
// not what it is about.
var strengthWords = map[string]string{"explicit": "", "implied": "implied", "inferred": "inferred"}

// strengthOf is the strength a tag ("#implied", "inferred") states in
// words, and whether it is a strength tag at all.
func strengthOf(tag string) (string, bool) {
	s, ok := strengthWords[strings.ToLower(strings.TrimPrefix(tag, "#"))]
	return s, ok
}

func observationsHTML(os []export.Observation, md markdown, r Resolver) []observationHTML {
	out := make([]observationHTML, len(os))
	for i, o := range os {
		words := strings.Fields(o.Content)
		// The hashtags that end the text are shown apart from it; a
		// strength tag is dropped wherever it is.
		end := len(words)
		for end > 0 && strings.HasPrefix(words[end-1], "#") && len(words[end-1]) > 1 {
			end--
		}
		kept := []string{}
		for _, w := range words[:end] {
			if _, ok := strengthOf(w); !ok || !strings.HasPrefix(w, "#") {
				kept = append(kept, w)
			}
		}
		v := observationHTML{Tags: []string{}}
		for _, w := range words[end:] {
			if _, ok := strengthOf(w); !ok {
				v.Tags = append(v.Tags, w)
			}
		}
		for _, t := range o.Tags {
			if s, _ := strengthOf(t); s != "" && (v.Strength == "" || s == "inferred") {
				v.Strength = s
			}
		}
		v.HTML = md.Inline(strings.Join(kept, " "), r)
		out[i] = v
	}
	return out
}

// dates are when a note was made and last changed, in words.
type dates struct {
	Created when `json:"created"`
	Updated when `json:"updated"`
}

func datesOf(s export.Source) dates {
	return dates{Created: whenOf(s.Created, ""), Updated: whenOf(s.Updated, "")}
}
