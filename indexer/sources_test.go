package indexer_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/secrets/secretstest"
	"github.com/engramhq/engram/indexer/store"
)

// writeTree writes files under dir, which it returns.
func writeTree(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for p, data := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), data)
	}
	return dir
}

const fedToml = "[[sources]]\nnamespace = \"ai\"\npath = \"../ai\"\nname = \"AI agents\"\nurl = \"https://git.example/org/ai\"\n"

// fedRepos writes two plain-directory repositories side by side, main
// and ai, main listing ai as a source (toml), and returns main.
func fedRepos(t *testing.T, toml string, ai map[string]string) string {
	t.Helper()
	root := t.TempDir()
	writeTree(t, filepath.Join(root, "ai"), ai)
	return writeTree(t, filepath.Join(root, "main"), map[string]string{
		"engram.toml":      toml,
		"episodes/main.md": "---\ntitle: EPISODE-2026-02-03-session-01\noutcome: success\ntask: Use the other repository\n---\n\n## Context\n\nSee [[ai:EPISODE-2026-01-01-session-01]] and [[ai:hidden-plan]].\n",
	})
}

var aiRepo = map[string]string{
	"engram.toml": "[paths]\nepisodes = [\"memory/eps\"]\n\n[[sources]]\nnamespace = \"main\"\npath = \"../main\"\n",
	// Its own episode folder, a link to its own note by file name, a
	// decision's effect on its own decision, and a link under a
	// namespace the build knows.
	"memory/eps/one.md":    "---\ntitle: EPISODE-2026-01-01-session-01\noutcome: failure\ntask: Flaky test\n---\n\n## Decisions\n\n### d001: retry\n\n- **Effects**: [[d002]]\n\n### d002: fix\n\n- **Chosen**: fix\n\n## Relations\n\n- about [[concept-x]]\n- follows [[ai:EPISODE-2026-01-01-session-01]]\n",
	"notes/concept-x.md":   "---\ntitle: Concept X\n---\n\nBody [[nowhere]].\n",
	"notes/hidden.md":      "---\ntitle: hidden-plan\nprivate: true\n---\n\nzqhiddenzq\n",
	"events/2026-01.jsonl": "{}\n",
}

