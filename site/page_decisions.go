package site

import "github.com/engramhq/engram/indexer/export"

// decisionsPage lists every decision of every episode, newest episode
// first: the choices made across the memory and how they turned out,
// which otherwise are only found one episode at a time.
type decisionsPage struct {
	Decisions []decisionRow `json:"decisions"`
	Count     int           `json:"count"`
	More      int           `json:"more"`
}

// decisionRow is a decision and the episode it was made in; URL is its
// place on the episode's page.
type decisionRow struct {
	ID      string     `json:"id"`
	Title   string     `json:"title"`
	Type    string     `json:"type,omitempty"`
	Chosen  string     `json:"chosen,omitempty"`
	Outcome string     `json:"outcome,omitempty"`
	URL     string     `json:"url"`
	Date    string     `json:"date,omitempty"`
	Episode export.Ref `json:"episode"`
}

func decisionsPages(in input) []page {
	rows := []decisionRow{}
	for _, e := range in.s.Episodes {
		ep := export.Ref{ID: e.ID, Type: "episode", URL: e.URL}
		for _, d := range e.Decisions {
			rows = append(rows, decisionRow{ID: d.ID, Title: d.Title, Type: string(d.Type), Chosen: d.Chosen, Outcome: string(d.Outcome),
				URL: e.URL + "#" + anchor(d.ID), Date: e.Date, Episode: ep})
		}
	}
	shown := first(rows, maxListed)
	return []page{{path: "decisions/_index.md", title: "Decisions",
		twin:   export.List[decisionRow]{Version: in.ix.version, ReferenceTime: in.ix.ref, Items: rows},
		params: decisionsPage{Decisions: shown, Count: len(rows), More: len(rows) - len(shown)}}}
}
