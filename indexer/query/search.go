package query

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/search"
)

// SearchItem is an item of `engram search --json` and `engram similar
// --json` (SPEC §4.0).
type SearchItem struct {
	ID    string  `json:"id"`
	Type  string  `json:"type"`
	Score float64 `json:"score"`
	URL   string  `json:"url"`
	// Headline, Outcome, Date (the day) and Snippet of the note
	// (search.Brief), so that judging a list costs no fetches; text
	// flagged for memory poisoning is withheld from them.
	Headline string `json:"headline,omitempty"`
	Outcome  string `json:"outcome,omitempty"`
	Date     string `json:"date,omitempty"`
	Snippet  string `json:"snippet,omitempty"`
	// Via is the hit a causal-graph neighbour was added for (--expand).
	Via string `json:"via,omitempty"`
}

// ExpandFactor scales a neighbour's score: hit score × edge weight ×
// ExpandFactor, so a neighbour never outscores its hit.
const expandFactor = 0.5

var errNoIndex = errors.New("no search index in the snapshot")

// Search answers `engram search`: the best limit notes for the query, of
// kind typ ("" for all). With expand, each hit is followed by its 1-hop
// neighbours in the causal graph (either direction), scored hit score ×
// edge weight × ExpandFactor (the strongest edge when there are several),
// best first, then by id; a node already listed, as a hit or for an
// earlier hit, is not repeated.
func (s *Snapshot) Search(q, typ string, limit int, expand bool) ([]SearchItem, error) {
	if s.Index == nil {
		return nil, errNoIndex
	}
	hits, err := s.Index.Search(q, typ, limit)
	if err != nil {
		return nil, err
	}
	items := make([]SearchItem, 0, len(hits))
	for _, h := range hits {
		items = append(items, withBrief(SearchItem{ID: h.ID, Type: h.Type, Score: h.Score, URL: h.URL}, h.Brief))
	}
	if expand {
		if items, err = s.expand(items); err != nil {
			return nil, err
		}
	}
	for i := range items {
		items[i].Score, items[i].URL = round4(items[i].Score), s.abs(items[i].URL)
	}
	return items, nil
}

// neighbour is a node next to a hit, and the strongest edge between them.
type neighbour struct {
	id     string
	weight float64
}

func (s *Snapshot) expand(hits []SearchItem) ([]SearchItem, error) {
	seen := map[string]bool{}
	for _, h := range hits {
		seen[h.ID] = true
	}
	next := map[string][]neighbour{}
	for _, e := range s.Graph.Edges {
		if e.Type == note.EdgeContains {
			continue // a hit's own decisions and events are the hit
		}
		for _, p := range [][2]string{{e.Source, e.Target}, {e.Target, e.Source}} {
			if seen[p[0]] && p[0] != p[1] {
				next[p[0]] = addNeighbour(next[p[0]], p[1], e.Weight)
			}
		}
	}
	out := make([]SearchItem, 0, len(hits))
	for _, h := range hits {
		out = append(out, h)
		ns := next[h.ID]
		slices.SortFunc(ns, func(a, b neighbour) int {
			if c := cmp.Compare(b.weight, a.weight); c != 0 {
				return c
			}
			return cmp.Compare(a.id, b.id)
		})
		for _, n := range ns {
			if !seen[n.id] {
				seen[n.id] = true
				out = append(out, SearchItem{ID: n.id, Score: h.Score * n.weight * expandFactor, Via: h.ID})
			}
		}
	}
	return out, s.describe(out)
}

func addNeighbour(ns []neighbour, id string, w float64) []neighbour {
	for i := range ns {
		if ns[i].id == id {
			ns[i].weight = max(ns[i].weight, w)
			return ns
		}
	}
	return append(ns, neighbour{id, w})
}

// describe fills in the type and page of the neighbours: a note's from
// the index, a decision's or an event's from its episode's.
func (s *Snapshot) describe(items []SearchItem) error {
	var ids []string
	for _, it := range items {
		if it.Via != "" {
			episode, _, _ := strings.Cut(it.ID, "#")
			ids = append(ids, episode)
		}
	}
	docs, err := s.Index.Lookup(ids)
	if err != nil {
		return err
	}
	for i := range items {
		it := &items[i]
		if it.Via == "" {
			continue
		}
		episode, part, isPart := strings.Cut(it.ID, "#")
		doc := docs[episode]
		it.Type, it.URL = doc.Type, doc.URL
		if !isPart {
			*it = withBrief(*it, doc.Brief)
		}
		if isPart {
			it.Type = s.nodeType(it.ID)
			if it.Type == causal.TypeDecision {
				part = export.DecisionAnchor(part)
			}
			if it.URL != "" {
				it.URL += "#" + part
			}
		}
		if it.Type == "" {
			it.Type = s.nodeType(it.ID)
		}
	}
	return nil
}

func (s *Snapshot) nodeType(id string) string {
	if n, err := s.Node(id); err == nil && n.ID == id {
		return n.Type
	}
	return ""
}

// SimilarToEpisode answers `engram similar --episode E`: the limit
// episodes most similar to E (named by id, ignoring case, or by the slug
// of its page), those at or above search.SimilarFloor, as on E's page.
func (s *Snapshot) SimilarToEpisode(name string, limit int) ([]SearchItem, error) {
	if s.Similar == nil {
		return nil, errors.New("no similarity model in the snapshot")
	}
	ids := s.Similar.IDs
	k := causal.Key(name)
	for i, id := range ids {
		if causal.Key(id) == k || slugOf(s.Similar.URLs[i]) == k {
			ms, _ := s.Similar.Episode(id, limit)
			return s.matches(ms), nil
		}
	}
	return nil, &NotFoundError{What: "episode", Name: name, Suggestions: suggest(name, ids)}
}

// SimilarToText answers `engram similar TEXT`.
func (s *Snapshot) SimilarToText(text string, limit int) ([]SearchItem, error) {
	if s.Similar == nil {
		return nil, errors.New("no similarity model in the snapshot")
	}
	return s.matches(s.Similar.Text(text, limit)), nil
}

func (s *Snapshot) matches(ms []search.Match) []SearchItem {
	out := make([]SearchItem, 0, len(ms))
	for _, m := range ms {
		out = append(out, SearchItem{ID: m.ID, Type: causal.TypeEpisode, Score: m.Score, URL: s.abs(m.URL), Headline: m.Headline, Outcome: m.Outcome})
	}
	return out
}

func withBrief(it SearchItem, b search.Brief) SearchItem {
	it.Headline, it.Outcome, it.Date, it.Snippet = b.Headline, b.Outcome, b.Date, b.Snippet
	return it
}

// Describe gives similar episodes (SimilarToEpisode, SimilarToText)
// their Brief from the search index, when the snapshot has it open: the
// similarity model knows only each episode's headline and outcome, and
// withholds nothing.
func (s *Snapshot) Describe(items []SearchItem) error {
	if s.Index == nil {
		return errNoIndex
	}
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	docs, err := s.Index.Lookup(ids)
	if err != nil {
		return err
	}
	for i := range items {
		if doc, ok := docs[items[i].ID]; ok {
			items[i] = withBrief(items[i], doc.Brief)
		}
	}
	return nil
}

func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }
