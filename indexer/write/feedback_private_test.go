package write

import (
	"context"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/note"
)

// privateFiles is a repository with a public note, a private one and a
// private ai-agents episode, whose titles only a reader of the
// repository may know.
var privateFiles = map[string]string{
	"notes/retries.md":                   "---\ntitle: retries\ntype: concept\n---\nRetrying.\n",
	"notes/acquisition.md":               "---\ntitle: Zephyr acquisition\nprivate: true\n---\nNot for the site.\n",
	"episodes/episode-2026-01-01-z.json": `{"id": "episode-2026-01-01-zephyr", "outcome": "success", "task": "t", "timestamp": "2026-01-01T10:00:00Z", "private": true}`,
}

// TestFeedbackOnPrivateNote: feedback names only notes a reader may
// know. On a private note it is refused as on a note that does not
// exist, saying nothing of it, and nothing is written.
func TestFeedbackOnPrivateNote(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		note, want string
	}{
		{"retries", ""},
		{"RETRIES", ""},
		{"Zephyr acquisition", `no note is titled "Zephyr acquisition"`},
		{"zephyr ACQUISITION", `no note is titled "zephyr ACQUISITION"`},
		{"episode-2026-01-01-zephyr", `no note is titled "episode-2026-01-01-zephyr"`},
		{"nothing", `no note is titled "nothing"`},
	} {
		t.Run(tc.note, func(t *testing.T) {
			repo := writeRepoWith(t, privateFiles)
			before := repoState(t, repo)
			w, err := RecordFeedback(ctx, WriteOptions{Repo: repo, Now: writeNow}, Feedback{Note: tc.note, Kind: "echo"})
			if tc.want == "" {
				if err != nil || len(w.Paths) != 1 {
					t.Fatalf("written %+v, %v", w, err)
				}
				return
			}
			refused(t, repo, before, err, tc.want)
			if err != nil && (strings.Contains(err.Error(), "private") || strings.Contains(err.Error(), "acquisition.md")) {
				t.Errorf("the refusal tells of the private note: %v", err)
			}
		})
	}
}

// TestFeedbackNamingPrivateNoteNotPublished: a feedback line that names
// a private note (written by hand) is left out and reported in the
// build's report, but no diagnostic the build publishes holds the
// private title.
func TestFeedbackNamingPrivateNoteNotPublished(t *testing.T) {
	files := map[string]string{
		"feedback/2026-05.jsonl": `{"id": "Zephyr acquisition", "kind": "echo", "at": "2026-05-01T10:00:00Z"}` + "\n" +
			`{"id": "episode-2026-01-01-zephyr", "kind": "fizzle", "at": "2026-05-01T10:00:00Z"}` + "\n" +
			`{"id": "no such note", "kind": "echo", "at": "2026-05-01T10:00:00Z"}` + "\n",
		"notes/links.md": "---\ntitle: links\n---\nSee [[Zephyr acquisition]].\n",
	}
	for p, s := range privateFiles {
		files[p] = s
	}
	repo := writeRepoWith(t, files)
	l, err := indexer.Load(context.Background(), indexer.Options{Repo: repo, Now: &writeNow})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range l.Export.Diagnostics {
		if m := strings.ToLower(d.Message); strings.Contains(m, "zephyr") {
			t.Errorf("a published diagnostic names a private note: %s", d)
		}
	}
	reported := 0
	for _, d := range l.Diagnostics {
		if d.Rule == "feedback-target" && strings.Contains(strings.ToLower(d.Message), "zephyr") {
			reported++
		}
	}
	if reported != 2 {
		t.Errorf("%d feedback lines naming a private note in the report, want 2", reported)
	}
	if !hasDiag(l.Export.Diagnostics, "feedback-target", `"no such note"`) {
		t.Error("a line naming no note is not reported publicly any more")
	}
}

func hasDiag(diags []note.Diagnostic, rule, text string) bool {
	for _, d := range diags {
		if d.Rule == rule && strings.Contains(d.Message, text) {
			return true
		}
	}
	return false
}
