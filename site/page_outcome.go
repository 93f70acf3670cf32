package site

import (
	"strings"

	"github.com/engramhq/engram/indexer/export"
)

// outcomePage lists the first maxListed episodes of one outcome.
type outcomePage struct {
	Outcome  string               `json:"outcome"`
	Count    int                  `json:"count"`
	Episodes []export.EpisodeHead `json:"episodes"`
	More     int                  `json:"more"`
}

func outcomePages(in input) []page {
	ix := in.ix
	byOutcome := map[string][]export.EpisodeSummary{}
	for _, e := range in.s.Episodes {
		o := outcomeOf(e.EpisodeHead)
		byOutcome[o] = append(byOutcome[o], e.Summary())
	}
	var ps []page
	for _, o := range outcomes() {
		eps := byOutcome[o]
		if eps == nil {
			eps = []export.EpisodeSummary{}
		}
		ps = append(ps, page{path: "outcomes/" + o + ".md",
			twin:  export.List[export.EpisodeSummary]{Version: ix.version, ReferenceTime: ix.ref, Items: eps},
			title: outcomeTitle(o), params: outcomePage{Outcome: o, Count: len(eps), Episodes: heads(first(eps, maxListed)), More: max(0, len(eps)-maxListed)}})
	}
	return ps
}

func outcomeTitle(o string) string {
	if o == unknown {
		return "Episodes without an outcome"
	}
	return strings.ToUpper(o[:1]) + o[1:] + " episodes"
}
