package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/source"
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
		files = append(files, indexer.File{Path: ".gitignore", Data: []byte(scaffoldGitignore)})
	}
	if ex := indexer.Existing(dir, files); len(ex) > 0 && !*force {
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
	res, err := indexer.WriteFiles(ctx, indexer.WriteOptions{Repo: dir, Force: *force}, files, "engram init")
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	printWritten(stdout, res)
	if !exact {
		fmt.Fprintf(stdout, "\nnote: this engram is a development build, not a release, so netlify.toml and %s install engram@latest; put a release there to pin it\n", workflowPath)
	}
	printNext(stdout, dir)
	return nil
}

func printNext(w io.Writer, dir string) {
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
}
