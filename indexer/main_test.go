package indexer

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// buildInProcessEnv, set to a repository, makes this test binary build
// it into buildOutEnv and exit instead of testing: a build in a process
// of its own (TestBuildAcrossProcesses), without a go build of the
// command.
const (
	buildInProcessEnv = "ENGRAM_TEST_BUILD"
	buildOutEnv       = "ENGRAM_TEST_BUILD_OUT"
)

// TestMain points the user's cache directory (os.UserCacheDir, where the
// query cache goes when a build names none) at a temporary directory:
// builds in tests never write to the user's cache.
func TestMain(m *testing.M) {
	cache, err := os.MkdirTemp("", "engram-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := 0
	if repo := os.Getenv(buildInProcessEnv); repo != "" {
		code = buildJob(repo, os.Getenv(buildOutEnv), cache)
	} else {
		code = m.Run()
	}
	os.RemoveAll(cache)
	os.Exit(code)
}

// buildJob builds repo into out, as buildInProcessEnv asks.
func buildJob(repo, out, cache string) int {
	if _, err := Build(context.Background(), Options{Repo: repo, Out: out, CacheDir: cache}); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		return 1
	}
	return 0
}
