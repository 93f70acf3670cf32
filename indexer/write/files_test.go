package write

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/config"
	"github.com/engramhq/engram/indexer/source"
)

// TestWriteFiles writes a set of files as one write: all of them or,
// when one is in the way or would not read back, none.
func TestWriteFiles(t *testing.T) {
	ctx := context.Background()
	ep, err := RenderEpisode(EpisodeInput{Title: "EPISODE-a", Task: "retry webhooks", Outcome: "success", Date: "2026-05-01"})
	if err != nil {
		t.Fatal(err)
	}
	files := []File{{Path: config.File, Data: []byte("title = \"m\"\n")}, ep, {Path: ".github/workflows/w.yml", Data: []byte("on: push\n")}}

	for _, tc := range []struct {
		name, want string
		file       File
	}{
		{"escaping path", "not a path inside", File{Path: "../x.md", Data: ep.Data}},
		{"into .git", "not a path inside", File{Path: ".git/hooks/x", Data: []byte("x")}},
		{"bad note", "would not parse cleanly", File{Path: "episodes/b.md", Data: []byte("---\ntitle: b\ntype: episode\noutcome: maybe\ntask: t\n---\n")}},
		{"unknown key", "unknown key", File{Path: config.File, Data: []byte("titel = \"m\"\n")}},
		{"bad toml", "would not load", File{Path: config.File, Data: []byte("title = \n")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := newWriteRepo(t)
			_, err := WriteFiles(ctx, WriteOptions{Repo: repo}, append(files[1:], tc.file), "m")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(repo, ep.Path)); err == nil {
				t.Error("a file was written")
			}
		})
	}

	repo := newWriteRepo(t)
	w, err := WriteFiles(ctx, WriteOptions{Repo: repo}, files, "m")
	if err != nil || len(w.Paths) != 3 || !w.Staged {
		t.Fatalf("WriteFiles = %+v, %v", w, err)
	}
	r, _, err := source.Open(repo)
	if err != nil || len(r.Files) != 4 {
		t.Fatalf("after the write the repository lists %d files (%v), want 4", len(r.Files), err)
	}

	// Again: every file is in the way, and all are named; with Force
	// they are replaced.
	if err := os.WriteFile(filepath.Join(repo, config.File), []byte("title = \"mine\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = WriteFiles(ctx, WriteOptions{Repo: repo}, files, "m")
	if err == nil || !strings.Contains(err.Error(), "engram.toml, episodes/EPISODE-a.md, .github/workflows/w.yml") {
		t.Errorf("a second write: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(repo, config.File)); string(data) != "title = \"mine\"\n" {
		t.Errorf("a refused write changed engram.toml: %q", data)
	}
	if _, err := WriteFiles(ctx, WriteOptions{Repo: repo, Force: true}, files, "m"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(repo, config.File)); string(data) != "title = \"m\"\n" {
		t.Errorf("Force left engram.toml %q", data)
	}
}
