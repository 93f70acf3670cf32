package indexer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/source"
)

// TestGraphAcrossEpisodes (issue 31): a build publishes, in graph.json,
// the flags of every node and the typed links between episodes about
// the same numbered work, and flags an outcome its own last event
// contradicts: the episode's JSON, health.json and its page say so, and
// the page does not claim it is kept from agents (it is not).
func TestGraphAcrossEpisodes(t *testing.T) {
	ep := func(title, outcome, date string, events ...string) []byte {
		body := "## Events Timeline\n\n"
		for i, e := range events {
			body += fmt.Sprintf("%d. [%s] %s\n", i+1, date, e)
		}
		return []byte("---\ntitle: " + title + "\ntype: episode\noutcome: " + outcome + "\ntask: \"Work on the payout retry fix\"\ndate: " + date + "\n---\n\n" + body)
	}
	files := map[string][]byte{
		"episodes/a.md": ep("EP-a", "success", "2026-03-01T10:00:00Z", "Opened PR #42 for the payout retry fix", "Filed #77 for the flaky timeout"),
		"episodes/b.md": ep("EP-b", "failure", "2026-03-02T10:00:00Z", "Review of PR #42 failing on lint", "All failing checks fixed and committed; PR #42 ready for merge"),
		"episodes/c.md": ep("EP-c", "success", "2026-03-03T10:00:00Z", "Fixes #77: raise the timeout"),
		"episodes/d.md": ep("EP-d", "failure", "2026-03-04T10:00:00Z", "Deploy of PR #42 failed: timeout", "Rolled back; not merged"),
	}
	dir := t.TempDir()
	if err := source.WriteRepo(dir, []source.Commit{{When: time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC), Files: files}}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: dir, Out: out, CacheDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	var g export.Graph
	readJSON(t, filepath.Join(out, "api/v1/graph.json"), &g)
	var links []string
	for _, l := range g.Links {
		links = append(links, l.Source+" "+l.Type+" "+l.Target+" "+strings.Join(l.Via, ","))
	}
	want := []string{"EP-a continued_by EP-b #42", "EP-a continued_by EP-c #77", "EP-a resolved_by EP-c #77", "EP-b continued_by EP-d #42"}
	if !slices.Equal(links, want) {
		t.Errorf("graph.json links:\n got %q\nwant %q", links, want)
	}
	for _, n := range g.Nodes {
		if n.Flags == nil {
			t.Errorf("node %s has no flags list", n.ID)
		}
		if n.ID == "EP-b" && !slices.Equal(n.Flags, []string{"outcome_contradicted"}) {
			t.Errorf("EP-b's node flags %q, want outcome_contradicted", n.Flags)
		}
	}
	var h export.Health
	readJSON(t, filepath.Join(out, "api/v1/health.json"), &h)
	if !slices.Equal(h.OutcomeContradicted, []string{"EP-b"}) {
		t.Errorf("health.json outcome_contradicted = %q, want EP-b (EP-d's last event says not merged)", h.OutcomeContradicted)
	}
	html, err := os.ReadFile(filepath.Join(out, "episodes/ep-b/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(html); !strings.Contains(s, "its last event reports the work done") || strings.Contains(s, "Agents are not offered") {
		t.Errorf("EP-b's page: the banner should explain the contradicted outcome and claim nothing else")
	}
}
