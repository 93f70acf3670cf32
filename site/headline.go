package site

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/export"
)

// The pages lead with a note's headline (export.EpisodeHeadline...):
// its page's heading and every link to it show the headline, then the
// id. A page carries the headlines of the notes it links to in its own
// front matter, so that it shows nothing it does not hold (pagecache.go).

// headlines are the headline of every note with a page, by its page.
func headlines(s *export.Site) map[string]string {
	h := make(map[string]string, len(s.Episodes)+len(s.Patterns)+len(s.Notes))
	for _, e := range s.Episodes {
		h[e.URL] = export.EpisodeHeadline(e.Task, e.ID)
	}
	for _, p := range s.Patterns {
		h[p.URL] = export.PatternHeadline(p.Trigger, p.Action, p.ID)
	}
	for _, n := range s.Notes {
		h[n.URL] = export.NoteHeadline(n.Title, n.ID)
	}
	return h
}

// headlineGraph is the graph with each note's headline as its label, for
// the neighbourhood drawings, whose labels are a few words: an episode's
// headline, a pattern's name in words ("PATTERN-cache-with-ttl" is
// "Cache with ttl"; its rule is too long for a label, and is the
// node's tooltip). The export's graph itself is not changed.
func headlineGraph(s *export.Site, heads map[string]string) export.Graph {
	g := s.Graph
	g.Nodes = make([]export.GraphNode, len(s.Graph.Nodes))
	for i, n := range s.Graph.Nodes {
		if h, ok := heads[n.URL]; ok && n.URL != "" {
			n.Label = h
			if n.Type == "pattern" || n.Type == "antipattern" {
				n.Label = patternName(n.ID) + " — " + h
			}
		}
		g.Nodes[i] = n
	}
	return g
}

// patternName is a pattern's id in words: no PATTERN- or ANTIPATTERN-
// prefix, spaces for hyphens.
func patternName(id string) string {
	name := id
	for _, prefix := range []string{"PATTERN-", "ANTIPATTERN-", "pattern-", "antipattern-"} {
		name = strings.TrimPrefix(name, prefix)
	}
	name = strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' }), " ")
	if name == "" {
		return id
	}
	return capitalised(name)
}

// headsIn are the headlines of the notes a page's params link to: every
// string field tagged json:"url" anywhere in v, with a headline. The
// templates show a link's headline from this map, keyed by URL (Hugo
// lowercases the keys of front matter maps; page URLs are lowercase).
func (ix *index) headsIn(v any) map[string]string {
	out := map[string]string{}
	var walk func(reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Struct:
			t := v.Type()
			for i := range t.NumField() {
				f := t.Field(i)
				if !f.IsExported() {
					continue
				}
				if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == "url" && f.Type.Kind() == reflect.String {
					if h, ok := ix.heads[v.Field(i).String()]; ok {
						out[v.Field(i).String()] = h
					}
					continue
				}
				walk(v.Field(i))
			}
		}
	}
	walk(reflect.ValueOf(v))
	return out
}

// descriptionRunes is the longest meta description: what search
// engines show of a page.
const descriptionRunes = 200

// episodeDescription is an episode's meta description: its outcome and
// task, in words.
func episodeDescription(e export.Episode) string {
	what := "Episode"
	if e.Outcome != "" {
		what = "Episode (" + string(e.Outcome) + ")"
	}
	if t := export.PlainText(e.Task); t != "" {
		return export.Clip(what+": "+t, descriptionRunes)
	}
	return export.Clip(what+" "+e.ID+" of the agents' memory.", descriptionRunes)
}

// patternDescription is a pattern's meta description: its rule and how
// well it has worked.
func patternDescription(p export.Pattern) string {
	what := "Pattern"
	if p.Antipattern {
		what = "Antipattern"
	}
	return export.Clip(what+": "+export.PatternHeadline(p.Trigger, p.Action, p.ID)+".", descriptionRunes)
}

// noteDescription is another note's meta description: its type and
// title, then the start of its first section.
func noteDescription(n export.Note) string {
	typ := n.Type
	if typ == "" {
		typ = "note"
	}
	d := capitalised(typ) + ": " + export.PlainText(n.Title)
	for _, s := range n.Sections {
		if t := export.PlainText(s.Markdown); t != "" {
			d += ". " + t
			break
		}
	}
	return export.Clip(d, descriptionRunes)
}

// capitalised is s with its first letter in capitals.
func capitalised(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}
