package site

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/engramhq/engram/indexer/export"
)

// TestListedParams: what a stub carries of a page (batch.go) is keyed
// and valued as in the page's own params, so that a list shows of a stub
// what it showed of the page; and a kind no list shows carries nothing.
func TestListedParams(t *testing.T) {
	rate, conf := 0.75, 0.5
	episode := export.Episode{Context: "long prose", Lessons: []string{"a lesson"}}
	episode.ID, episode.Date, episode.Outcome, episode.Task, episode.Title = "EP-1", "2026-01-02T03:04:05Z", "success", "Ship <it>", "EP one"
	for _, tc := range []struct {
		name   string
		params any
		keys   int
	}{
		{"episode", episodePage{Doc: episode}, 4},
		{"pattern", patternPage{Doc: export.Pattern{ID: "P-1", SuccessRate: &rate, Occurrences: 4, Confidence: &conf, StatsSource: "evidence", Antipattern: true, Flags: []string{"tautology"}, Trigger: "when"}}, 7},
		{"pattern without a rate or flags", patternPage{Doc: export.Pattern{ID: "P-2"}}, 7},
		{"note", notePage{Doc: export.Note{ID: "N-1", Type: "thread", Title: "A thread", Tags: []string{"x"}}}, 2},
		{"tag, listed by no list", tagPage{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			full, stub := docOf(t, tc.params), docOf(t, listedParams(tc.params))
			if len(stub) != tc.keys {
				t.Fatalf("the stub carries %d keys, want %d: %v", len(stub), tc.keys, stub)
			}
			for k, v := range stub {
				if w, ok := full[k]; !ok || !reflect.DeepEqual(v, w) {
					t.Errorf("the stub's doc.%s = %v, the page's %v (present: %t)", k, v, w, ok)
				}
			}
		})
	}
}

// docOf is the "doc" of params as Hugo reads it from the front matter.
func docOf(t *testing.T, params any) map[string]any {
	t.Helper()
	data, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Doc map[string]any `json:"doc"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v.Doc
}

// TestListPageInABatch: a page that shows other pages cannot be a regular
// page, which a batch renders without them: the render says so rather
// than write the page with empty lists.
func TestListPageInABatch(t *testing.T) {
	for _, tc := range []struct {
		page page
		ok   bool
	}{
		{page{path: "episodes/_index.md", kind: "episodes", list: true, params: episodesPage{}}, true},
		{page{path: "episodes/x.md", kind: "episode", params: episodePage{}}, true},
		{page{path: "episodes/x.md", kind: "episodes", list: true, params: episodesPage{}}, false},
		{page{path: "all.md", kind: "home", list: true, params: homePage{}}, false},
	} {
		if k := kindNamed(t, tc.page.kind); k.list != tc.page.list {
			t.Fatalf("kind %s: list %t, but its kind says %t", k.name, tc.page.list, k.list)
		}
		t.Run(tc.page.path+"/"+tc.page.kind, func(t *testing.T) {
			_, err := contentOf(tc.page, nil)
			if (err == nil) != tc.ok {
				t.Errorf("contentOf() = %v, want ok %t", err, tc.ok)
			}
		})
	}
}

// kindNamed is the page kind of that name.
func kindNamed(t *testing.T, name string) kind {
	for _, k := range kinds() {
		if k.name == name {
			return k
		}
	}
	t.Fatalf("no page kind %q", name)
	return kind{}
}
