package indexer

import (
	"os"
	"testing"
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
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}
