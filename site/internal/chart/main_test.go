package chart_test

import (
	"os"
	"testing"

	"github.com/engramhq/engram/indexer"
)

// TestMain points the query cache that builds leave at a temporary
// directory, never the user's.
func TestMain(m *testing.M) {
	cache, err := os.MkdirTemp("", "engram-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv(indexer.CacheEnv, cache)
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}
