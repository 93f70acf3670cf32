package site

import (
	"testing"

	"github.com/engramhq/engram/indexer/export"
)

// TestDecisionsPage: every decision, newest episode first, each linked to
// its anchor on its episode's page; the page lists maxListed, the twin
// all of them.
func TestDecisionsPage(t *testing.T) {
	episode := func(id, date string, decisions ...string) export.Episode {
		e := export.Episode{EpisodeHead: export.EpisodeHead{ID: id, Date: date, URL: "/episodes/" + id + "/"}}
		for _, d := range decisions {
			e.Decisions = append(e.Decisions, export.Decision{ID: d, Title: "title of " + d, Outcome: "success"})
		}
		return e
	}
	s := &export.Site{BaseURL: "/", Episodes: []export.Episode{
		episode("new", "2026-05-02", "d001", "d002"),
		episode("none", "2026-05-01"),
		episode("old", "2026-04-01", "d001"),
	}}
	ps := decisionsPages(input{s: s, ix: newIndex(s)})
	if len(ps) != 1 || ps[0].path != "decisions/_index.md" {
		t.Fatalf("pages %+v", ps)
	}
	v := ps[0].params.(decisionsPage)
	var got []string
	for _, d := range v.Decisions {
		got = append(got, d.URL)
	}
	want := []string{"/episodes/new/#decision-d001", "/episodes/new/#decision-d002", "/episodes/old/#decision-d001"}
	if len(got) != len(want) || v.Count != 3 || v.More != 0 {
		t.Fatalf("decisions %v (count %d, more %d), want %v", got, v.Count, v.More, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("decision %d links %s, want %s", i, got[i], want[i])
		}
	}
	if d := v.Decisions[2]; d.Episode.ID != "old" || d.Date != "2026-04-01" || d.Title != "title of d001" {
		t.Errorf("last decision %+v", d)
	}

	var many []string
	for i := range maxListed + 1 {
		many = append(many, "d"+string(rune('a'+i%26))+string(rune('a'+i/26%26)))
	}
	s.Episodes = []export.Episode{episode("big", "2026-01-01", many...)}
	ps = decisionsPages(input{s: s, ix: newIndex(s)})
	v = ps[0].params.(decisionsPage)
	if len(v.Decisions) != maxListed || v.Count != maxListed+1 || v.More != 1 {
		t.Errorf("%d listed of %d, %d more", len(v.Decisions), v.Count, v.More)
	}
	if twin := ps[0].twin.(export.List[decisionRow]); len(twin.Items) != maxListed+1 {
		t.Errorf("twin has %d decisions", len(twin.Items))
	}
}
