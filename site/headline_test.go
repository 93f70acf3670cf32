package site

import (
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/export"
)

func TestWhenOf(t *testing.T) {
	for _, tt := range []struct{ ts, prev, text, datetime string }{
		{"2026-11-17T17:00:00Z", "", "17 November 2026, 17:00 UTC", "2026-11-17T17:00:00Z"},
		{"2026-11-17T17:05:00+02:00", "", "17 November 2026, 17:05 +02:00", "2026-11-17T17:05:00+02:00"},
		// Midnight UTC is how tools write a date with no time.
		{"2026-05-13T00:00:00Z", "", "13 May 2026", "2026-05-13T00:00:00Z"},
		{"2026-05-13", "", "13 May 2026", "2026-05-13"},
		// After another time of the same day, only the time of day.
		{"2026-11-17T17:05:00Z", "2026-11-17T17:00:00Z", "17:05", "2026-11-17T17:05:00Z"},
		// The same instant again: nothing to say.
		{"2026-05-13T00:00:00Z", "2026-05-13T00:00:00Z", "", "2026-05-13T00:00:00Z"},
		// Another day: the date again.
		{"2026-11-18T09:00:00Z", "2026-11-17T17:00:00Z", "18 November 2026, 09:00 UTC", "2026-11-18T09:00:00Z"},
		// Not a timestamp: shown as written, with no datetime to claim.
		{"yesterday <b>", "", "yesterday <b>", ""},
		{"", "", "", ""},
	} {
		got := whenOf(tt.ts, tt.prev)
		if got.Text != tt.text || got.Datetime != tt.datetime {
			t.Errorf("whenOf(%q, %q) = %+v, want text %q, datetime %q", tt.ts, tt.prev, got, tt.text, tt.datetime)
		}
	}
	got := whens([]string{"2026-05-13T10:00:00Z", "", "2026-05-13T11:00:00Z"})
	if got[2].Text != "11:00" {
		t.Errorf("a missing timestamp does not reset the day: %+v", got)
	}
}

func TestObservationsHTML(t *testing.T) {
	md := newMarkdown()
	obs := []export.Observation{
		{Category: "fact", Content: "A 30-second TTL kept FX quotes fresh #cache #explicit", Tags: []string{"cache", "explicit"}},
		{Category: "risk", Content: "Retries #implied leave a payout unknown #payouts", Tags: []string{"implied", "payouts"}},
		{Category: "insight", Content: "Both #implied and #inferred", Tags: []string{"implied", "inferred"}},
		{Category: "x", Content: "<script>alert(1)</script> #t", Tags: []string{"t"}},
		{Category: "y", Content: "#only #tags", Tags: []string{"only", "tags"}},
	}
	got := observationsHTML(obs, md, nil)
	want := []struct {
		html     string
		tags     []string
		strength string
	}{
		{"A 30-second TTL kept FX quotes fresh", []string{"#cache"}, ""},
		{"Retries leave a payout unknown", []string{"#payouts"}, "implied"},
		{"Both and", []string{}, "inferred"},
		{"", []string{"#t"}, ""},
		{"", []string{"#only", "#tags"}, ""},
	}
	for i, w := range want {
		g := got[i]
		if strings.TrimSpace(g.HTML) != w.html && i != 3 {
			t.Errorf("%d: html %q, want %q", i, g.HTML, w.html)
		}
		if !slices.Equal(g.Tags, w.tags) || g.Strength != w.strength {
			t.Errorf("%d: tags %q strength %q, want %q %q", i, g.Tags, g.Strength, w.tags, w.strength)
		}
	}
	if strings.Contains(got[3].HTML, "<script") {
		t.Errorf("an observation's markup became markup: %q", got[3].HTML)
	}
}

func TestHeadsIn(t *testing.T) {
	ix := &index{heads: map[string]string{"/episodes/a/": "Fix the build", "/patterns/p/": "When X, do Y"}}
	type row struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}
	v := struct {
		Rows []row       `json:"rows"`
		Prev *export.Ref `json:"prev"`
		Edge edgeView    `json:"edge"`
		Gone row         `json:"gone"`
	}{Rows: []row{{"a", "/episodes/a/"}}, Prev: &export.Ref{ID: "p", URL: "/patterns/p/"}, Gone: row{"z", "/notes/z/"}}
	got := ix.headsIn(v)
	if len(got) != 2 || got["/episodes/a/"] != "Fix the build" || got["/patterns/p/"] != "When X, do Y" {
		t.Errorf("headsIn = %v", got)
	}
}

func TestPatternName(t *testing.T) {
	for id, want := range map[string]string{"PATTERN-cache-with-ttl": "Cache with ttl", "ANTIPATTERN-big-bang_change": "Big bang change", "PATTERN-": "PATTERN-", "odd": "Odd"} {
		if got := patternName(id); got != want {
			t.Errorf("patternName(%q) = %q, want %q", id, got, want)
		}
	}
}
