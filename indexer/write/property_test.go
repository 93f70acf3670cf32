package write

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/secrets/secretstest"
)

// TestWritesKeepRepositoryBuildable is SPEC §6's invariant of writes,
// as a property over a seeded random run of writes with colliding
// titles (in other folders, other cases, other normalisations, the same
// slug, a private note's, an ai-agents episode's), titles that name
// nothing, and secrets in any field: after a write that succeeds a build
// does not refuse the repository and publishes the note written; after
// one that fails, the repository (files and git index) is as it was.
// A full build (Hugo included) ends the run.
func TestWritesKeepRepositoryBuildable(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the repository after each of 80 writes")
	}
	ctx := context.Background()
	r := rand.New(rand.NewPCG(29, 6))
	repo := writeRepoWith(t, map[string]string{
		"notes/retries.md":                       "---\ntitle: retries\ntype: concept\n---\nRetrying.\n",
		"notes/thread.md":                        "---\ntitle: THREAD-w\ntype: thread\n---\nThe work.\n",
		"archive/2025/old.md":                    "---\ntitle: EPISODE-old\ntype: episode\noutcome: success\ntask: by hand\n---\n",
		"archive/mine.md":                        "---\ntitle: EPISODE-mine\ntype: episode\noutcome: success\ntask: t\nwritten_by: engram\n---\n",
		"notes/private.md":                       "---\ntitle: Zephyr\nprivate: true\n---\nNot for the site.\n",
		"notes/cafe.md":                          "---\ntitle: Caf\u00e9\n---\nCoffee.\n",
		"mem/episodes/episode-2026-01-01-j.json": `{"id": "episode-2026-01-01-j", "outcome": "success", "task": "t", "timestamp": "2026-01-01T10:00:00Z"}`,
	})
	titles := []string{"EPISODE-a", "episode-A", "EPISODE-b", "Fix bug", "fix-bug", "FIX_BUG", "Cafe\u0301", "caf\u00e9",
		"!!!", "retries", "zephyr", "EPISODE-old", "episode-OLD", "EPISODE-mine", "Episode-2026-01-01-J", "PATTERN-p", "pattern-P"}
	ks := secretstest.Kinds(6)
	text := func(s string) string {
		if r.IntN(6) == 0 {
			return s + " " + ks[r.IntN(len(ks))].Line
		}
		return s
	}
	for i := range 80 {
		title := titles[r.IntN(len(titles))]
		opt := WriteOptions{Repo: repo, Now: writeNow, Force: r.IntN(5) == 0, Commit: r.IntN(4) == 0}
		var write func() (Written, error)
		published := []string{title}
		switch op := r.IntN(6); op {
		case 0, 1:
			in := EpisodeInput{Title: title, Task: text("retry webhooks"), Outcome: "success", Context: text("under load"), Lessons: []string{text("back off")}}
			write = func() (Written, error) {
				if op == 0 {
					return NewEpisode(ctx, opt, in)
				}
				return UpsertEpisode(ctx, opt, in)
			}
		case 2:
			in := PatternInput{Title: title, Trigger: text("a webhook fails"), Action: text("retry")}
			write = func() (Written, error) { return NewPattern(ctx, opt, in) }
		case 3:
			published = nil
			write = func() (Written, error) {
				return RecordFeedback(ctx, opt, Feedback{Note: title, Kind: "echo", Session: text("s")})
			}
		case 4:
			published = nil
			write = func() (Written, error) { return LinkEpisodeToConcept(ctx, opt, title, "retries") }
		case 5:
			published = nil
			write = func() (Written, error) {
				w, _, err := AddEvents(ctx, opt, []byte(fmt.Sprintf(`{"workflow_id":"w","event_type":"task_complete","timestamp":"2026-05-01T10:00:00Z","data":{"result":%q}}`, text("ok"))))
				return w, err
			}
		}
		before := repoState(t, repo)
		w, err := write()
		t.Logf("write %d: %q: %+v, %v", i, title, w, err)
		if err != nil {
			if after := repoState(t, repo); after != before {
				t.Fatalf("write %d failed (%v) and changed the repository:\n%s\nwas\n%s", i, err, after, before)
			}
			continue
		}
		buildable(t, repo, published...)
	}
	if _, err := indexer.Build(ctx, indexer.Options{Repo: repo, Out: filepath.Join(t.TempDir(), "public"), CacheDir: t.TempDir(), Now: &writeNow}); err != nil {
		t.Fatalf("the build refused: %v", err)
	}
}
