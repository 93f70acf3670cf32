package main

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
)

// generatedRepo writes a generated repository of about notes notes
// (gen.Sized) into dir and returns dir.
func generatedRepo(t *testing.T, dir string, notes int) string {
	t.Helper()
	if err := source.WriteRepo(dir, gen.Generate(gen.Sized(notes)).Commits); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestOutRefused points --out at what a build must never replace (SPEC §6):
// each is refused before anything is touched, with a message naming it.
func TestOutRefused(t *testing.T) {
	base := t.TempDir()
	repo := generatedRepo(t, filepath.Join(base, "repo"), 20)
	// Uncommitted work in the repository must survive too.
	mustWrite(t, filepath.Join(repo, "draft.md"), "uncommitted work")
	docs := filepath.Join(base, "docs")
	mustWrite(t, filepath.Join(docs, "thesis.txt"), "a user's document")
	file := filepath.Join(base, "notes.txt")
	mustWrite(t, file, "a user's file")
	link := filepath.Join(base, "link")
	if err := os.Symlink(docs, link); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(base, "bare")
	mustWrite(t, filepath.Join(bare, ".git", "HEAD"), "ref: refs/heads/main\n")

	tests := []struct {
		name, dir, out, want string
	}{
		{"the repository", base, repo, "it is the repository"},
		{"dot inside the repository", repo, ".", "it is the repository"},
		{"a folder around the repository", repo, base, "it is the repository, or holds it"},
		{"a folder with a user's document", base, docs, "no engram manifest"},
		{"a file", base, file, "it is a file"},
		{"a symbolic link", base, link, "symbolic link"},
		{"another git repository", base, bare, "git repository"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshotRel(t, base)
			cmd := exec.Command("engram", "build", "--repo", repo, "--out", tt.out)
			cmd.Dir = tt.dir
			b, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the build was not refused:\n%s", b)
			}
			if !strings.Contains(string(b), "refusing to write the output") || !strings.Contains(string(b), tt.want) {
				t.Errorf("message = %s, want %q", b, tt.want)
			}
			sameTree(t, before, snapshotRel(t, base))
		})
	}

	t.Run("empty, missing and an earlier output are fine", func(t *testing.T) {
		empty := filepath.Join(base, "empty")
		if err := os.Mkdir(empty, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, out := range []string{empty, filepath.Join(base, "missing", "public"), empty} {
			if b, err := exec.Command("engram", "build", "--repo", repo, "--out", out).CombinedOutput(); err != nil {
				t.Fatalf("build into %s: %v\n%s", out, err, b)
			}
		}
	})
}

// TestConcurrentBuilds starts two builds into one output at once: the
// second waits for the first, both finish, and the output is complete.
// The builds claim the output before they read anything, so the size
// of the repository does not matter to the race: 100 notes, three
// trials (300 notes and five took 100 of the package's seconds).
func TestConcurrentBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 100-note repository seven times")
	}
	repo := generatedRepo(t, t.TempDir(), 100)
	ref := filepath.Join(t.TempDir(), "public")
	if b, err := exec.Command("engram", "build", "--repo", repo, "--out", ref).CombinedOutput(); err != nil {
		t.Fatalf("reference build: %v\n%s", err, b)
	}
	want := snapshotRel(t, ref)
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	for trial := range 3 {
		var wg sync.WaitGroup
		logs := make([][]byte, 2)
		errs := make([]error, 2)
		for i := range 2 {
			wg.Go(func() {
				logs[i], errs[i] = exec.Command("engram", "build", "--repo", repo, "--out", out).CombinedOutput()
			})
		}
		wg.Wait()
		for i := range 2 {
			if errs[i] != nil {
				t.Fatalf("trial %d, build %d: %v\n%s", trial, i, errs[i], logs[i])
			}
		}
		sameTree(t, want, snapshotRel(t, out))
		noStaging(t, parent)
	}
}

