package write

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/source"
)

var writeNow = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

func newWriteRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	err := source.WriteRepo(dir, []source.Commit{{When: writeNow, Files: map[string][]byte{
		"notes/retries.md": []byte("---\ntitle: retries\ntype: concept\n---\nRetrying.\n"),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func episode(title string) EpisodeInput {
	return EpisodeInput{Title: title, Task: "retry webhooks", Outcome: "success"}
}

// TestWriteRefuses puts bad values beside good ones: each bad one is an
// error that says what to fix, and nothing is written.
func TestWriteRefuses(t *testing.T) {
	repo := newWriteRepo(t)
	opt := WriteOptions{Repo: repo, Now: writeNow}
	ctx := context.Background()
	rate := func(r float64) *float64 { return &r }
	big := strings.Repeat("x", 10<<20)
	for _, tc := range []struct {
		name, want string
		write      func() (Written, error)
	}{
		{"good episode", "", func() (Written, error) { return NewEpisode(ctx, opt, episode("EPISODE-good")) }},
		{"outcome", "is not success, partial or failure", func() (Written, error) {
			in := episode("EPISODE-a")
			in.Outcome = "won"
			return NewEpisode(ctx, opt, in)
		}},
		{"missing task", "the task is empty", func() (Written, error) {
			in := episode("EPISODE-b")
			in.Task = ""
			return NewEpisode(ctx, opt, in)
		}},
		{"escaping title", "may not be a path", func() (Written, error) { return NewEpisode(ctx, opt, episode("../x")) }},
		{"absolute title", "may not be a path", func() (Written, error) { return NewEpisode(ctx, opt, episode("/tmp/x")) }},
		{"10 MB task", "over the limit", func() (Written, error) {
			in := episode("EPISODE-c")
			in.Task = big
			return NewEpisode(ctx, opt, in)
		}},
		{"10 MB title", "over the limit", func() (Written, error) { return NewEpisode(ctx, opt, episode(big)) }},
		{"chosen not an option", "is not one of the options", func() (Written, error) {
			in := episode("EPISODE-d")
			in.Decisions = []DecisionInput{{Options: []string{"a", "b"}, Chosen: "c"}}
			return NewEpisode(ctx, opt, in)
		}},
		{"exists", "exists; not overwritten", func() (Written, error) { return NewEpisode(ctx, opt, episode("EPISODE-good")) }},
		{"case twin", `a note titled "EPISODE-good" exists at episodes/EPISODE-good.md`, func() (Written, error) { return NewEpisode(ctx, opt, episode("episode-GOOD")) }},
		{"good pattern", "", func() (Written, error) {
			return NewPattern(ctx, opt, PatternInput{Title: "PATTERN-p", Trigger: "t fails", Action: "retry", SuccessRate: rate(0.7)})
		}},
		{"rate 7", "not between 0 and 1", func() (Written, error) {
			return NewPattern(ctx, opt, PatternInput{Title: "PATTERN-q", Trigger: "t", Action: "a", SuccessRate: rate(7)})
		}},
		{"causal type", "is not one of causes", func() (Written, error) {
			return NewPattern(ctx, opt, PatternInput{Title: "PATTERN-r", Trigger: "t", Action: "a", Causal: []CausalInput{{Type: "breaks", Target: "X"}}})
		}},
		{"feedback unknown note", "no note is titled", func() (Written, error) {
			return RecordFeedback(ctx, opt, Feedback{Note: "EPISODE-none", Kind: "echo"})
		}},
		{"feedback kind", "not echo or fizzle", func() (Written, error) {
			return RecordFeedback(ctx, opt, Feedback{Note: "EPISODE-good", Kind: "meh"})
		}},
		{"link to an episode", "is an episode", func() (Written, error) {
			return LinkEpisodeToConcept(ctx, opt, "EPISODE-good", "EPISODE-good")
		}},
		{"thread status", "not one of pending", func() (Written, error) { return MarkThreadStatus(ctx, opt, "retries", "done") }},
		{"commit in a plain directory", "--commit needs a git repository", func() (Written, error) {
			return NewEpisode(ctx, WriteOptions{Repo: t.TempDir(), Commit: true}, episode("EPISODE-e"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := listFiles(t, repo)
			w, err := tc.write()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tc.want == "" && (len(w.Paths) != 1 || !w.Staged):
				t.Errorf("written = %+v, want one staged file", w)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("err = %v, want %q", err, tc.want)
			case tc.want != "" && listFiles(t, repo) != before:
				t.Errorf("a refused write changed the repository:\n%s\nwas\n%s", listFiles(t, repo), before)
			}
		})
	}
}

func listFiles(t testing.TB, repo string) string {
	var b strings.Builder
	filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
		if d != nil && d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%s %x\n", p, len(data))
		}
		return nil
	})
	return b.String()
}

// TestUpsertEpisode replaces only notes engram wrote.
func TestUpsertEpisode(t *testing.T) {
	repo := newWriteRepo(t)
	ctx := context.Background()
	opt := WriteOptions{Repo: repo, Now: writeNow}
	if _, err := UpsertEpisode(ctx, opt, episode("EPISODE-u")); err != nil {
		t.Fatal(err)
	}
	in := episode("EPISODE-u")
	in.Outcome = "failure"
	if _, err := UpsertEpisode(ctx, opt, in); err != nil {
		t.Fatalf("upsert over engram's own note: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(repo, "episodes", "EPISODE-u.md")); !bytes.Contains(data, []byte("outcome: failure")) {
		t.Errorf("not updated:\n%s", data)
	}
	mine := []byte("---\ntitle: EPISODE-mine\ntype: episode\noutcome: success\ntask: by hand\n---\n")
	if err := os.WriteFile(filepath.Join(repo, "episodes", "EPISODE-mine.md"), mine, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := UpsertEpisode(ctx, opt, episode("EPISODE-mine")); !errors.Is(err, ErrNoteExists) {
		t.Errorf("upsert over a hand-written note: %v, want ErrNoteExists", err)
	}
	opt.Force = true
	if _, err := UpsertEpisode(ctx, opt, episode("EPISODE-mine")); err != nil {
		t.Errorf("upsert with force: %v", err)
	}
}

// TestWriteChild is one of the writers of TestTwoWriters, run in its own
// process.
func TestWriteChild(t *testing.T) {
	repo, name := os.Getenv("ENGRAM_WRITE_REPO"), os.Getenv("ENGRAM_WRITE_NAME")
	if repo == "" {
		t.Skip("run by TestTwoWriters")
	}
	ctx := context.Background()
	opt := WriteOptions{Repo: repo, Now: writeNow}
	for i := range 50 {
		title := fmt.Sprintf("EPISODE-%s-%02d", name, i)
		if _, err := NewEpisode(ctx, opt, episode(title)); err != nil {
			t.Fatal(err)
		}
		if _, err := RecordFeedback(ctx, opt, Feedback{Note: "retries", Kind: "echo", Session: title}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTwoWriters is SPEC §5's "two writers at once": two processes each
// store 50 episodes and 50 feedback lines into one repository at the
// same moment; all 100 notes and 100 lines are there, staged, and every
// file parses.
func TestTwoWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two processes")
	}
	repo := newWriteRepo(t)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, name := range []string{"a", "b"} {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestWriteChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), "ENGRAM_WRITE_REPO="+repo, "ENGRAM_WRITE_NAME="+name)
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("writer %s: %v\n%s", name, err, out)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	r, diags, err := source.Open(repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		t.Errorf("source: %s", d)
	}
	episodes, lines := 0, 0
	p := parse.New(parse.Roots{})
	for _, f := range r.Files {
		data, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasPrefix(f.Path, "episodes/"):
			episodes++
			_, ds, err := p.Parse(f.Path, data)
			if err != nil || note.CountErrors(ds) > 0 {
				t.Errorf("%s does not parse: %v %v", f.Path, err, ds)
			}
		case strings.HasPrefix(f.Path, "feedback/") && strings.HasSuffix(f.Path, ".jsonl"):
			lines += bytes.Count(data, []byte("\n"))
		}
	}
	if episodes != 100 || lines != 100 {
		t.Errorf("%d episodes and %d feedback lines tracked, want 100 and 100", episodes, lines)
	}
}
