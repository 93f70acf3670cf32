package indexer_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
	"github.com/engramhq/engram/indexer/write"
)

// realAIAgents is the real ai-agents memory folder the federated build
// imports.
const realAIAgents = "../../shared/corpus/real/ai-agents@316ed2f2d41c/.agents/memory"

// The real episode the demo's added episode repeats: its situation
// (merge velocity held back by flaky CI) and its first lesson.
const realEpisode = "episode-2026-01-05-session-318"

// fedEpisode is added to the demo's copy: the demo and the snapshot
// share no lesson and no situation by nature (payments against an agent
// framework's own tooling), so this episode repeats session 318's task
// and first lesson in other words, and links it across repositories.
const fedEpisode = `---
title: EPISODE-2026-11-20-session-90
outcome: success
task: "Merge velocity analysis: why the payments team's pull requests wait days to merge"
date: 2026-11-20
---

## Context

A look at merge velocity, as [[ai:` + realEpisode + `]] did for the agent framework.

## Lessons Learned

- Unreliable automation and flaky CI tooling are the major bottleneck of merge velocity.
`

// fedDemo copies the demo (content/) into a git repository at dir, with
// fedEpisode and engram.toml's [[sources]] extra.
func fedDemo(t *testing.T, dir, sources string) {
	t.Helper()
	files := tree(t, "../content")
	files["episodes/2026/EPISODE-2026-11-20-session-90.md"] = []byte(fedEpisode)
	files["engram.toml"] = append(files["engram.toml"], sources...)
	when := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	if err := source.WriteRepo(dir, []source.Commit{{Files: files, Message: "demo", When: when}}); err != nil {
		t.Fatal(err)
	}
}

