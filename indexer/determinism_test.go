package indexer_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
)

// buildInProcessEnv and buildOutEnv are main_test.go's: this test binary, run with it,
// builds a repository and exits.
const (
	buildInProcessEnv = "ENGRAM_TEST_BUILD"
	buildOutEnv       = "ENGRAM_TEST_BUILD_OUT"
)

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
		t.Skip("builds a 1,000-note repository three times")
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
		cmd.Env = append(os.Environ(), buildInProcessEnv+"="+repo, buildOutEnv+"="+out, "GOMAXPROCS="+procs)
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
		if diff := treeDiff(first, tree(t, out)); diff != "" {
			t.Errorf("build %d differs from build 1: %s", i+2, diff)
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
