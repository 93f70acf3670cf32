package site

import "github.com/engramhq/engram/indexer/export"

// monthPage is a month of the timeline: its first maxListed episodes,
// newest first.
type monthPage struct {
	Month    string               `json:"month"`
	Episodes []export.EpisodeHead `json:"episodes"`
	Outcomes map[string]int       `json:"outcomes"`
	Count    int                  `json:"count"`
	More     int                  `json:"more"`
	// Prev is the month before, Next the month after.
	Prev *monthLink `json:"prev,omitempty"`
	Next *monthLink `json:"next,omitempty"`
}

type monthLink struct {
	Month string `json:"month"`
	URL   string `json:"url"`
}

func monthPages(in input) []page {
	ix := in.ix
	var ps []page
	for i, m := range ix.months {
		v := monthPage{Month: m.Month, Episodes: heads(first(m.Episodes, maxListed)), Outcomes: m.Outcomes,
			Count: m.Count, More: m.Count - min(m.Count, maxListed)}
		// Months are newest first: the previous one is older.
		if i+1 < len(ix.months) {
			v.Prev = &monthLink{Month: ix.months[i+1].Month, URL: ix.months[i+1].URL}
		}
		if i > 0 {
			v.Next = &monthLink{Month: ix.months[i-1].Month, URL: ix.months[i-1].URL}
		}
		ps = append(ps, page{path: "timeline/" + m.Month + ".md",
			twin:  export.List[export.EpisodeSummary]{Version: ix.version, ReferenceTime: ix.ref, Items: m.Episodes},
			title: monthTitle(m.Month), params: v})
	}
	return ps
}

func monthTitle(m string) string {
	if m == "undated" {
		return "Undated episodes"
	}
	return "Episodes of " + m
}
