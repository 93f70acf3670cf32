package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/secrets/secretstest"
	"github.com/engramhq/engram/indexer/source"
)

func TestMain(m *testing.M) {
	// The query cache of in-process tests goes to a temporary directory,
	// never the user's; scripts get their own (see TestScripts). A
	// script's engram is this binary run again under the name "engram":
	// it keeps its script's cache, so that a query after a build finds
	// the cache warm, as a user's does.
	var cache string
	if filepath.Base(os.Args[0]) != "engram" {
		var err error
		if cache, err = os.MkdirTemp("", "engram-test-cache-"); err != nil {
			panic(err)
		}
		os.Setenv(cacheEnv, cache)
	}
	testscript.Main(cleanup{m, cache}, map[string]func(){"engram": main})
}

// cleanup removes dir after the tests: testscript.Main exits the process.
type cleanup struct {
	m   *testing.M
	dir string
}

func (c cleanup) Run() int {
	if c.dir != "" {
		defer os.RemoveAll(c.dir)
	}
	return c.m.Run()
}

// TestScripts runs the CLI end to end: testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv(cacheEnv, filepath.Join(env.WorkDir, ".cache"))
			// A credential made at run time: the scripts never hold one.
			k := secretstest.Kinds(5)[9]
			env.Setenv("SECRET_LINE", k.Line)
			env.Setenv("SECRET", k.Secret)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"commit": cmdCommit,
			"stage":  cmdStage,
		},
	})
}

// cmdCommit commits every file under a directory to a git repository
// there: commit DIR RFC3339-TIME.
func cmdCommit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: commit DIR TIME")
	}
	dir := ts.MkAbs(args[0])
	when, err := time.Parse(time.RFC3339, args[1])
	ts.Check(err)
	files := map[string][]byte{}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.Name() == ".git" {
				return filepath.SkipDir
			}
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	ts.Check(err)
	ts.Check(source.WriteRepo(dir, []source.Commit{{Files: files, When: when, Message: "commit " + args[1]}}))
}

// cmdStage stages files as `git add` does, without committing:
// stage REPO PATH...
func cmdStage(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: stage REPO PATH...")
	}
	ts.Check(source.Stage(ts.MkAbs(args[0]), args[1:]...))
}

// TestExitCodes checks the exit codes of SPEC §5 in-process.
func TestExitCodes(t *testing.T) {
	repo := t.TempDir()
	bad := "---\ntitle: EPISODE-bad\noutcome: maybe\ntask: t\n---\n"
	good := "---\ntitle: EPISODE-good\noutcome: success\ntask: t\ndate: 2026-01-01\n---\n"
	err := source.WriteRepo(repo, []source.Commit{{When: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC),
		Files: map[string][]byte{"episodes/bad.md": []byte(bad), "episodes/good.md": []byte(good)}}})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"build with an error diagnostic", []string{"build", "--repo", repo, "--out", out}, exitOK},
		{"build --strict with an error diagnostic", []string{"build", "--repo", repo, "--out", out, "--strict"}, exitFail},
		{"check", []string{"check", "--repo", repo}, exitOK},
		{"check --strict", []string{"check", "--repo", repo, "--strict"}, exitFail},
		{"missing repository", []string{"build", "--repo", filepath.Join(repo, "nope"), "--out", out}, exitFail},
		{"no command", nil, exitUsage},
		{"unknown command", []string{"frobnicate"}, exitUsage},
		{"unknown flag", []string{"build", "--frob"}, exitUsage},
		{"bad --now", []string{"build", "--repo", repo, "--now", "yesterday"}, exitUsage},
		{"extra argument", []string{"check", "--repo", repo, "extra"}, exitUsage},
		{"bad --format", []string{"check", "--repo", repo, "--format", "xml"}, exitUsage},
		{"version", []string{"version"}, exitOK},
		{"episodes", []string{"episodes", "--repo", repo}, exitOK},
		{"decisions of an unknown episode", []string{"decisions", "--repo", repo, "EPISODE-nope"}, exitFail},
		{"path between unknown notes", []string{"path", "--repo", repo, "A", "B"}, exitFail},
		{"path with one argument", []string{"path", "--repo", repo, "A"}, exitUsage},
		{"path with --max-depth 0", []string{"path", "--repo", repo, "A", "B", "--max-depth", "0"}, exitUsage},
		{"whatif without --decision", []string{"whatif", "--repo", repo, "--episode", "EPISODE-good"}, exitUsage},
		{"episodes with a bad --since", []string{"episodes", "--repo", repo, "--since", "soon"}, exitUsage},
		{"antipatterns of a missing repository", []string{"antipatterns", "--repo", filepath.Join(repo, "nope")}, exitFail},
		{"search", []string{"search", "--repo", repo, "good"}, exitOK},
		{"search for nothing", []string{"search", "--repo", repo, ""}, exitOK},
		{"search without a query", []string{"search", "--repo", repo}, exitUsage},
		{"search with a bad --type", []string{"search", "--repo", repo, "x", "--type", "all"}, exitUsage},
		{"search of a missing repository", []string{"search", "--repo", filepath.Join(repo, "nope"), "x"}, exitFail},
		{"similar to an episode", []string{"similar", "--repo", repo, "--episode", "EPISODE-good"}, exitOK},
		{"similar to an unknown episode", []string{"similar", "--repo", repo, "--episode", "EPISODE-nope"}, exitFail},
		{"similar to nothing", []string{"similar", "--repo", repo}, exitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := run(context.Background(), tc.args, &stdout, &stderr); got != tc.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", got, tc.want, stdout.String(), stderr.String())
			}
			if strings.Contains(stderr.String(), "goroutine ") {
				t.Errorf("stack trace on stderr:\n%s", stderr.String())
			}
		})
	}
}

func TestGithubAnnotation(t *testing.T) {
	d := note.Diagnostic{Path: "notes/a,b.md", Line: 3, Col: 7, Severity: note.Error, Message: "bad: value\nnext", Rule: "rule-x"}
	want := "::error file=notes/a%2Cb.md,line=3,col=7,title=rule-x::bad: value%0Anext [rule-x]"
	if got := githubAnnotation(d); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
