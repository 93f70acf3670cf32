package source

import (
	"io/fs"
	"slices"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

// TestOpenTracked checks that in a git repository only what git tracks is
// listed and readable: committed and staged files (with the working
// tree's edits), never untracked or ignored ones, each accounted for by a
// diagnostic collapsed by directory.
func TestOpenTracked(t *testing.T) {
	dir := t.TempDir()
	err := WriteTxtarRepo(dir, []byte(`
-- @commit 2026-01-01T10:00:00Z one --
-- .gitignore --
secret/
*.local.md
-- episodes/a.md --
committed
-- @untracked --
-- episodes/a.md --
edited in the working tree
-- episodes/staged.md --
staged
-- episodes/draft.md --
untracked
-- drafts/x.md --
x
-- drafts/deep/y.md --
y
-- secret/keys.md --
k
-- episodes/me.local.md --
mine
-- public/api/v1/index.json --
{}
-- public/api/v1/schema/index.schema.json --
{}
-- public/index.html --
<p>an engram build's output</p>
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := Stage(dir, "episodes/staged.md"); err != nil {
		t.Fatal(err)
	}

	repo, diags := mustOpen(t, dir)
	if got, want := paths(repo), []string{".gitignore", "episodes/a.md", "episodes/staged.md"}; !slices.Equal(got, want) {
		t.Errorf("files = %v, want %v", got, want)
	}
	wantDiags := []string{"drafts/ source-untracked", "episodes/draft.md source-untracked", "episodes/me.local.md source-ignored", "public/ source-output", "secret/ source-ignored"}
	if got := rules(diags); !slices.Equal(got, wantDiags) {
		t.Errorf("diags = %v, want %v", got, wantDiags)
	}
	for _, d := range diags {
		want := note.Warning
		if d.Rule == "source-ignored" || d.Rule == "source-output" {
			want = note.Info
		}
		if d.Severity != want {
			t.Errorf("%s: severity %v, want %v", d, d.Severity, want)
		}
		if d.Path == "drafts/" && d.Message != "the 2 files under this directory are not tracked by git: not published (git add to publish)" {
			t.Errorf("drafts/: %q", d.Message)
		}
	}
	if b, err := fs.ReadFile(repo.FS, "episodes/a.md"); err != nil || string(b) != "edited in the working tree\n" {
		t.Errorf("a tracked file reads %q, %v; want the working tree's edit", b, err)
	}
	for _, p := range []string{"episodes/draft.md", "secret/keys.md", "episodes/me.local.md", "drafts/x.md"} {
		if _, err := fs.ReadFile(repo.FS, p); err == nil {
			t.Errorf("FS serves %s, which git does not track", p)
		}
	}

	t.Run("subdirectory", func(t *testing.T) {
		repo, diags := mustOpen(t, dir+"/episodes")
		if got, want := paths(repo), []string{"a.md", "staged.md"}; !slices.Equal(got, want) {
			t.Errorf("files = %v, want %v", got, want)
		}
		if got, want := rules(diags), []string{"draft.md source-untracked", "me.local.md source-ignored"}; !slices.Equal(got, want) {
			t.Errorf("diags = %v, want %v", got, want)
		}
	})
}
