package site

import (
	"cmp"
	"math"
	"sort"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/routes"
)

// homePage is the home page: counts, the outcomes chart, warnings, the
// best patterns, recurring lessons and graph health.
type homePage struct {
	Counts        map[string]int       `json:"counts"`
	Commit        string               `json:"commit"`
	ReferenceTime string               `json:"reference_time"`
	Antipatterns  []string             `json:"antipatterns"`
	Best          []string             `json:"best"`
	Health        healthView           `json:"health"`
	Pending       []export.PendingItem `json:"pending"`
	Lessons       []lessonView         `json:"lessons"`
	Chart         string               `json:"chart"`
}

// homeLessons and homeItems cap the home page's lists; the index pages
// have the rest.
const (
	homeLessons = 5
	homeItems   = 10
)

func homePages(in input) []page {
	s := in.s
	return []page{{path: "_index.md", api: routes.Manifest, title: s.Title, outputs: []string{"html", "rss"}, params: homePage{
		Counts: s.Manifest.Counts, Commit: s.Manifest.Commit, ReferenceTime: s.Manifest.ReferenceTime,
		Antipatterns: antipatternSlugs(s), Best: bestPatternSlugs(s, homeItems), Health: health(s), Pending: s.Pending,
		Lessons: lessonViews(s, homeLessons), Chart: in.ix.chart,
	}}}
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

// healthView is health.json with a page for every id it names.
type healthView struct {
	export.Health
	TautologyRefs      []export.Ref `json:"tautology_refs"`
	PlaceholderRefs    []export.Ref `json:"placeholder_refs"`
	FixtureRefs        []export.Ref `json:"fixture_refs"`
	DefaultRateRefs    []export.Ref `json:"default_rate_refs"`
	FixtureEpisodeRefs []export.Ref `json:"fixture_episode_refs"`
	EmptyEpisodeRefs   []export.Ref `json:"empty_episode_refs"`
	PoisoningRefs      []export.Ref `json:"poisoning_refs"`
	IsolatedPercent    float64      `json:"isolated_percent"`
	ConsecutivePercent float64      `json:"consecutive_percent"`
}

func health(s *export.Site) healthView {
	urls, types := map[string]string{}, map[string]string{}
	for _, p := range s.Patterns {
		urls[p.ID], types[p.ID] = p.URL, p.Type
	}
	for _, e := range s.Episodes {
		urls[e.ID], types[e.ID] = e.URL, "episode"
	}
	for _, n := range s.Notes {
		urls[n.ID], types[n.ID] = n.URL, n.Type
	}
	refs := func(typ string, ids []string) []export.Ref {
		out := []export.Ref{}
		for _, id := range ids {
			out = append(out, export.Ref{ID: id, Type: cmp.Or(typ, types[id]), URL: urls[id]})
		}
		return out
	}
	h := s.Health
	return healthView{Health: h, TautologyRefs: refs("pattern", h.Tautologies), PlaceholderRefs: refs("pattern", h.Placeholders),
		FixtureRefs: refs("pattern", h.Fixtures), DefaultRateRefs: refs("pattern", h.DefaultRates),
		FixtureEpisodeRefs: refs("episode", h.FixtureEpisodes), EmptyEpisodeRefs: refs("episode", h.EmptyEpisodes),
		PoisoningRefs:   refs("", h.MemoryPoisoning),
		IsolatedPercent: math.Round(h.IsolatedShare * 100), ConsecutivePercent: math.Round(h.LeadsToConsecutiveShare * 100)}
}