// TestLoadSources: a source's notes are published under its namespace,
// classified by its own [paths], their links naming what they named in
// their own repository; the repository links to them across; a private
// note of the source is withheld and never named by a published
// diagnostic; a source's own [[sources]] (a cycle: ai lists main) is not
// read, and said so; its events are not read, and said so.
func TestLoadSources(t *testing.T) {
	// main names itself: ai's [[main:…]] names main's own note.
	repo := fedRepos(t, "namespace = \"main\"\n"+fedToml, aiRepo)
	l, err := indexer.Load(context.Background(), indexer.Options{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	byTitle := map[string]*note.Note{}
	for i := range l.Export.Notes {
		byTitle[l.Export.Notes[i].Title] = &l.Export.Notes[i]
	}
	ep := byTitle["ai:EPISODE-2026-01-01-session-01"]
	if ep == nil || ep.Source != "ai" || ep.Episode == nil || ep.Path != "../ai/memory/eps/one.md" {
		t.Fatalf("the source's episode: %+v", ep)
	}
	if got := ep.Relations[0].Target; got != "ai:Concept X" {
		t.Errorf("a link by file name to its own note: %q", got)
	}
	if got := ep.Relations[1].Target; got != "ai:EPISODE-2026-01-01-session-01" {
		t.Errorf("a link under a known namespace: %q", got)
	}
	if got := ep.Episode.Decisions[0].Effects[0].Target; got != "d002" {
		t.Errorf("a decision's effect on its own decision: %q", got)
	}
	if byTitle["ai:hidden-plan"] != nil || byTitle["hidden-plan"] != nil {
		t.Error("the source's private note is published")
	}
	for i, n := range l.Export.Notes {
		if n.Source == "ai" && !strings.HasPrefix(l.Export.Meta[i].Slug, "ai--") {
			t.Errorf("slug %q of %s", l.Export.Meta[i].Slug, n.Title)
		}
		if n.Source == "ai" && l.Export.Meta[i].From == nil {
			t.Errorf("%s: no source", n.Title)
		}
	}
	rules := map[string][]note.Diagnostic{}
	for _, d := range l.Diagnostics {
		rules[d.Rule] = append(rules[d.Rule], d)
		if d.Rule == "link-dangling" && strings.Contains(d.Message, "EPISODE-") {
			t.Errorf("a link across repositories is reported: %v", d)
		}
	}
	for _, d := range l.Export.Diagnostics {
		if strings.Contains(d.Message, "hidden-plan") {
			t.Errorf("a published diagnostic names the source's private note: %v", d)
		}
	}
	for rule, path := range map[string]string{"source-not-transitive": "../ai/engram.toml", "source-unread": "../ai/events/2026-01.jsonl"} {
		if ds := rules[rule]; len(ds) != 1 || ds[0].Path != path {
			t.Errorf("%s: %v; want one at %s", rule, ds, path)
		}
	}
	if !hasDangling(l.Diagnostics, "../ai/notes/concept-x.md", "ai:nowhere") {
		t.Errorf("a dangling link in the source is not reported under its namespace: %v", rules)
	}
	if len(l.Export.Sources) != 1 || l.Export.Sources[0].Name != "AI agents" {
		t.Errorf("manifest sources %+v", l.Export.Sources)
	}

	// The cycle: ai, listing main, builds too, reading main as a source.
	back, err := indexer.Load(context.Background(), indexer.Options{Repo: filepath.Join(filepath.Dir(repo), "ai")})
	if err != nil {
		t.Fatalf("the other side of the cycle: %v", err)
	}
	found := false
	for _, n := range back.Export.Notes {
		found = found || n.Title == "main:EPISODE-2026-02-03-session-01"
	}
	if !found {
		t.Error("the other side of the cycle does not read main")
	}
	for _, d := range back.Diagnostics {
		if d.Rule == "link-dangling" && strings.Contains(d.Message, "main:EPISODE-") {
			t.Errorf("ai's link to main's episode does not resolve when ai is built: %v", d)
		}
	}
}

func hasDangling(diags []note.Diagnostic, path, target string) bool {
	for _, d := range diags {
		if d.Path == path && strings.Contains(d.Message, target) {
			return true
		}
	}
	return false
}

// TestLoadSourcesRefused: a [[sources]] entry that cannot be read is an
// error naming engram.toml, the entry and its namespace, never a partial
// build.
func TestLoadSourcesRefused(t *testing.T) {
	entry := func(ns, path string) string {
		return "[[sources]]\nnamespace = \"" + ns + "\"\npath = \"" + path + "\"\n"
	}
	for _, c := range []struct{ name, toml, want string }{
		{"the repository itself", entry("me", "."), `[[sources]] 1 (namespace "me"): path "." is this repository itself`},
		{"itself by another path", entry("me", "../main/"), "is this repository itself"},
		{"the same path twice", entry("ai", "../ai") + entry("bis", "../ai/."), `[[sources]] 2 (namespace "bis"): path "../ai/." is the directory of [[sources]] 1 (namespace "ai") too`},
		{"a folder that holds the repository", entry("up", ".."), `[[sources]] 1 (namespace "up"): path ".." holds this repository`},
		{"one source inside another", entry("ai", "../ai") + entry("notes", "../ai/notes"), `[[sources]] 2 (namespace "notes"): path "../ai/notes" and [[sources]] 1 (namespace "ai") are one inside the other`},
		{"missing", entry("gone", "../gone"), `[[sources]] 1 (namespace "gone"): path "../gone": no such directory`},
		{"not a directory", entry("file", "../ai/notes/concept-x.md"), "not a directory"},
		{"same namespace", entry("ai", "../ai") + entry("ai", "../other"), "namespace \"ai\" is already"},
		{"bad namespace", entry("A I", "../ai"), "lower-case word"},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo := fedRepos(t, c.toml, aiRepo)
			_, err := indexer.Load(context.Background(), indexer.Options{Repo: repo})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "engram.toml") {
				t.Errorf("error %v; want one naming engram.toml and holding %q", err, c.want)
			}
		})
	}
	t.Run("unreadable", func(t *testing.T) {
		if os.Getuid() == 0 {
			t.Skip("root reads every directory")
		}
		repo := fedRepos(t, entry("ai", "../ai"), aiRepo)
		dir := filepath.Join(filepath.Dir(repo), "ai")
		if err := os.Chmod(dir, 0); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(dir, 0o755)
		_, err := indexer.Load(context.Background(), indexer.Options{Repo: repo})
		if err == nil || !strings.Contains(err.Error(), "unreadable") {
			t.Errorf("error %v; want unreadable", err)
		}
	})
}