// TestBuildFederated (issue 35, Must show): one build of the demo with
// the real ai-agents snapshot imported as a source. A demo note links an
// episode of the snapshot ([[ai:…]]) and the link resolves; a lesson
// cluster has members from both repositories; an episode's similar
// episodes include one from the other; the source's notes say where they
// came from. Then the [[sources]] entry is removed and the site shrinks
// as for a deletion: the source's files are gone from the output, the
// manifest and the lists, and from what a query answers.
func TestBuildFederated(t *testing.T) {
	if _, err := os.Stat(realAIAgents); err != nil {
		t.Skipf("the real-data corpus (../shared/corpus/real) is not here; skipping the federated build: %v", err)
	}
	ctx := context.Background()
	root := t.TempDir()
	demo, ai := filepath.Join(root, "demo"), filepath.Join(root, "ai")
	fedDemo(t, demo, "\n[[sources]]\nnamespace = \"ai\"\npath = \"../ai\"\nname = \"ai-agents\"\nurl = \"https://github.com/rjmurillo/ai-agents\"\n")
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	// A repository with one commit, which the import's commit follows.
	if err := source.WriteRepo(ai, []source.Commit{{Files: map[string][]byte{"README.md": []byte("ai-agents memory, imported\n")}, Message: "init", When: now}}); err != nil {
		t.Fatal(err)
	}
	if _, err := write.ImportAIAgents(ctx, write.WriteOptions{Repo: ai, Commit: true, Now: now}, realAIAgents); err != nil {
		t.Fatal(err)
	}
	out, cache := filepath.Join(root, "public"), filepath.Join(root, "cache")
	opt := indexer.Options{Repo: demo, Out: out, CacheDir: cache}
	r, err := indexer.Build(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range r.Diagnostics {
		if d.Rule == "link-dangling" && strings.Contains(d.Message, realEpisode) {
			t.Errorf("the cross-repository link is reported: %v", d)
		}
	}
	api := filepath.Join(out, "api", "v1")
	ep := jsonOf(t, filepath.Join(api, "episodes", "episode-2026-11-20-session-90.json"))
	crossLink(t, ep)
	similarAcross(t, ep)
	lessonAcross(t, jsonOf(t, filepath.Join(api, "lessons.json")))
	theirs := jsonOf(t, filepath.Join(api, "episodes", "ai--"+realEpisode+".json"))
	src := theirs["source"].(map[string]any)
	if src["namespace"] != "ai" || src["name"] != "ai-agents" || !strings.HasPrefix(src["url"].(string), "https://github.com/rjmurillo/ai-agents/blob/") || src["path"] != "../ai/episodes/"+realEpisode+".md" {
		t.Errorf("the source's episode says it came from %v", src)
	}
	page, err := os.ReadFile(filepath.Join(out, "episodes", "ai--"+realEpisode, "index.html"))
	if err != nil || !strings.Contains(string(page), `<li class="repository">from ai-agents</li>`) || !strings.Contains(string(page), `<a href="`+src["url"].(string)+`" rel="external">the file there</a>`) {
		t.Errorf("the source's episode page does not say under its heading where it came from, or does not link to the file there (%v)", err)
	}
	before := jsonOf(t, filepath.Join(api, "index.json"))
	if s, _ := before["sources"].([]any); len(s) != 1 {
		t.Errorf("manifest sources %v", before["sources"])
	}
	if _, _, err := indexer.Snapshot(ctx, opt, store.PartEpisodes); err != nil {
		t.Fatal(err)
	}

	// The source goes: engram.toml without it, committed.
	toml, _ := os.ReadFile("../content/engram.toml")
	if err := source.WriteRepo(demo, []source.Commit{{Files: map[string][]byte{"engram.toml": toml}, Message: "no sources", When: now}}); err != nil {
		t.Fatal(err)
	}
	// The demo alone is fewer than half the notes: forced, as a
	// deletion of that size must be.
	opt.Force = true
	if _, err := indexer.Build(ctx, opt); err != nil {
		t.Fatal(err)
	}
	if left := grepTree(t, out, "ai--"); len(left) > 0 {
		t.Errorf("the source's files or links are left: %v", left[:min(5, len(left))])
	}
	after := jsonOf(t, filepath.Join(api, "index.json"))
	if _, ok := after["sources"]; ok || len(after["files"].([]any)) >= len(before["files"].([]any)) {
		t.Errorf("the manifest did not shrink: %d files, then %d", len(before["files"].([]any)), len(after["files"].([]any)))
	}
	snap, info, err := indexer.Snapshot(ctx, opt, store.PartEpisodes)
	if err != nil || !info.Refreshed {
		t.Fatalf("a query after the source went: %v, refreshed %v", err, info.Refreshed)
	}
	for _, e := range snap.Episodes {
		if strings.HasPrefix(e.ID, "ai:") {
			t.Fatalf("a query answers the source's %s after it went", e.ID)
		}
	}
}

// jsonOf is the JSON object of the file at p.
func jsonOf(t *testing.T, p string) map[string]any {
	t.Helper()
	var v map[string]any
	readJSON(t, p, &v)
	return v
}

// crossLink: the demo episode's link to the snapshot's episode resolves.
func crossLink(t *testing.T, ep map[string]any) {
	t.Helper()
	for _, l := range ep["links"].([]any) {
		l := l.(map[string]any)
		if l["target"] == "ai:"+realEpisode && l["url"] != nil && l["url"] != "" {
			return
		}
	}
	t.Errorf("the link across repositories does not resolve: %v", ep["links"])
}

// similarAcross: the demo episode's similar episodes include the
// snapshot's.
func similarAcross(t *testing.T, ep map[string]any) {
	t.Helper()
	var ids []string
	for _, s := range ep["similar"].([]any) {
		ids = append(ids, s.(map[string]any)["id"].(string))
	}
	if !slices.Contains(ids, "ai:"+realEpisode) {
		t.Errorf("similar episodes %v; want ai:%s among them", ids, realEpisode)
	}
}

// lessonAcross: one lesson cluster holds an episode of each repository.
func lessonAcross(t *testing.T, lessons map[string]any) {
	t.Helper()
	for _, c := range lessons["items"].([]any) {
		c := c.(map[string]any)
		eps := c["episodes"].([]any)
		if slices.Contains(eps, any("ai:"+realEpisode)) && slices.Contains(eps, any("EPISODE-2026-11-20-session-90")) {
			return
		}
	}
	t.Error("no lesson cluster holds an episode of each repository")
}
