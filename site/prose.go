package site

import "github.com/engramhq/engram/indexer/export"

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

func observationsHTML(os []export.Observation, md markdown, r Resolver) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = md.Inline(o.Content, r)
	}
	return out
}