// TestBuildSourceSecret: a secret in a source's file refuses the build as
// one in the repository's own does, and is named at the source's path.
func TestBuildSourceSecret(t *testing.T) {
	k := secretstest.Kinds(31)[0]
	ai := map[string]string{"episodes/leak.md": "---\ntitle: EPISODE-2026-01-02-session-01\noutcome: success\ntask: t\n---\n\n" + k.Line + "\n"}
	repo := fedRepos(t, fedToml, ai)
	r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: filepath.Join(t.TempDir(), "public"), CacheDir: t.TempDir()})
	if !errors.Is(err, indexer.ErrRefused) {
		t.Fatalf("err %v; want refused", err)
	}
	if secretstest.Holds([]byte(err.Error()), k.Secret) {
		t.Error("the error quotes the secret")
	}
	if r == nil || !hasRule(r.Diagnostics, "../ai/episodes/leak.md", "secret") {
		t.Errorf("no secret diagnostic at the source's file")
	}
}

func hasRule(diags []note.Diagnostic, path, rule string) bool {
	for _, d := range diags {
		if d.Path == path && d.Rule == rule {
			return true
		}
	}
	return false
}

// TestLoadSourcesDeterministic: the order engram.toml lists the sources
// in does not matter: two loads, the sources listed in either order,
// publish the same API files, byte for byte (the pages render from
// them).
func TestLoadSourcesDeterministic(t *testing.T) {
	bi := map[string]string{"episodes/b.md": "---\ntitle: EPISODE-2026-01-03-session-01\noutcome: success\ntask: Flaky test again\n---\n\n## Lessons Learned\n\n- Quarantine a flaky test before retrying it.\n\n[[ai:EPISODE-2026-01-01-session-01]]\n"}
	entry := func(ns string) string { return "[[sources]]\nnamespace = \"" + ns + "\"\npath = \"../" + ns + "\"\n" }
	repo := fedRepos(t, "", aiRepo)
	writeTree(t, filepath.Join(filepath.Dir(repo), "bi"), bi)
	var files [2]map[string][]byte
	for i, toml := range []string{entry("ai") + entry("bi"), entry("bi") + entry("ai")} {
		writeFile(t, filepath.Join(repo, "engram.toml"), toml)
		l, err := indexer.Load(context.Background(), indexer.Options{Repo: repo})
		if err != nil {
			t.Fatal(err)
		}
		fs, err := export.Documents(l.Export).Files()
		if err != nil {
			t.Fatal(err)
		}
		files[i] = map[string][]byte{}
		for _, f := range fs {
			files[i][f.Path] = f.Data
		}
	}
	if len(files[0]) != len(files[1]) {
		t.Fatalf("%d files, then %d", len(files[0]), len(files[1]))
	}
	for p, data := range files[0] {
		if string(files[1][p]) != string(data) {
			t.Errorf("%s differs", p)
		}
	}
	if _, ok := files[0]["api/v1/episodes/bi--episode-2026-01-03-session-01.json"]; !ok {
		t.Error("the second source's episode is not published")
	}
}

// TestSnapshotSourceMoved: a query after a source changed reads it again.
func TestSnapshotSourceMoved(t *testing.T) {
	repo := fedRepos(t, fedToml, aiRepo)
	opt := indexer.Options{Repo: repo, Out: filepath.Join(t.TempDir(), "public"), CacheDir: t.TempDir()}
	ctx := context.Background()
	if _, _, err := indexer.Snapshot(ctx, opt, store.PartEpisodes); err != nil {
		t.Fatal(err)
	}
	if _, info, err := indexer.Snapshot(ctx, opt, store.PartEpisodes); err != nil || info.Refreshed {
		t.Fatalf("a second query: %v, refreshed %v; want it from the cache", err, info.Refreshed)
	}
	writeFile(t, filepath.Join(filepath.Dir(repo), "ai", "memory", "eps", "two.md"), "---\ntitle: EPISODE-2026-01-04-session-01\noutcome: success\ntask: New\n---\n")
	snap, info, err := indexer.Snapshot(ctx, opt, store.PartEpisodes)
	if err != nil || !info.Refreshed {
		t.Fatalf("a query after the source moved: %v, refreshed %v", err, info.Refreshed)
	}
	found := false
	for _, e := range snap.Episodes {
		found = found || e.ID == "ai:EPISODE-2026-01-04-session-01"
	}
	if !found {
		t.Error("the query does not answer the source's new episode")
	}
}
