package site

import "github.com/engramhq/engram/indexer/export"

// timelinePage is the months of the timeline and the outcomes chart.
type timelinePage struct {
	Months []monthRow `json:"months"`
	Chart  string     `json:"chart"`
}

type monthRow struct {
	Month    string         `json:"month"`
	Count    int            `json:"count"`
	Outcomes map[string]int `json:"outcomes"`
	URL      string         `json:"url"`
}

func timelinePages(in input) []page {
	ix := in.ix
	months := []monthRow{}
	for _, m := range ix.months {
		months = append(months, monthRow{Month: m.Month, Count: m.Count, Outcomes: m.Outcomes, URL: m.URL})
	}
	return []page{{path: "timeline/_index.md", twin: export.List[monthRow]{Version: ix.version, ReferenceTime: ix.ref, Items: months},
		title: "Timeline", params: timelinePage{Months: months, Chart: ix.chart}}}
}
