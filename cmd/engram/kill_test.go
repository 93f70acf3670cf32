package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
)

// TestKillMidBuild kills a real engram process while it writes its output
// and checks that the previous output is intact, byte for byte, and that
// the next build cleans up after the killed one.
func TestKillMidBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 2,000-note repository twice")
	}
	repo := t.TempDir()
	if err := source.WriteRepo(repo, gen.Generate(gen.Sized(2000)).Commits); err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	if b, err := exec.Command("engram", "build", "--repo", repo, "--out", out).CombinedOutput(); err != nil {
		t.Fatalf("first build: %v\n%s", err, b)
	}
	before := snapshot(t, out)

	cmd := exec.Command("engram", "build", "--repo", repo, "--out", out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if !waitForPartialOutput(parent, done) {
		t.Fatal("the build finished before it wrote any output aside; nothing was killed")
	}
	_ = cmd.Process.Kill()
	<-done

	after := snapshot(t, out)
	if len(after) != len(before) {
		t.Fatalf("after the kill the output has %d files, before it had %d", len(after), len(before))
	}
	for p, data := range before {
		if !bytes.Equal(after[p], data) {
			t.Fatalf("%s changed although the build was killed", p)
		}
	}
	if b, err := exec.Command("engram", "build", "--repo", repo, "--out", out).CombinedOutput(); err != nil {
		t.Fatalf("build after the kill: %v\n%s", err, b)
	}
	if left, _ := filepath.Glob(filepath.Join(parent, ".public.engram-*")); len(left) > 0 {
		t.Errorf("the killed build's directory was not cleaned up: %v", left)
	}
}

// waitForPartialOutput polls until a build directory holds files, or the
// build ends.
func waitForPartialOutput(parent string, done chan error) bool {
	for {
		select {
		case err := <-done:
			done <- err
			return false
		case <-time.After(2 * time.Millisecond):
		}
		dirs, _ := filepath.Glob(filepath.Join(parent, ".public.engram-build-*", "episodes"))
		if len(dirs) > 0 {
			return true
		}
	}
}

func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files[p], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
