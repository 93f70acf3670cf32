package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
)

// The determinism of a whole build lives here, beside the generator
// and snapshot.sh, rather than in the indexer package, whose tests are
// long already: this one is three builds of 1,300 notes.

// buildEnv, set to a repository, makes this test binary build it into
// buildOutEnv and exit instead of testing: a build in a process of its
// own, without a go build of the command.
const (
	buildEnv    = "ENGRAM_TEST_BUILD"
	buildOutEnv = "ENGRAM_TEST_BUILD_OUT"
)

func TestMain(m *testing.M) {
	if repo := os.Getenv(buildEnv); repo != "" {
		os.Exit(buildJob(repo, os.Getenv(buildOutEnv)))
	}
	os.Exit(m.Run())
}

// buildJob builds repo into out, with a cache of its own.
func buildJob(repo, out string) int {
	cache, err := os.MkdirTemp("", "engram-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(cache)
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: cache}); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		return 1
	}
	return 0
}

// TestBuildAcrossProcesses: the same commit gives the same bytes (SPEC
// §3), every file of the output, in three builds in three processes of
// their own, on one, two and eight threads (GOMAXPROCS): what a process
// randomises (map order, hash seeds) and how parallel work is scheduled
// must not show. A generated repository of 1,000 notes, large enough
// that common words' search postings have tiers, and 300 copies of one
// episode under other titles, whose scores tie (issue 29: three builds
// of a 1,003-note commit gave three api/v1/search/t/2e.json).
func TestBuildAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1,300-note repository three times")
	}
	repo := t.TempDir()
	commits := gen.Generate(gen.Sized(1000)).Commits
	commits = append(commits, copies(300, commits[len(commits)-1].When.Add(time.Hour)))
	if err := source.WriteRepo(repo, commits); err != nil {
		t.Fatal(err)
	}
	var outs []string
	for _, procs := range []string{"1", "2", "8"} {
		out := filepath.Join(t.TempDir(), "public")
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), buildEnv+"="+repo, buildOutEnv+"="+out, "GOMAXPROCS="+procs)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build on %s threads: %v\n%s", procs, err, b)
		}
		outs = append(outs, out)
	}
	first := tree(t, outs[0])
	tiers := 0
	for p := range first {
		if strings.HasPrefix(p, "api/v1/search/t/") && strings.Contains(p, "-") {
			tiers++
		}
	}
	if tiers == 0 {
		t.Error("the search index has no tier files: the repository is too small to test them")
	}
	for i, out := range outs[1:] {
		if diff := differ(first, tree(t, out)); len(diff) > 0 {
			t.Errorf("build %d differs from build 1 in %d files: %s", i+2, len(diff), strings.Join(diff[:min(len(diff), 10)], ", "))
		}
	}
}

// copies is a commit of n episodes that differ only in the number in
// their title: an agent's template filled the same way n times. Their
// made-up words, in every field and as often as each field says, have n
// postings with the same score, which a sum in another order misses by
// a bit for some of them.
func copies(n int, when time.Time) source.Commit {
	files := map[string][]byte{}
	for i := range n {
		title := fmt.Sprintf("EPISODE-2026-01-15-zorblat-quimble-frindle-%03d", i)
		files["episodes/copies/"+title+".md"] = []byte(`---
title: ` + title + `
type: episode
outcome: success
task: Retry the zorblat quimble webhook
date: 2026-01-15
---

## Context

The zorblat webhook failed again; frindle, frindle and frindle, and quimble too, as the day before.

## Lessons Learned

- Retry the zorblat webhook with backoff, quimble quimble frindle
`)
	}
	return source.Commit{Files: files, Message: "copies", When: when}
}

// tree reads every file under dir, by slash-separated relative path.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// differ lists the paths whose bytes differ between two trees, or that
// one of them lacks, sorted.
func differ(a, b map[string][]byte) []string {
	var diff []string
	for p, data := range a {
		if other, ok := b[p]; !ok || !bytes.Equal(data, other) {
			diff = append(diff, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			diff = append(diff, p)
		}
	}
	slices.Sort(diff)
	return diff
}