// TestInterruptedBuilds sends SIGINT or SIGTERM to a build at random
// points: the build exits non-zero with the previous output intact, or, if
// the signal came after the new output was swapped in, that output is the
// complete new one; no staging folder is ever left.
func TestInterruptedBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("interrupts twenty builds")
	}
	c := gen.Generate(gen.Sized(150))
	repo := t.TempDir()
	last := len(c.Commits) - 1
	if err := source.WriteRepo(repo, c.Commits[:last]); err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	if b, err := exec.Command("engram", "build", "--repo", repo, "--out", out).CombinedOutput(); err != nil {
		t.Fatalf("first build: %v\n%s", err, b)
	}
	old := snapshotRel(t, out)
	if err := source.WriteRepo(repo, c.Commits[last:]); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(t.TempDir(), "public")
	began := time.Now()
	if b, err := exec.Command("engram", "build", "--repo", repo, "--out", ref).CombinedOutput(); err != nil {
		t.Fatalf("reference build: %v\n%s", err, b)
	}
	took := time.Since(began)
	updated := snapshotRel(t, ref)

	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 13))
	t.Logf("seed %d; a build takes %v", seed, took)
	interrupted, slowest := 0, time.Duration(0)
	for run := range 20 {
		sig := []os.Signal{os.Interrupt, syscall.SIGTERM}[run%2]
		delay := time.Duration(rng.Int64N(int64(took)))
		cmd := exec.Command("engram", "build", "--repo", repo, "--out", out)
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		_ = cmd.Process.Signal(sig)
		signalled := time.Now()
		err := cmd.Wait()
		slowest = max(slowest, time.Since(signalled))
		got := snapshotRel(t, out)
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			// A non-zero exit, or death by the signal itself when it came
			// before engram installed its handler (nothing was written).
			interrupted++
			if !equalTree(old, got) && !equalTree(updated, got) {
				t.Fatalf("run %d (%v after %v): exit %d and the output is neither the previous one nor the new one\n%s", run, sig, delay, exit.ExitCode(), log.String())
			}
		case err == nil:
			// The signal came after the build ended.
			sameTree(t, updated, got)
		default:
			t.Fatalf("run %d (%v after %v): %v\n%s", run, sig, delay, err, log.String())
		}
		noStaging(t, parent)
		if equalTree(updated, got) {
			// Start the next run from the previous output again.
			restore(t, out, old)
		}
	}
	if interrupted == 0 {
		t.Errorf("no build of 20 was interrupted: every signal came too late")
	}
	t.Logf("%d of 20 builds interrupted; the slowest took %v to stop", interrupted, slowest)
}

func mustWrite(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// snapshotRel reads every file under dir, keyed by its path relative to
// dir; a symbolic link is recorded as its target, never followed.
func snapshotRel(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		r, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			files[r] = []byte("-> " + target)
			return err
		}
		files[r], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func equalTree(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for p, data := range a {
		if d, ok := b[p]; !ok || !bytes.Equal(d, data) {
			return false
		}
	}
	return true
}

func sameTree(t *testing.T, want, got map[string][]byte) {
	t.Helper()
	if equalTree(want, got) {
		return
	}
	var diff []string
	for p, data := range want {
		if d, ok := got[p]; !ok {
			diff = append(diff, "missing "+p)
		} else if !bytes.Equal(d, data) {
			diff = append(diff, "changed "+p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			diff = append(diff, "new "+p)
		}
	}
	t.Fatalf("the tree differs (%d files): %s", len(diff), strings.Join(diff[:min(len(diff), 10)], ", "))
}

func noStaging(t *testing.T, parent string) {
	t.Helper()
	if left, _ := filepath.Glob(filepath.Join(parent, ".public.engram-*")); len(left) > 0 {
		t.Fatalf("staging left behind: %v", left)
	}
}

// restore writes the files of snap into a fresh dir in place of out.
func restore(t *testing.T, out string, snap map[string][]byte) {
	t.Helper()
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}
	for p, data := range snap {
		mustWrite(t, filepath.Join(out, p), string(data))
	}
}
