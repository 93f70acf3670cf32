package indexer

import (
	"os"
	"testing"
)

// TestMain points the query cache at a temporary directory: builds in
// tests never write to the user's cache.
func TestMain(m *testing.M) {
	cache, err := os.MkdirTemp("", "engram-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv(CacheEnv, cache)
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}
