package write

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/secrets/secretstest"
)

const importedEpisode = `{"id": "episode-2026-08-01-session-1", "session": "2026-08-01-session-1", "timestamp": "2026-08-01T09:00:00Z",
 "outcome": "success", "task": "Make the build green", "lessons": ["Run the tests first"]}`

const importedGraph = `{"version": "1.0", "updated": "2026-08-01T10:00:00Z", "nodes": [], "edges": [], "patterns": [
 {"id": "cd31b49ba963", "name": "test first", "trigger": "A failing build", "action": "Run the tests", "success_rate": 1.0,
  "occurrences": 1, "episodes": ["episode-2026-08-01-session-1"], "created": "2026-08-01T10:00:00+00:00"}]}`

const sessionLog = `# Session 42 - 2026-03-02

## Session Info

- **Date**: 2026-03-02
- **Objective**: Retry webhook deliveries with backoff

## Work Log

### Task 1: Implement backoff

**Status**: Complete

## Lessons Learned

- Jitter matters as much as the backoff itself
`

// writeDir writes files into a new directory outside any repository.
func writeDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestImportStages: engram import writes its notes as every write does:
// staged in a git repository (a build reads tracked files only, and
// refused an import's repository with "no notes to publish"), never
// beside a note of the same title, never a secret.
func TestImportStages(t *testing.T) {
	ctx := context.Background()
	ghp := secretstest.Kinds(31)[0]
	mem := writeDir(t, map[string]string{
		"episodes/episode-2026-08-01-session-1.json": importedEpisode,
		"causality/causal-graph.json":                importedGraph,
		"episodes/episode-2026-08-02-leak.json": `{"id": "episode-2026-08-02-leak", "timestamp": "2026-08-02T09:00:00Z", "outcome": "success", "task": "use ` +
			ghp.Line + `"}`,
	})
	repo := newWriteRepo(t)
	res, err := ImportAIAgents(ctx, WriteOptions{Repo: repo, Now: writeNow}, mem)
	if err != nil {
		t.Fatal(err)
	}
	if res.Written != 2 || !res.Staged {
		t.Errorf("written %d, staged %v; want the episode and the pattern staged", res.Written, res.Staged)
	}
	leak := diagWith(res.Diagnostics, "episode-2026-08-02-leak.json", "secret")
	if leak == nil || leak.Severity != note.Error || strings.Contains(leak.Message, ghp.Secret) {
		t.Errorf("the episode with a secret: %v; want an error that does not quote it", leak)
	}
	if _, err := os.Stat(filepath.Join(repo, "episodes", "episode-2026-08-02-leak.md")); err == nil {
		t.Error("the episode with a secret was written")
	}
	buildable(t, repo, "episode-2026-08-01-session-1", "PATTERN-test-first")

	t.Run("a note of the same title elsewhere", func(t *testing.T) {
		repo := writeRepoWith(t, map[string]string{
			"notes/ep.md": "---\ntitle: Episode-2026-08-01-Session-1\ntype: episode\noutcome: failure\ntask: by hand\n---\n",
		})
		res, err := ImportAIAgents(ctx, WriteOptions{Repo: repo, Now: writeNow}, mem)
		if err != nil {
			t.Fatal(err)
		}
		if d := diagWith(res.Diagnostics, "notes/ep.md", "import-exists"); d == nil || res.Kept != 1 {
			t.Errorf("kept %d, diagnostics %v; want the note kept, named by its path", res.Kept, res.Diagnostics)
		}
		if _, err := os.Stat(filepath.Join(repo, "episodes", "episode-2026-08-01-session-1.md")); err == nil {
			t.Error("a second note of the same title was written")
		}
		buildable(t, repo, "PATTERN-test-first")
	})
}

// TestExtractStages: engram extract writes inside the repository and
// stages what it wrote; an --out outside the repository is refused.
func TestExtractStages(t *testing.T) {
	ctx := context.Background()
	logs := writeDir(t, map[string]string{"2026-03-02-session-42.md": sessionLog})
	log := filepath.Join(logs, "2026-03-02-session-42.md")
	repo := newWriteRepo(t)
	var got []Extracted
	err := Extract(ctx, ExtractOptions{WriteOptions: WriteOptions{Repo: repo, Now: writeNow}}, []string{log}, func(x Extracted) { got = append(got, x) })
	if err != nil || len(got) != 1 || got[0].Failed || got[0].Target != "episodes/EPISODE-2026-03-02-session-42.md" || !got[0].Staged {
		t.Fatalf("extracted %+v, %v; want episodes/EPISODE-2026-03-02-session-42.md staged", got, err)
	}
	buildable(t, repo, "EPISODE-2026-03-02-session-42")

	t.Run("a log with a secret", func(t *testing.T) {
		ghp := secretstest.Kinds(32)[0]
		logs := writeDir(t, map[string]string{"2026-03-03-session-43.md": strings.Replace(sessionLog, "- Jitter matters", "- Use "+ghp.Line+"\n- Jitter matters", 1)})
		repo := newWriteRepo(t)
		before := repoState(t, repo)
		var got []Extracted
		err := Extract(ctx, ExtractOptions{WriteOptions: WriteOptions{Repo: repo}}, []string{filepath.Join(logs, "2026-03-03-session-43.md")}, func(x Extracted) { got = append(got, x) })
		if err != nil || len(got) != 1 || !got[0].Failed {
			t.Fatalf("extracted %+v, %v; want the log failed", got, err)
		}
		d := diagWith(got[0].Diagnostics, "2026-03-03-session-43.md", "secret")
		if d == nil || strings.Contains(d.Message, ghp.Secret) || !strings.Contains(d.Message, "fingerprint") {
			t.Errorf("diagnostics %v: want the secret's rule and fingerprint, not the secret", got[0].Diagnostics)
		}
		if repoState(t, repo) != before {
			t.Error("the note with a secret was written")
		}
	})

	for _, out := range []string{t.TempDir(), "../elsewhere"} {
		repo := newWriteRepo(t)
		before := repoState(t, repo)
		err := Extract(ctx, ExtractOptions{WriteOptions: WriteOptions{Repo: repo}, Out: out}, []string{log}, func(Extracted) {})
		if err == nil || !strings.Contains(err.Error(), "inside the repository") {
			t.Errorf("--out %s: err = %v, want a refusal", out, err)
		}
		if repoState(t, repo) != before {
			t.Errorf("--out %s changed the repository", out)
		}
	}
}

func diagWith(diags []note.Diagnostic, path, rule string) *note.Diagnostic {
	i := slices.IndexFunc(diags, func(d note.Diagnostic) bool { return strings.HasSuffix(d.Path, path) && d.Rule == rule })
	if i < 0 {
		return nil
	}
	return &diags[i]
}
