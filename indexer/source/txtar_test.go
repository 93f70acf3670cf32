package source

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestWriteTxtarRepo(t *testing.T) {
	dir := t.TempDir()
	err := WriteTxtarRepo(dir, []byte(`A comment is ignored.
-- base.md --
base
-- empty.md --
-- @commit 2026-01-02T10:00:00Z add notes --
-- notes/a.md --
a
-- notes/old.md --
old
-- @commit 2026-01-03T10:00:00+02:00 rename --
-- @delete notes/old.md --
-- notes/new.md --
old
-- @untracked --
-- draft.md --
draft
`))
	if err != nil {
		t.Fatal(err)
	}
	hashes := commitHashes(t, dir)
	if len(hashes) != 3 {
		t.Fatalf("%d commits, want 3", len(hashes))
	}
	repo, diags := mustOpen(t, dir)
	// @untracked writes draft.md without adding it: it is not published.
	if got := rules(diags); !slices.Equal(got, []string{"draft.md source-untracked"}) {
		t.Errorf("diags = %v", diags)
	}
	ts := []time.Time{
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 3, 8, 0, 0, 0, time.UTC),
	}
	want := map[string]int{"base.md": 0, "empty.md": 0, "notes/a.md": 1, "notes/new.md": 2}
	got := fileMap(repo)
	if len(got) != len(want) {
		t.Errorf("files = %v", paths(repo))
	}
	for p, i := range want {
		var w History
		if i >= 0 {
			w = History{Created: ts[i], Updated: ts[i], CreatedCommit: hashes[i], UpdatedCommit: hashes[i], Complete: true}
		}
		if h := got[p].History; h != w {
			t.Errorf("%s: history %+v, want %+v", p, h, w)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "draft.md"))
	if err != nil || string(b) != "draft\n" {
		t.Errorf("draft.md = %q, %v", b, err)
	}
}

func TestWriteTxtarRepoErrors(t *testing.T) {
	tests := []struct {
		name, archive, want string
	}{
		{"bad time", "-- @commit yesterday --\n", "parsing time"},
		{"no time", "-- @commit --\n", "want @commit TIME [MESSAGE]"},
		{"unknown directive", "-- @branch side --\n", `unknown directive "@branch side"`},
		{"delete untracked", "-- @untracked --\n-- @delete a.md --\n", "not in a commit"},
		{"escaping path", "-- ../evil.md --\nx\n", `invalid path "../evil.md"`},
		{"escaping untracked", "-- @untracked --\n-- ../evil.md --\nx\n", `invalid path "../evil.md"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "repo")
			err := WriteTxtarRepo(dir, []byte(tt.archive))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "write repository "+dir) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "evil.md")); err == nil {
				t.Error("file written outside the repository")
			}
		})
	}
}
