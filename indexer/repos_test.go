package indexer_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/source"
)

const goodEpisode = "---\ntitle: EPISODE-2026-02-03-session-01\noutcome: success\ntask: A task\n---\n\n## Lessons Learned\n\n- One lesson.\n"

// TestBuildRepositoryShapes covers repositories that are not the usual
// git repository with notes in it.
func TestBuildRepositoryShapes(t *testing.T) {
	ctx := context.Background()
	t.Run("empty repository", func(t *testing.T) {
		dir := t.TempDir()
		if err := source.WriteRepo(dir, nil); err != nil {
			t.Fatal(err)
		}
		_, err := indexer.Build(ctx, indexer.Options{Repo: dir, Out: filepath.Join(t.TempDir(), "out")})
		if !errors.Is(err, indexer.ErrRefused) || !strings.Contains(err.Error(), "no notes") {
			t.Fatalf("err = %v, want a refusal saying there are no notes", err)
		}
	})
	t.Run("repository with no commits", func(t *testing.T) {
		dir := t.TempDir()
		if err := source.WriteRepo(dir, nil); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "episodes", "e.md"), goodEpisode)
		// Not yet staged, git does not track the note: it is not read.
		r, err := indexer.Build(ctx, indexer.Options{Repo: dir, Out: filepath.Join(t.TempDir(), "out")})
		if !errors.Is(err, indexer.ErrRefused) || len(diagnosticsWith(r.Diagnostics, "source-untracked")) != 1 {
			t.Fatalf("an untracked note: err = %v, diagnostics %v; want a refusal and the note reported", err, r.Diagnostics)
		}
		if err := source.Stage(dir, "episodes/e.md"); err != nil {
			t.Fatal(err)
		}
		r = build(t, dir, filepath.Join(t.TempDir(), "out"))
		if len(diagnosticsWith(r.Diagnostics, "source-no-commits")) != 1 {
			t.Errorf("want one source-no-commits diagnostic, got %v", r.Diagnostics)
		}
		// No front matter date and no history: created comes from the title.
		if ds := diagnosticsWith(r.Diagnostics, "date-fallback"); len(ds) != 1 || !strings.Contains(ds[0].Message, "from the title") {
			t.Errorf("want a date-fallback diagnostic naming the title, got %v", ds)
		}
	})
	t.Run("plain directory", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "episodes", "e.md"), goodEpisode)
		out := filepath.Join(t.TempDir(), "out")
		r := build(t, dir, out)
		if r.Commit != "" || !r.RefTime.Equal(time.Date(2026, 2, 3, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("commit %q, reference time %v: want none, and the latest note date", r.Commit, r.RefTime)
		}
		data, err := os.ReadFile(filepath.Join(out, "api", "v1", "episodes", "episode-2026-02-03-session-01.json"))
		if err != nil || !strings.Contains(string(data), `"date_source": "title"`) {
			t.Errorf("episode JSON should say date_source title: %v\n%s", err, data)
		}
	})
	t.Run("not a directory", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		writeFile(t, file, "x")
		for _, dir := range []string{file, filepath.Join(t.TempDir(), "missing")} {
			_, err := indexer.Build(ctx, indexer.Options{Repo: dir, Out: filepath.Join(t.TempDir(), "out")})
			if err == nil || !strings.Contains(err.Error(), dir) {
				t.Errorf("%s: err = %v, want an error naming the directory", dir, err)
			}
		}
	})
	t.Run("shallow clone", func(t *testing.T) {
		full := t.TempDir()
		day := func(d int) time.Time { return time.Date(2026, 4, d, 12, 0, 0, 0, time.UTC) }
		err := source.WriteRepo(full, []source.Commit{
			{When: day(1), Files: map[string][]byte{"episodes/old.md": []byte("---\ntitle: Old episode\noutcome: success\ntask: t\n---\n")}},
			{When: day(2), Files: map[string][]byte{"episodes/mid.md": []byte("---\ntitle: Mid episode\noutcome: success\ntask: t\n---\n")}},
			{When: day(3), Files: map[string][]byte{"episodes/new.md": []byte("---\ntitle: New episode\noutcome: success\ntask: t\n---\n")}},
		})
		if err != nil {
			t.Fatal(err)
		}
		shallow := t.TempDir()
		if err := source.ShallowClone(full, shallow, 2); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "out")
		r := build(t, shallow, out)
		if len(diagnosticsWith(r.Diagnostics, "source-shallow")) != 1 {
			t.Errorf("shallow clone not reported: %v", r.Diagnostics)
		}
		// new.md was added after the shallow boundary: its date is known.
		// The other two were first seen at the boundary: they fall back.
		newJSON, _ := os.ReadFile(filepath.Join(out, "api", "v1", "episodes", "new-episode.json"))
		if !strings.Contains(string(newJSON), `"date_source": "git"`) || !strings.Contains(string(newJSON), `"created": "2026-04-03T12:00:00Z"`) {
			t.Errorf("new episode should keep its git date:\n%s", newJSON)
		}
		if n := len(diagnosticsWith(r.Diagnostics, "date-fallback")); n != 2 {
			t.Errorf("want 2 date-fallback diagnostics for the notes at the shallow boundary, got %d", n)
		}
	})
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBuildOutputInsideRepository builds a repository into a folder of its
// own, twice: the second build must not read the first one's output.
func TestBuildOutputInsideRepository(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "episodes", "e.md"), goodEpisode)
	out := filepath.Join(dir, "public")
	first := build(t, dir, out)
	second := build(t, dir, out)
	if len(second.Diagnostics) != len(first.Diagnostics) {
		t.Errorf("the second build read the first one's output: %d diagnostics, then %d", len(first.Diagnostics), len(second.Diagnostics))
	}
}

// TestBuildUntracked builds a repository into public/ inside it, twice:
// a note git does not track is reported and never published, and the
// output itself (untracked too) is neither read nor reported.
func TestBuildUntracked(t *testing.T) {
	dir := t.TempDir()
	err := source.WriteRepo(dir, []source.Commit{{When: time.Date(2026, 2, 4, 0, 0, 0, 0, time.UTC),
		Files: map[string][]byte{"episodes/e.md": []byte(goodEpisode)}}})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "episodes", "draft.md"), "---\ntitle: EPISODE-2026-02-04-draft\noutcome: success\ntask: zanzibarquux\n---\n")
	writeFile(t, filepath.Join(dir, ".gitignore"), "secret/\n")
	writeFile(t, filepath.Join(dir, "secret", "keys.md"), "---\ntitle: Keys\n---\nquuxzanzibar\n")
	out := filepath.Join(dir, "public")
	for i := range 2 {
		r := build(t, dir, out)
		var got []string
		for _, d := range r.Diagnostics {
			if strings.HasPrefix(d.Rule, "source-") {
				got = append(got, d.Path+" "+d.Rule)
			}
		}
		want := []string{".gitignore source-untracked", "episodes/draft.md source-untracked", "secret/ source-ignored"}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("build %d: source diagnostics %v, want %v", i+1, got, want)
		}
	}
	for _, word := range []string{"zanzibarquux", "quuxzanzibar"} {
		if hits := grepTree(t, out, word); len(hits) > 0 {
			t.Errorf("%s, from a file git does not track, is published in %v", word, hits)
		}
	}
}

// grepTree lists the files under dir that contain s.
func grepTree(t *testing.T, dir, s string) []string {
	t.Helper()
	var hits []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(data), s) {
			hits = append(hits, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}
