package write

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/source"
)

// repoState is what a refused write must leave as it was: every file of
// the working tree (outside .git) and the git index.
func repoState(t testing.TB, repo string) string {
	t.Helper()
	index, _ := os.ReadFile(filepath.Join(repo, ".git", "index"))
	return fmt.Sprintf("%sindex %x\n", listFiles(t, repo), sha256.Sum256(index))
}

// buildable loads repo as a build does and fails unless a build would go
// on: no refusal (a duplicate title or path), no secret that is not
// allowed, and each of titles published.
func buildable(t testing.TB, repo string, titles ...string) {
	t.Helper()
	l, err := indexer.Load(context.Background(), indexer.Options{Repo: repo, Out: filepath.Join(t.TempDir(), "out"), Now: &writeNow})
	if err != nil {
		t.Fatalf("a build would refuse the repository after the write: %v", err)
	}
	for _, f := range l.Secrets.Found {
		if !f.Allowed {
			t.Fatalf("a build would refuse the secret %v", f)
		}
	}
	published := map[string]bool{}
	for _, n := range l.Export.Notes {
		published[causal.Key(n.Title)] = true
	}
	for _, title := range titles {
		if !published[causal.Key(title)] {
			t.Errorf("%q is not published", title)
		}
	}
}

// writeRepoWith is a git repository holding files, committed.
func writeRepoWith(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	m := map[string][]byte{}
	for p, s := range files {
		m[p] = []byte(s)
	}
	if err := source.WriteRepo(dir, []source.Commit{{When: writeNow, Files: m}}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// refused checks that err says want and that the repository is as it
// was.
func refused(t *testing.T, repo, before string, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
	if after := repoState(t, repo); after != before {
		t.Errorf("a refused write changed the repository:\n%s\nwas\n%s", after, before)
	}
}

// TestWriteThroughSymlink: a folder or file inside the repository that
// is a symbolic link is never written through (the note would land
// outside the repository, and git would lose the link); the repository
// root itself may be a link, the user's choice.
func TestWriteThroughSymlink(t *testing.T) {
	ctx := context.Background()
	link := func(t *testing.T, repo, name string) string {
		outside := t.TempDir()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(repo, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(repo, name)); err != nil {
			t.Skipf("symlink: %v", err)
		}
		return outside
	}
	for _, tc := range []struct {
		name, link string
		write      func(WriteOptions) (Written, error)
	}{
		{"new episode into a linked episodes/", "episodes", func(o WriteOptions) (Written, error) { return NewEpisode(ctx, o, episode("EPISODE-l")) }},
		{"upsert into a linked episodes/", "episodes", func(o WriteOptions) (Written, error) { return UpsertEpisode(ctx, o, episode("EPISODE-l")) }},
		{"pattern into a linked patterns/", "patterns", func(o WriteOptions) (Written, error) {
			return NewPattern(ctx, o, PatternInput{Title: "PATTERN-l", Trigger: "t fails", Action: "retry"})
		}},
		{"feedback into a linked feedback/", "feedback", func(o WriteOptions) (Written, error) {
			return RecordFeedback(ctx, o, Feedback{Note: "retries", Kind: "echo"})
		}},
		{"events into a linked events/", "events", func(o WriteOptions) (Written, error) {
			w, _, err := AddEvents(ctx, o, []byte(`{"workflow_id":"w","event_type":"task_complete","timestamp":"2026-05-01T10:00:00Z","data":{}}`))
			return w, err
		}},
		{"a linked folder deeper down", "episodes/2026", func(o WriteOptions) (Written, error) {
			return WriteFiles(ctx, o, []File{{Path: "episodes/2026/x.txt", Data: []byte("x\n")}}, "m")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := newWriteRepo(t)
			outside := link(t, repo, tc.link)
			before := repoState(t, repo)
			_, err := tc.write(WriteOptions{Repo: repo, Now: writeNow})
			refused(t, repo, before, err, "symbolic link")
			if entries, _ := os.ReadDir(outside); len(entries) > 0 {
				t.Errorf("wrote %s outside the repository", entries[0].Name())
			}
		})
	}

	t.Run("a linked note", func(t *testing.T) {
		repo := newWriteRepo(t)
		outside := filepath.Join(t.TempDir(), "x.md")
		mine := "---\ntitle: EPISODE-l\ntype: episode\noutcome: success\ntask: t\nwritten_by: engram\n---\n"
		if err := os.WriteFile(outside, []byte(mine), 0o644); err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(repo, "episodes"), 0o755)
		if err := os.Symlink(outside, filepath.Join(repo, "episodes", "EPISODE-l.md")); err != nil {
			t.Skipf("symlink: %v", err)
		}
		before := repoState(t, repo)
		_, err := UpsertEpisode(ctx, WriteOptions{Repo: repo, Now: writeNow, Force: true}, episode("EPISODE-l"))
		refused(t, repo, before, err, "symbolic link")
		if data, _ := os.ReadFile(outside); string(data) != mine {
			t.Errorf("the file the link points to changed:\n%s", data)
		}
	})

	t.Run("a linked repository root", func(t *testing.T) {
		repo := newWriteRepo(t)
		root := filepath.Join(t.TempDir(), "memory")
		if err := os.Symlink(repo, root); err != nil {
			t.Skipf("symlink: %v", err)
		}
		w, err := NewEpisode(ctx, WriteOptions{Repo: root, Now: writeNow}, episode("EPISODE-root"))
		if err != nil || !w.Staged {
			t.Fatalf("written %+v, %v; want a staged note", w, err)
		}
		if _, err := os.Stat(filepath.Join(repo, "episodes", "EPISODE-root.md")); err != nil {
			t.Error(err)
		}
		buildable(t, repo, "EPISODE-root")
	})
}

// TestWriteSameTitle: a title is one note wherever it lives. A new note
// whose title (in any case or Unicode normalisation) or published path
// is another note's is refused, naming that note's file; an upsert
// updates engram's own note in place, at its path. A private note is
// never replaced, nor named.
func TestWriteSameTitle(t *testing.T) {
	ctx := context.Background()
	hand := func(title string) string {
		return "---\ntitle: " + title + "\ntype: episode\noutcome: success\ntask: by hand\n---\n"
	}
	files := map[string]string{
		"notes/old/ep.md":                        hand("EPISODE-x"),
		"notes/cafe.md":                          "---\ntitle: Caf\u00e9 notes\n---\nCoffee.\n",
		"archive/EPISODE-y.md":                   "---\ntitle: EPISODE-y\ntype: episode\noutcome: success\ntask: old\nwritten_by: engram\n---\n",
		"episodes/fix-bug.md":                    hand("fix-bug"),
		"mem/episodes/episode-2026-04-01-1.json": `{"id": "episode-2026-04-01-1", "outcome": "success", "task": "t", "timestamp": "2026-04-01T10:00:00Z"}`,
		"notes/mine.md":                          "---\ntitle: EPISODE-p\ntype: episode\noutcome: success\ntask: t\nprivate: true\nwritten_by: engram\n---\n",
	}
	for _, tc := range []struct {
		name, want, not string
		write           func(WriteOptions) (Written, error)
	}{
		{"new over a note in a subfolder", "notes/old/ep.md", "", func(o WriteOptions) (Written, error) { return NewEpisode(ctx, o, episode("EPISODE-x")) }},
		{"new in another case", "notes/old/ep.md", "", func(o WriteOptions) (Written, error) { return NewEpisode(ctx, o, episode("episode-X")) }},
		{"new in another normalisation", "notes/cafe.md", "", func(o WriteOptions) (Written, error) {
			return NewEpisode(ctx, o, episode("Cafe\u0301 notes"))
		}},
		{"upsert over a hand-written note", "notes/old/ep.md", "", func(o WriteOptions) (Written, error) { return UpsertEpisode(ctx, o, episode("EPISODE-X")) }},
		{"pattern over an episode", "notes/old/ep.md", "", func(o WriteOptions) (Written, error) {
			return NewPattern(ctx, o, PatternInput{Title: "EPISODE-x", Trigger: "t fails", Action: "retry"})
		}},
		{"the published path of another", "episodes/fix-bug.md", "", func(o WriteOptions) (Written, error) { return NewEpisode(ctx, o, episode("Fix bug")) }},
		{"an ai-agents episode's id", "mem/episodes/episode-2026-04-01-1.json", "", func(o WriteOptions) (Written, error) {
			return UpsertEpisode(ctx, o, episode("EPISODE-2026-04-01-1"))
		}},
		{"a private note", "exists", "notes/mine.md", func(o WriteOptions) (Written, error) { return UpsertEpisode(ctx, o, episode("episode-p")) }},
		{"a private note, forced", "exists", "notes/mine.md", func(o WriteOptions) (Written, error) {
			o.Force = true
			return NewEpisode(ctx, o, episode("EPISODE-p"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := writeRepoWith(t, files)
			before := repoState(t, repo)
			_, err := tc.write(WriteOptions{Repo: repo, Now: writeNow})
			refused(t, repo, before, err, tc.want)
			if tc.not != "" && err != nil && strings.Contains(err.Error(), tc.not) {
				t.Errorf("the refusal names the private note: %v", err)
			}
			if err != nil && !errors.Is(err, ErrNoteExists) {
				t.Errorf("err = %v, want ErrNoteExists", err)
			}
		})
	}

	t.Run("upsert in place", func(t *testing.T) {
		repo := writeRepoWith(t, files)
		in := episode("episode-Y")
		in.Title = "EPISODE-y"
		w, err := UpsertEpisode(ctx, WriteOptions{Repo: repo, Now: writeNow}, in)
		if err != nil || len(w.Paths) != 1 || w.Paths[0] != "archive/EPISODE-y.md" {
			t.Fatalf("written %+v, %v; want archive/EPISODE-y.md", w, err)
		}
		if _, err := os.Stat(filepath.Join(repo, "episodes", "EPISODE-y.md")); err == nil {
			t.Error("a second file was written")
		}
		buildable(t, repo, "EPISODE-y")
	})

	t.Run("forced over a note in a subfolder", func(t *testing.T) {
		repo := writeRepoWith(t, files)
		w, err := NewEpisode(ctx, WriteOptions{Repo: repo, Now: writeNow, Force: true}, episode("EPISODE-x"))
		if err != nil || len(w.Paths) != 1 || w.Paths[0] != "notes/old/ep.md" {
			t.Fatalf("written %+v, %v; want notes/old/ep.md replaced", w, err)
		}
		buildable(t, repo, "EPISODE-x")
	})
}

// TestWriteFileNames: a note's file is named by its title when the title
// is a plain file name already (EPISODE-2026-05-01-session-01), else by
// its slug; the title stays the note's id. A title with no letter or
// digit names nothing.
func TestWriteFileNames(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		title, want string
	}{
		{"EPISODE-2026-05-01-session-01", "episodes/EPISODE-2026-05-01-session-01.md"},
		{"Fix the login bug", "episodes/fix-the-login-bug.md"},
		{"Caf\u00e9 au lait", "episodes/caf\u00e9-au-lait.md"},
		{"Why did CI fail? (again)", "episodes/why-did-ci-fail-again-"},
		{"!!!", "no letter or digit"},
		{"-- --", "no letter or digit"},
	} {
		t.Run(tc.title, func(t *testing.T) {
			repo := newWriteRepo(t)
			before := repoState(t, repo)
			w, err := NewEpisode(ctx, WriteOptions{Repo: repo, Now: writeNow}, episode(tc.title))
			if !strings.HasPrefix(tc.want, "episodes/") {
				refused(t, repo, before, err, tc.want)
				return
			}
			if err != nil || len(w.Paths) != 1 || !strings.HasPrefix(w.Paths[0], tc.want) || strings.Contains(w.Paths[0], " ") {
				t.Fatalf("written %+v, %v; want %s", w, err, tc.want)
			}
			buildable(t, repo, tc.title)
			if _, err := LinkEpisodeToConcept(ctx, WriteOptions{Repo: repo, Now: writeNow}, tc.title, "retries"); err != nil {
				t.Errorf("the note is not found by its title: %v", err)
			}
		})
	}
}

// TestWriteNotesCache: the titles a write keeps in the cache between
// writes never hide a change: a note added, retitled or removed by hand
// since the last write is read again.
func TestWriteNotesCache(t *testing.T) {
	ctx := context.Background()
	repo := writeRepoWith(t, map[string]string{"notes/a.md": "---\ntitle: Alpha\n---\nA.\n"})
	opt := WriteOptions{Repo: repo, Now: writeNow, CacheDir: t.TempDir()}
	old := writeNow.Add(-time.Hour)
	age := func(p string) {
		if err := os.Chtimes(filepath.Join(repo, p), old, old); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, src string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(repo, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, p), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	age("notes/a.md")
	for _, step := range []struct {
		name, title, want string
		before            func()
	}{
		{"first write", "EPISODE-1", "", func() {}},
		{"cached title", "alpha", "notes/a.md", func() {}},
		{"retitled", "Beta", "notes/a.md", func() { write("notes/a.md", "---\ntitle: Beta\n---\nA, longer.\n"); age("notes/a.md") }},
		{"the old title is free", "Alpha", "", func() {}},
		{"added", "Gamma", "notes/b.md", func() { write("notes/b.md", "---\ntitle: Gamma\n---\nB.\n"); age("notes/b.md") }},
		{"removed", "Gamma", "", func() { os.Remove(filepath.Join(repo, "notes", "b.md")) }},
	} {
		t.Run(step.name, func(t *testing.T) {
			step.before()
			_, err := NewEpisode(ctx, opt, episode(step.title))
			switch {
			case step.want == "" && err != nil:
				t.Fatalf("err = %v", err)
			case step.want != "" && (err == nil || !strings.Contains(err.Error(), step.want)):
				t.Fatalf("err = %v, want a refusal naming %s", err, step.want)
			}
		})
	}
	if matches, _ := filepath.Glob(filepath.Join(opt.CacheDir, "*.notes.gob")); len(matches) != 1 {
		t.Errorf("the titles are not kept in the cache directory: %v", matches)
	}
}
