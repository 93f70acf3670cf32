package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/write"
)

// scaffoldGitignore is the .gitignore init writes where there is none.
const scaffoldGitignore = "# The output of engram build --out public: built on every push, never committed.\npublic/\n" +
	"# engram's page store on Netlify (ENGRAM_CACHE_DIR in netlify.toml): kept between builds by the cache plugin, never committed.\n.engram-cache/\n"

// cmdInit is `engram init [DIR]`: a new memory repository that builds
// and deploys as it is (SPEC §5).
func cmdInit(ctx context.Context, args []string, stdout, _ io.Writer) error {
	flags := flag.NewFlagSet("init", flag.ContinueOnError)
	force := flags.Bool("force", false, "replace the files init writes where they exist")
	pos, err := parseArgs(flags, args, 0, "[DIR]")
	if err != nil {
		pos, err = parseArgs(flags, args, 1, "[DIR]")
	}
	if err != nil {
		return err
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	version, exact := installVersion(mainVersion())
	files, err := scaffold(version, time.Now())
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	// The build's output and the page store netlify.toml keeps in the
	// checkout stay out of git: a .gitignore that says so, unless the
	// repository has one (which init leaves as it is).
	if _, err := os.Stat(filepath.Join(dir, ".gitignore")); errors.Is(err, fs.ErrNotExist) {
		files = append(files, write.File{Path: ".gitignore", Data: []byte(scaffoldGitignore)})
	}
	top, sub, err := workflowRoot(dir)
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	wf := workflowFile(version, sub)
	if sub == "" {
		files = append(files, wf)
	}
	ex := write.Existing(dir, files)
	if sub != "" {
		for _, p := range write.Existing(top, []write.File{wf}) {
			ex = append(ex, filepath.Join(top, p))
		}
	}
	if len(ex) > 0 && !*force {
		return fmt.Errorf("init: %s already exist in %s; nothing was written (--force replaces them)", strings.Join(ex, ", "), dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	made, err := source.Init(dir)
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	if made {
		fmt.Fprintf(stdout, "made %s a git repository (branch main)\n", dir)
	}
	res, err := write.WriteFiles(ctx, write.WriteOptions{Repo: dir, Force: *force}, files, "engram init")
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	printWritten(stdout, res)
	if sub != "" {
		// GitHub runs workflows only from the top of the repository.
		res, err := write.WriteFiles(ctx, write.WriteOptions{Repo: top, Force: *force}, []write.File{wf}, "engram init")
		if err != nil {
			return fmt.Errorf("init: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s at the top of the repository, %s: GitHub runs workflows only from there; it builds the folder %s\n",
			workflowPath, top, sub)
		if res.Staged {
			fmt.Fprintln(stdout, "staged (not committed)")
		}
	}
	if !exact {
		fmt.Fprintf(stdout, "\nnote: this engram is a development build, not a release, so netlify.toml and %s install engram@latest; put a release there to pin it\n", workflowPath)
	}
	printNext(stdout, dir, sub)
	return nil
}

// workflowRoot is where the workflow of a memory repository at dir goes:
// the top of the git worktree that holds dir (or will hold it: dir may
// not exist yet), and dir's slash path from there ("" when dir is the
// top, or in no repository, where init makes one). A folder name that
// would be read as a GitHub expression or break a YAML line is refused.
func workflowRoot(dir string) (top, sub string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	existing, rest := abs, ""
	for {
		if _, err := os.Stat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return abs, "", nil
		}
		rest = path.Join(filepath.Base(existing), rest)
		existing = parent
	}
	top, sub, err = source.Worktree(existing)
	if errors.Is(err, source.ErrNotGit) {
		return abs, "", nil
	}
	if err != nil {
		return "", "", err
	}
	sub = path.Join(sub, rest)
	if sub == "." {
		sub = ""
	}
	if strings.Contains(sub, "${{") || strings.ContainsFunc(sub, unicode.IsControl) {
		return "", "", fmt.Errorf("the folder %q of the repository %s cannot be named in a GitHub workflow: rename it", sub, top)
	}
	return top, sub, nil
}

func printNext(w io.Writer, dir, sub string) {
	fmt.Fprintln(w, "\nNext:")
	if dir != "." {
		fmt.Fprintln(w, "  cd "+shellQuote(dir))
	}
	fmt.Fprintf(w, `  engram build --out public   the site and its JSON API (public/ is output, kept out of git)
  engram serve                a live preview
  engram hook install         check the notes before every git push
  git commit -m "engram init" && git push

GitHub Pages: push the repository to GitHub, then in its Settings → Pages
set Source to GitHub Actions: %s checks every
pull request and deploys every push to the default branch.
Netlify: link the repository in Netlify; netlify.toml holds the build.
`, workflowPath)
	if sub != "" {
		fmt.Fprintf(w, "(in Netlify, set the base directory to %s, where netlify.toml is)\n", sub)
	}
}
