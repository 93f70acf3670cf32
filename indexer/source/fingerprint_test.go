package source

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFingerprint: the fingerprint changes when a file is added, edited
// (size or time), or removed, when HEAD moves, and when a file is staged
// (what git tracks is what Open reads); it does not change when
// nothing did, nor for skipped files.
func TestFingerprint(t *testing.T) {
	dir := t.TempDir()
	when := time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC)
	if err := WriteRepo(dir, []Commit{{Files: map[string][]byte{"episodes/a.md": []byte("a")}, Message: "one", When: when}}); err != nil {
		t.Fatal(err)
	}
	fp := func() string {
		t.Helper()
		s, err := Fingerprint(dir, func(p string) bool { return strings.HasPrefix(p, "public/") })
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := fp()
	if again := fp(); again != first {
		t.Fatal("fingerprint changed with nothing changed")
	}
	write := func(p, data string, mtime time.Time) {
		t.Helper()
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(full, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	write("public/index.html", "output", when)
	if fp() != first {
		t.Error("a skipped file changed the fingerprint")
	}
	seen := map[string]string{first: "initial"}
	step := func(name string) {
		t.Helper()
		s := fp()
		if prev, dup := seen[s]; dup {
			t.Errorf("after %s the fingerprint is the same as after %s", name, prev)
		}
		seen[s] = name
	}
	write("episodes/b.md", "b", when)
	step("adding a file")
	write("episodes/b.md", "bb", when)
	step("growing a file")
	write("episodes/b.md", "cc", when.Add(time.Second))
	step("editing a file in place")
	if err := os.Remove(filepath.Join(dir, "episodes/a.md")); err != nil {
		t.Fatal(err)
	}
	step("removing a file")
	if err := os.Remove(filepath.Join(dir, "episodes/b.md")); err != nil {
		t.Fatal(err)
	}
	step("removing the other file")
	if err := WriteRepo(dir, []Commit{{Files: map[string][]byte{"episodes/a.md": []byte("a")}, Message: "two", When: when.Add(time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	step("a new commit")
	write("episodes/c.md", "c", when)
	step("an untracked file")
	if err := Stage(dir, "episodes/c.md"); err != nil {
		t.Fatal(err)
	}
	step("staging it")
	if _, err := Fingerprint(filepath.Join(dir, "nope"), nil); err == nil {
		t.Error("no error for a missing directory")
	}
}
