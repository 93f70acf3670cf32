package indexer_test

import (
	"context"
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

// TestBuildDegenerateNotes: notes with nothing to say are published,
// flagged, and kept out of what agents are offered; none crashes the
// build. An episode with no text, a one-word task, only a commit SHA,
// Chinese text, 10,000 identical lessons, a pattern with an empty trigger
// and action.
func TestBuildDegenerateNotes(t *testing.T) {
	ep := func(title, task string, body ...string) []byte {
		return []byte("---\ntitle: " + title + "\ntype: episode\noutcome: success\ntask: \"" + task + "\"\ndate: 2026-03-01T10:00:00Z\n---\n\n" + strings.Join(body, "\n") + "\n")
	}
	same := strings.Repeat("- Always run the tests before a commit\n", 10_000)
	files := map[string][]byte{
		"episodes/none.md":  ep("EP-none", ""),
		"episodes/one.md":   ep("EP-one", "Deploy"),
		"episodes/sha.md":   ep("EP-sha", "3f9a2c41d0b7e6f58a9c0d1e2f3a4b5c6d7e8f90"),
		"episodes/zh.md":    ep("EP-zh", "修复支付重试逻辑", "## Lessons Learned", "", "- 每次重试都需要幂等键", "- 先复现再修复"),
		"episodes/many.md":  ep("EP-many", "Write the same lesson ten thousand times", "## Lessons Learned", "", same),
		"episodes/pr-a.md":  ep("EP-pr-a", "Review PR #42 for the payout retry fix", "## Events Timeline", "", "1. [2026-03-01T10:00:00Z] Read scripts/payout/retry.py"),
		"episodes/pr-b.md":  ep("EP-pr-b", "Address the review comments on the payout retry fix", "## Events Timeline", "", "1. [2026-03-01T11:00:00Z] Pushed fixes to PR #42"),
		"patterns/blank.md": []byte("---\ntitle: PATTERN-blank\ntype: pattern\n---\n\n## Evidence Episodes\n\n- [[EP-pr-a]] - success\n- [[EP-pr-b]] - success\n"),
		"patterns/good.md":  []byte("---\ntitle: PATTERN-good\ntype: pattern\ntrigger: A payout retry fails\naction: Check the idempotency key first\n---\n\n## Evidence Episodes\n\n- [[EP-pr-a]] - success\n- [[EP-one]] - success\n"),
	}
	dir := t.TempDir()
	if err := source.WriteRepo(dir, []source.Commit{{When: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), Files: files}}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: dir, Out: out, CacheDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	episode := func(id string) export.Episode {
		var e export.Episode
		readJSON(t, filepath.Join(out, "api/v1/episodes", export.Slug(id)+".json"), &e)
		return e
	}
	for id, want := range map[string][]string{"EP-none": {"empty"}, "EP-one": {"empty"}, "EP-sha": {"empty"}, "EP-zh": {}, "EP-many": {}, "EP-pr-a": {}} {
		if got := episode(id).Flags; !slices.Equal(got, want) {
			t.Errorf("%s: flags %q, want %q", id, got, want)
		}
	}
	for _, id := range []string{"EP-none", "EP-one", "EP-sha", "EP-zh", "EP-many", "EP-pr-a", "EP-pr-b"} {
		for _, s := range episode(id).Similar {
			if s.ID == "EP-none" || s.ID == "EP-one" || s.ID == "EP-sha" {
				t.Errorf("%s lists the empty %s as similar", id, s.ID)
			}
		}
	}
	if r := episode("EP-pr-b").RelatedWork; len(r) != 1 || r[0].ID != "EP-pr-a" || !slices.Equal(r[0].Via, []string{"#42"}) {
		t.Errorf("EP-pr-b related work %+v, want EP-pr-a via #42", r)
	}
	var ps export.List[export.Pattern]
	readJSON(t, filepath.Join(out, "api/v1/patterns.json"), &ps)
	for _, p := range ps.Items {
		switch p.ID {
		case "PATTERN-blank":
			if !slices.Equal(p.Flags, []string{"placeholder"}) {
				t.Errorf("PATTERN-blank flags %q, want placeholder", p.Flags)
			}
		case "PATTERN-good":
			// EP-one is nearly empty: not evidence.
			if len(p.Flags) != 0 || p.Occurrences != 1 {
				t.Errorf("PATTERN-good: flags %q, %d occurrences; want none and 1", p.Flags, p.Occurrences)
			}
		}
	}
	var ls export.List[export.Lesson]
	readJSON(t, filepath.Join(out, "api/v1/lessons.json"), &ls)
	if len(ls.Items) == 0 || ls.Items[0].Count != 10_000 || len(ls.Items[0].Episodes) != 1 {
		t.Errorf("lessons: %+v, want the 10,000 first, from one episode", ls.Items[:min(1, len(ls.Items))])
	}
	// Each flagged note's page says so in a banner; the others have none.
	for page, want := range map[string]string{
		"episodes/ep-one": "Agents are not offered this episode as a similar past situation", "patterns/pattern-blank": "Agents are not offered this pattern as advice",
		"episodes/ep-pr-a": "", "patterns/pattern-good": "",
	} {
		html, err := os.ReadFile(filepath.Join(out, page, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		if banner := strings.Contains(string(html), `id="flags"`); banner != (want != "") || !strings.Contains(string(html), want) {
			t.Errorf("%s: banner %v, want %q", page, banner, want)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "api/v1/bootstrap.md"))
	if err != nil {
		t.Fatal(err)
	}
	// bootstrap.md names a note by its link (/patterns/pattern-good/).
	if strings.Contains(string(md), "pattern-blank") || strings.Contains(string(md), "Recurring") || !strings.Contains(string(md), "/patterns/pattern-good/") {
		t.Errorf("bootstrap.md: no flagged pattern, no lesson of one episode called recurring, the good pattern in:\n%s", md)
	}
}
