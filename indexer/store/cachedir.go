package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// CacheDir is the cache directory of one repository: under override, or
// the user's cache directory, or the temporary directory.
func CacheDir(repo, override string) (string, error) {
	abs, err := filepath.Abs(repo)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	base := override
	if base == "" {
		if d, err := os.UserCacheDir(); err == nil {
			base = filepath.Join(d, "engram")
		} else {
			base = filepath.Join(os.TempDir(), fmt.Sprintf("engram-cache-%d", os.Getuid()))
		}
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(base, hex.EncodeToString(sum[:8])), nil
}
