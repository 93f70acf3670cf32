package site

import "github.com/engramhq/engram/indexer/export"

// outcomesPage counts the episodes of each outcome.
type outcomesPage struct {
	Outcomes []outcomeCount `json:"outcomes"`
}

func outcomesPages(in input) []page {
	ix := in.ix
	return []page{{path: "outcomes/_index.md", twin: export.List[outcomeCount]{Version: ix.version, ReferenceTime: ix.ref, Items: ix.outcomes},
		title: "Outcomes", params: outcomesPage{Outcomes: ix.outcomes}}}
}
