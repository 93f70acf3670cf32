package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/secrets/secretstest"
	"github.com/engramhq/engram/indexer/source"
)

// mcpWriteRepo is a git repository with a concept note and a thread note
// for the write tools to link and mark.
func mcpWriteRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := source.WriteRepo(dir, []source.Commit{{When: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC), Files: map[string][]byte{
		"notes/retries.md":        []byte("---\ntitle: retries\ntype: concept\n---\nRetrying.\n"),
		"notes/webhook-thread.md": []byte("---\ntitle: webhook-thread\ntype: thread\n---\nThe webhook work.\n"),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestMCPWrites: every write tool writes through the write commands'
// code; what store_episode wrote is answered by the next read, and a
// build then finds it by search.
func TestMCPWrites(t *testing.T) {
	repo := mcpWriteRepo(t)
	t.Setenv(cacheEnv, t.TempDir())
	cs := mcpClient(t, repo)
	ep := map[string]any{"title": "EPISODE-2026-05-02-webhooks", "task": "retry the quokka webhooks", "outcome": "success",
		"tags": []string{"webhooks"}, "lessons": []string{"Back off before retrying a webhook"},
		"decisions": []map[string]any{{"title": "Backoff", "type": "design", "options": []string{"fixed", "exponential"}, "chosen": "exponential", "outcome": "success"}}}
	var w wrote
	answer(t, cs, "store_episode", ep, &w)
	if len(w.Paths) != 1 || w.Paths[0] != "episodes/EPISODE-2026-05-02-webhooks.md" || !w.Staged {
		t.Fatalf("store_episode wrote %+v", w)
	}
	var card episodeCard
	answer(t, cs, "get_episode", map[string]any{"id": "EPISODE-2026-05-02-webhooks"}, &card)
	if !strings.Contains(card.Task, "quokka") {
		t.Errorf("get_episode after store_episode: %+v", card)
	}
	if res := callTool(t, cs, "store_episode", ep); !res.IsError || !strings.Contains(text(res), "exists") {
		t.Errorf("storing the same episode again: %v %s", res.IsError, text(res))
	}
	ep["task"] = "retry the quokka webhooks, again"
	answer(t, cs, "upsert_episode", ep, &w)
	answer(t, cs, "add_pattern", map[string]any{"title": "PATTERN-backoff", "trigger": "a webhook fails", "action": "retry with exponential backoff",
		"success_rate": 0.8, "evidence": []map[string]any{{"episode": "EPISODE-2026-05-02-webhooks", "outcome": "success"}}}, &w)
	answer(t, cs, "record_feedback", map[string]any{"note": "EPISODE-2026-05-02-webhooks", "kind": "echo", "session": "s1"}, &w)
	if len(w.Paths) != 1 || !strings.HasPrefix(w.Paths[0], "feedback/") {
		t.Errorf("record_feedback wrote %+v", w)
	}
	answer(t, cs, "link_episode_to_concept", map[string]any{"episode": "EPISODE-2026-05-02-webhooks", "concept": "retries"}, &w)
	if len(w.Paths) != 2 {
		t.Errorf("link_episode_to_concept wrote %+v, want both notes", w)
	}
	pending := func() []string {
		var p page[export.PendingItem]
		answer(t, cs, "get_pending_threads", map[string]any{}, &p)
		var ids []string
		for _, it := range p.Items {
			ids = append(ids, it.ID)
		}
		return ids
	}
	if ids := pending(); !slices.Contains(ids, "webhook-thread") {
		t.Errorf("pending threads %v, want webhook-thread", ids)
	}
	answer(t, cs, "mark_thread_status", map[string]any{"thread": "webhook-thread", "status": "completed", "commit": true}, &w)
	if w.Commit == "" {
		t.Errorf("mark_thread_status with commit made no commit: %+v", w)
	}
	if ids := pending(); slices.Contains(ids, "webhook-thread") {
		t.Errorf("a completed thread is still pending: %v", ids)
	}

	out := filepath.Join(t.TempDir(), "public")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"build", "--repo", repo, "--out", out, "--strict"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("build after the writes: exit %d\n%s", code, stderr.String())
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"search", "quokka", "--repo", repo}, &stdout, &stderr); code != exitOK || !strings.Contains(stdout.String(), "EPISODE-2026-05-02-webhooks") {
		t.Errorf("search after the build: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}

// TestMCPBadWrites: each bad write is a tool error saying what to fix,
// nothing is written, and the server answers the next call.
func TestMCPBadWrites(t *testing.T) {
	repo := mcpWriteRepo(t)
	t.Setenv(cacheEnv, t.TempDir())
	cs := mcpClient(t, repo)
	before := treeOf(t, repo)
	huge := strings.Repeat("x", 10<<20)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"store_episode", map[string]any{"task": "t", "outcome": "success"}, "title"},
		{"store_episode", map[string]any{"title": "../x", "task": "t", "outcome": "success"}, "title"},
		{"store_episode", map[string]any{"title": "EPISODE-x", "task": "t", "outcome": "maybe"}, "outcome"},
		{"store_episode", map[string]any{"title": "EPISODE-x", "task": huge, "outcome": "success"}, "task"},
		{"store_episode", map[string]any{"title": 7, "task": "t", "outcome": "success"}, "title"},
		{"add_pattern", map[string]any{"title": "PATTERN-x", "trigger": "a", "action": "b", "success_rate": 7}, "success"},
		{"record_feedback", map[string]any{"note": "no-such-note", "kind": "echo"}, "no-such-note"},
		{"record_feedback", map[string]any{"note": "retries", "kind": "meh"}, "echo"},
		{"link_episode_to_concept", map[string]any{"episode": "EPISODE-none", "concept": "retries"}, "episode-none"},
		{"mark_thread_status", map[string]any{"thread": "webhook-thread", "status": "done"}, "pending"},
	} {
		res := callTool(t, cs, c.tool, c.args)
		msg := text(res)
		if !res.IsError || !strings.Contains(strings.ToLower(msg), c.want) {
			t.Errorf("%s(%.80v): error %v %q, want a tool error naming %q", c.tool, c.args, res.IsError, cutTail(msg), c.want)
		}
		if res := callTool(t, cs, "search", map[string]any{"query": "retrying"}); res.IsError {
			t.Fatalf("after %s, search fails: %s", c.tool, text(res))
		}
	}
	if after := treeOf(t, repo); after != before {
		t.Errorf("bad writes changed the repository:\n%s\n---\n%s", before, after)
	}
}

// treeOf lists a repository's files with a digest of each, the git
// index among them.
func treeOf(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if fi.IsDir() || (strings.HasPrefix(rel, ".git") && rel != filepath.Join(".git", "index")) {
			return nil
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			fmt.Fprintf(&b, "%s -> %s\n", rel, target)
			return err
		}
		data, err := os.ReadFile(p)
		fmt.Fprintf(&b, "%s %x\n", rel, sha256.Sum256(data))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestMCPSeesOutsideEdits: a server that holds its snapshot answers the
// repository as it is once it checks again: a note edited by someone
// else (another process, a person) shows in the next checked call.
func TestMCPSeesOutsideEdits(t *testing.T) {
	repo := mcpWriteRepo(t)
	t.Setenv(cacheEnv, t.TempDir())
	cs := mcpClientOn(t, newCheckingMCPServer(queryFlags{repo: repo}, io.Discard, 0, toolsAll))
	var w wrote
	answer(t, cs, "store_episode", map[string]any{"title": "EPISODE-2026-05-03-edit", "task": "first task", "outcome": "success"}, &w)
	var card episodeCard
	answer(t, cs, "get_episode", map[string]any{"id": "EPISODE-2026-05-03-edit"}, &card)
	path := filepath.Join(repo, "episodes", "EPISODE-2026-05-03-edit.md")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Replace(src, []byte("first task"), []byte("second task"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	answer(t, cs, "get_episode", map[string]any{"id": "EPISODE-2026-05-03-edit"}, &card)
	if card.Task != "second task" {
		t.Errorf("after an outside edit, get_episode answers task %q", card.Task)
	}
}

// TestMCPWritesStayInside: the write tools refuse what would leave the
// repository or make it unbuildable (issue 29), each a tool error that
// says what to fix and never quotes a secret or names a private note,
// with nothing written; and what they write is published by the next
// build.
func TestMCPWritesStayInside(t *testing.T) {
	repo := mcpWriteRepo(t)
	files := map[string]string{
		"archive/2026/april.md": "---\ntitle: EPISODE-2026-04-01-session-1\ntype: episode\noutcome: success\ntask: by hand\n---\n",
		"notes/board.md":        "---\ntitle: Board minutes\nprivate: true\n---\nNot for the site.\n",
	}
	for p, s := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(repo, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := source.AddFiles(repo, "archive/2026/april.md", "notes/board.md"); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(repo, "feedback")); err != nil {
		t.Skipf("symlink: %v", err)
	}
	t.Setenv(cacheEnv, t.TempDir())
	cs := mcpClient(t, repo)
	before := treeOf(t, repo)
	ghp := secretstest.Kinds(7)[0]
	for _, c := range []struct {
		tool    string
		args    map[string]any
		want    string
		without string
	}{
		{"store_episode", map[string]any{"title": "episode-2026-04-01-SESSION-1", "task": "t", "outcome": "success"}, "archive/2026/april.md", ""},
		{"upsert_episode", map[string]any{"title": "EPISODE-2026-04-01-session-1", "task": "t", "outcome": "success"}, "archive/2026/april.md", ""},
		{"store_episode", map[string]any{"title": "EPISODE-2026-05-01-leak", "task": "deploy", "outcome": "success", "lessons": []string{ghp.Line}}, "lessons learned", ghp.Secret},
		{"store_episode", map[string]any{"title": "EPISODE-" + ghp.Secret, "task": "t", "outcome": "success"}, "rule github-pat", ghp.Secret},
		{"add_pattern", map[string]any{"title": "PATTERN-rotate", "trigger": "when " + ghp.Line + " leaks", "action": "rotate it"}, "trigger", ghp.Secret},
		{"record_feedback", map[string]any{"note": "Board minutes", "kind": "echo"}, `no note is titled "board minutes"`, "board.md"},
		{"record_feedback", map[string]any{"note": "retries", "kind": "echo", "session": ghp.Secret}, "feedback", ""},
		{"store_episode", map[string]any{"title": "!!!", "task": "t", "outcome": "success"}, "no letter or digit", ""},
	} {
		res := callTool(t, cs, c.tool, c.args)
		msg := strings.ToLower(text(res))
		if !res.IsError || !strings.Contains(msg, c.want) {
			t.Errorf("%s(%.80v): error %v %q, want a tool error naming %q", c.tool, c.args, res.IsError, cutTail(msg), c.want)
		}
		if c.without != "" && strings.Contains(msg, strings.ToLower(c.without)) {
			t.Errorf("%s: the error quotes %q: %s", c.tool, c.without, msg)
		}
	}
	if after := treeOf(t, repo); after != before {
		t.Errorf("refused writes changed the repository:\n%s\n---\n%s", before, after)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
		t.Errorf("record_feedback wrote %s outside the repository", entries[0].Name())
	}
	var w wrote
	answer(t, cs, "store_episode", map[string]any{"title": "Fix the login bug", "task": "fix the login bug", "outcome": "success"}, &w)
	if len(w.Paths) != 1 || w.Paths[0] != "episodes/fix-the-login-bug.md" || !w.Staged {
		t.Errorf("store_episode wrote %+v, want episodes/fix-the-login-bug.md staged", w)
	}
	var card episodeCard
	answer(t, cs, "get_episode", map[string]any{"id": "Fix the login bug"}, &card)
	if card.Task != "fix the login bug" {
		t.Errorf("get_episode after store_episode: %+v", card)
	}
}
