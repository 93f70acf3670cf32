//go:build unix

package source

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

func TestOpenSpecialAndUnreadable(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, "a.md", "locked/b.md")
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	want := []string{"pipe source-special"}
	if os.Geteuid() != 0 { // root reads every directory
		if err := os.Chmod(filepath.Join(dir, "locked"), 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(filepath.Join(dir, "locked"), 0o755) })
		want = []string{"locked source-unreadable", "pipe source-special"}
	}
	repo, diags := mustOpen(t, dir)
	if got := rules(diags); !slices.Equal(got, want) {
		t.Errorf("diags = %v, want %v", got, want)
	}
	if got := paths(repo); !slices.Contains(got, "a.md") || slices.Contains(got, "pipe") {
		t.Errorf("files = %v", got)
	}
}
