package site_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/source"
)

// TestFutureDatedNotes: a note dated after the reference time (the last
// commit) is published like any other (SPEC §6): every episode of the
// JSON has its page, in both RSS feeds, and every episode page has its
// entry in the JSON. Hugo leaves out pages dated in the future unless told
// otherwise, and feed.json would then link to a 404.
func TestFutureDatedNotes(t *testing.T) {
	episode := func(title, date string) []byte {
		return []byte("---\ntitle: " + title + "\ntype: episode\noutcome: success\ntask: Ship it\ndate: " + date + "\n---\n\n## Lessons Learned\n\n- A lesson.\n")
	}
	repo := t.TempDir()
	err := source.WriteRepo(repo, []source.Commit{{When: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), Files: map[string][]byte{
		"episodes/past.md":   episode("EP-past", "2026-03-01T10:00:00Z"),
		"episodes/future.md": episode("EP-future", "2031-01-01T10:00:00Z"),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	var list struct {
		ReferenceTime string `json:"reference_time"`
		Items         []struct{ ID, Date, URL string }
	}
	data, err := os.ReadFile(filepath.Join(out, "api/v1/episodes.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	urls := map[string]bool{}
	future := false
	for _, e := range list.Items {
		urls[e.URL] = true
		future = future || e.Date > list.ReferenceTime
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(e.URL), "index.html")); err != nil {
			t.Errorf("%s (dated %s) is in episodes.json but has no page: %v", e.ID, e.Date, err)
		}
		for _, feed := range []string{"index.xml", "episodes/index.xml"} {
			if rss, _ := os.ReadFile(filepath.Join(out, feed)); !strings.Contains(string(rss), "<link>"+strings.TrimPrefix(e.URL, "/")+"</link>") {
				t.Errorf("%s is not in %s", e.ID, feed)
			}
		}
	}
	if len(list.Items) != 2 || !future {
		t.Fatalf("want two episodes, one dated after the reference time %s: %+v", list.ReferenceTime, list.Items)
	}
	pages, _ := filepath.Glob(filepath.Join(out, "episodes", "*", "index.html"))
	for _, p := range pages {
		rel, _ := filepath.Rel(out, filepath.Dir(p))
		if u := "/" + filepath.ToSlash(rel) + "/"; !urls[u] {
			t.Errorf("page %s has no entry in episodes.json", u)
		}
	}
	if len(pages) != len(list.Items) {
		t.Errorf("%d episode pages for %d episodes", len(pages), len(list.Items))
	}
}
