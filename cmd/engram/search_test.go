package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
)

// heldOut is a generated repository no other test reads, with planted
// near-duplicate episodes.
var heldOut = gen.Options{Episodes: 400, Patterns: 50, Antipatterns: 10, BadNotes: 8, NearDuplicates: 15, Seed: 20261121}

// TestSearchMustShow (issue 5): on a held-out generated repository, the
// unique word planted in every note finds that note first, in the index
// the first query after the build makes and from the command line;
// planted near-duplicate episodes are in each other's top 3 similar, in
// the published JSON and from the command line.
func TestSearchMustShow(t *testing.T) {
	ctx := context.Background()
	corpus := gen.Generate(heldOut)
	repo, out := t.TempDir(), filepath.Join(t.TempDir(), "out")
	if err := source.WriteRepo(repo, corpus.Commits); err != nil {
		t.Fatal(err)
	}
	cli := func(args ...string) []byte {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(ctx, args, &stdout, &stderr); code != exitOK {
			t.Fatalf("engram %q: exit %d\n%s", args, code, stderr.String())
		}
		return stdout.Bytes()
	}
	cli("build", "--repo", repo, "--out", out)

	snap, info, err := indexer.Snapshot(ctx, indexer.Options{Repo: repo, CacheDir: os.Getenv(cacheEnv)}, store.PartSearch)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if !info.Refreshed {
		// A build writes no query cache (issue 30): the first query
		// after it makes the cache and the search index.
		t.Error("the first query after a build found a query cache; the build wrote one")
	}
	// A note whose front matter cannot be read is withheld as private
	// (privacy fails closed, SPEC §6): its word finds nothing.
	withheld := map[gen.Badness]bool{gen.BrokenYAML: true, gen.UnclosedFrontMatter: true, gen.ListFrontMatter: true}
	for i, n := range corpus.Notes {
		items, err := snap.Search(n.Word, "", 3, false)
		if err != nil {
			t.Fatal(err)
		}
		if withheld[n.Bad] {
			if len(items) > 0 {
				t.Errorf("search %s finds %v, but %s is withheld", n.Word, items, n.Path)
			}
			continue
		}
		if len(items) == 0 || items[0].ID != n.Title {
			t.Errorf("search %s: %v, want %s (%s) first", n.Word, items, n.Title, n.Path)
		}
		if i%40 == 0 { // and some of them as a user does
			var list export.List[query.SearchItem]
			if err := json.Unmarshal(cli("search", "--repo", repo, n.Word, "--json"), &list); err != nil {
				t.Fatal(err)
			}
			if len(list.Items) == 0 || list.Items[0].ID != n.Title {
				t.Errorf("engram search %s: %v, want %s first", n.Word, list.Items, n.Title)
			}
		}
	}

	published := publishedSimilar(t, out)
	pairs := 0
	for _, e := range corpus.Episodes() {
		if e.Twin == "" {
			continue
		}
		pairs++
		if got := published[e.Title]; !slices.Contains(got, e.Twin) {
			t.Errorf("%s: similar %q, want its near-duplicate %s in the top 3", e.Title, got, e.Twin)
		}
		var list export.List[query.SearchItem]
		if err := json.Unmarshal(cli("similar", "--repo", repo, "--episode", e.Title, "--limit", "3", "--json"), &list); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, it := range list.Items {
			ids = append(ids, it.ID)
		}
		if !slices.Equal(ids, published[e.Title]) {
			t.Errorf("engram similar --episode %s: %q, the episode's JSON has %q", e.Title, ids, published[e.Title])
		}
	}
	if pairs != 2*heldOut.NearDuplicates {
		t.Errorf("%d episodes in near-duplicate pairs, want %d", pairs, 2*heldOut.NearDuplicates)
	}
}

// publishedSimilar reads the top 3 similar episodes of every episode
// from its JSON file.
func publishedSimilar(t *testing.T, out string) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(out, "api", "v1", "episodes", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var e export.Episode
		if err := json.Unmarshal(data, &e); err != nil {
			t.Fatal(err)
		}
		if e.Similar == nil {
			t.Errorf("%s: similar is null", f)
		}
		for _, s := range e.Similar[:min(3, len(e.Similar))] {
			m[e.ID] = append(m[e.ID], s.ID)
		}
	}
	return m
}
