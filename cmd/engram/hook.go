package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
)

// hookMarker is the line that says engram wrote a hook: install replaces
// only a hook that has it, unless --force.
const hookMarker = "# engram: pre-push hook written by `engram hook install`"

// cmdHook is `engram hook install`: a git pre-push hook that runs engram
// check --strict on the memory repository.
func cmdHook(_ context.Context, args []string, stdout, _ io.Writer) error {
	flags := flag.NewFlagSet("hook", flag.ContinueOnError)
	repo := flags.String("repo", "", "memory repository (default: . or ./content)")
	force := flags.Bool("force", false, "replace a pre-push hook that engram did not write")
	pos, err := parseArgs(flags, args, 1, "install")
	if err != nil {
		return err
	}
	if pos[0] != "install" {
		return fmt.Errorf("%w: hook takes install, not %q", errUsage, pos[0])
	}
	if *repo == "" {
		*repo = defaultRepo()
	}
	h, err := source.FindHooks(*repo)
	if errors.Is(err, source.ErrNotGit) {
		return fmt.Errorf("hook install: %s is in no git repository, and a hook is git's: run git init there first (or give the memory repository with --repo)", *repo)
	}
	if err != nil {
		return fmt.Errorf("hook install: %w", err)
	}
	if !inside(h.Dir, h.Top) && !inside(h.Dir, h.GitDir) {
		return fmt.Errorf("hook install: core.hooksPath is %s, outside this repository: hooks there may run for other repositories too, so engram does not write one; add this line to %s yourself:\n\n    %s",
			h.HooksPath, filepath.Join(h.Dir, "pre-push"), checkLine(h.Prefix))
	}
	file := filepath.Join(h.Dir, "pre-push")
	version, _ := installVersion(mainVersion())
	script := hookScript(h.Prefix, stableExecutable(), version)
	old, err := os.ReadFile(file)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("hook install: %w", err)
	case bytes.Equal(old, script):
		fmt.Fprintf(stdout, "%s is up to date: git push runs engram check --strict --repo %s first\n", file, repoArg(h.Prefix))
		return nil
	case !hasMarker(old) && !*force:
		return fmt.Errorf("hook install: %s exists and engram did not write it; it is left as it is. Add this line to it yourself:\n\n    %s\n\nor replace it with engram's hook: engram hook install --force", file, checkLine(h.Prefix))
	}
	if err := store.WriteFileAtomic(file, script, 0o755); err != nil {
		return fmt.Errorf("hook install: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: git push now runs engram check --strict --repo %s first, and stops on an error\n", file, repoArg(h.Prefix))
	fmt.Fprintln(stdout, "(it checks the working tree as it is; git push --no-verify skips it)")
	return nil
}

// checkLine is the line a hook of the user's own needs.
func checkLine(prefix string) string {
	return "engram check --strict --repo " + shellQuote(repoArg(prefix)) + " || exit 1"
}

// repoArg is the memory repository as git's hooks see it: relative to
// the top level, where git runs them.
func repoArg(prefix string) string {
	if prefix == "" {
		return "."
	}
	return prefix
}

// hookScript is the pre-push hook: engram from PATH, else fallback (an
// absolute path; "" for none).
func hookScript(prefix, fallback, version string) []byte {
	return []byte(strings.NewReplacer(
		"@REPO@", shellQuote(repoArg(prefix)),
		"@FALLBACK@", shellQuote(fallback),
		"@VERSION@", version,
	).Replace(scaffoldFile("pre-push.tmpl")))
}

func hasMarker(script []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(script))
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == hookMarker {
			return true
		}
	}
	return false
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// inside reports whether p is dir or inside it.
func inside(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && filepath.IsLocal(rel)
}

// stableExecutable is the path of this engram binary when a hook may
// call it later: not one that go run or go test built in a temporary
// directory or the build cache, which go clean may remove.
func stableExecutable() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	cache := os.Getenv("GOCACHE")
	if cache == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(dir, "go-build")
		}
	}
	return stablePath(exe, os.TempDir(), os.Getenv("GOTMPDIR"), cache)
}

// stablePath is exe, or "" when it is in one of the passing directories
// or in a go-build folder (go run's and go test's work directories).
func stablePath(exe string, passing ...string) string {
	for _, dir := range passing {
		if dir == "" {
			continue
		}
		if d, err := filepath.EvalSymlinks(dir); err == nil {
			dir = d
		}
		if inside(exe, dir) {
			return ""
		}
	}
	for _, part := range strings.Split(filepath.ToSlash(exe), "/") {
		if strings.HasPrefix(part, "go-build") {
			return ""
		}
	}
	return exe
}
