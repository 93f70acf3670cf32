package source

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Hooks is where git runs the hooks of the repository holding a memory
// repository (engram hook install).
type Hooks struct {
	// Dir is the hooks directory: core.hooksPath, or the hooks folder of
	// the (common) git directory.
	Dir string
	// Top is the worktree's top level: git runs hooks from there.
	Top string
	// GitDir is the common git directory (a linked worktree shares it).
	GitDir string
	// Prefix is the memory repository's slash path relative to Top, ""
	// when it is the top level.
	Prefix string
	// HooksPath is core.hooksPath as configured, "" when it is not.
	HooksPath string
}

// FindHooks says where git runs the hooks of the repository holding the
// memory repository at dir; ErrNotGit when dir is in no git repository.
// core.hooksPath is read from the repository's config, then the user's
// (~/.gitconfig, $XDG_CONFIG_HOME/git/config), then /etc/gitconfig: the
// first that sets it wins, as in git. A relative one is relative to the
// top level, where git runs hooks; ~/ is the home directory.
func FindHooks(dir string) (Hooks, error) {
	root, err := resolveDir(dir)
	if err != nil {
		return Hooks{}, err
	}
	r, prefix, err := openGit(root)
	if err != nil {
		return Hooks{}, fmt.Errorf("open repository %s: %w", dir, err)
	}
	if r == nil {
		return Hooks{}, fmt.Errorf("%s: %w", dir, ErrNotGit)
	}
	top, err := worktreeTop(r)
	if err != nil {
		return Hooks{}, fmt.Errorf("open repository %s: %w", dir, err)
	}
	fsys, ok := r.Storer.(*filesystem.Storage)
	if !ok {
		return Hooks{}, fmt.Errorf("open repository %s: not on disk", dir)
	}
	h := Hooks{Top: top, GitDir: commonDir(fsys.Filesystem().Root()), Prefix: prefix}
	h.Dir = filepath.Join(h.GitDir, "hooks")
	if h.HooksPath, err = hooksPath(r); err != nil {
		return Hooks{}, err
	}
	if p := h.HooksPath; p != "" {
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			home, err := os.UserHomeDir()
			if err != nil {
				return Hooks{}, fmt.Errorf("core.hooksPath %s: %w", p, err)
			}
			p = filepath.Join(home, rest)
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(top, p)
		}
		h.Dir = filepath.Clean(p)
	}
	return h, nil
}

// commonDir is the git directory that a linked worktree's own git
// directory points to with its commondir file (hooks and config are
// there); gitDir itself for a main worktree.
func commonDir(gitDir string) string {
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	p := strings.TrimSpace(string(data))
	if !filepath.IsAbs(p) {
		p = filepath.Join(gitDir, p)
	}
	return filepath.Clean(p)
}

// hooksPath is core.hooksPath from the most local config that sets it.
func hooksPath(r *git.Repository) (string, error) {
	local, err := r.Config()
	if err != nil {
		return "", fmt.Errorf("read git config: %w", err)
	}
	if p := local.Raw.Section("core").Options.Get("hooksPath"); p != "" {
		return p, nil
	}
	for _, scope := range []config.Scope{config.GlobalScope, config.SystemScope} {
		c, err := config.LoadConfig(scope)
		if err != nil {
			return "", fmt.Errorf("read git config: %w", err)
		}
		if p := c.Raw.Section("core").Options.Get("hooksPath"); p != "" {
			return p, nil
		}
	}
	return "", nil
}

// Init makes dir a git repository, with main as its branch, unless it is
// in one already (at its top, or in a folder of it). It reports whether
// it made one.
func Init(dir string) (bool, error) {
	root, err := resolveDir(dir)
	if err != nil {
		return false, err
	}
	r, _, err := openGit(root)
	if err != nil {
		return false, fmt.Errorf("open repository %s: %w", dir, err)
	}
	if r != nil {
		return false, nil
	}
	_, err = git.PlainInitWithOptions(root, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil && !errors.Is(err, git.ErrRepositoryAlreadyExists) {
		return false, fmt.Errorf("git init %s: %w", dir, err)
	}
	return err == nil, nil
}

// Worktree returns the top level of the git worktree holding dir, and
// dir's slash path relative to it ("" at the top); ErrNotGit when dir is
// in no git repository. GitHub reads workflows only from the top level's
// .github folder, and names the files of annotations from there.
func Worktree(dir string) (top, prefix string, err error) {
	root, err := resolveDir(dir)
	if err != nil {
		return "", "", err
	}
	r, prefix, err := openGit(root)
	if err != nil {
		return "", "", fmt.Errorf("open repository %s: %w", dir, err)
	}
	if r == nil {
		return "", "", fmt.Errorf("%s: %w", dir, ErrNotGit)
	}
	top, err = worktreeTop(r)
	if err != nil {
		return "", "", fmt.Errorf("open repository %s: %w", dir, err)
	}
	return top, prefix, nil
}

// worktreeTop is the top level of r's worktree, symlinks resolved.
func worktreeTop(r *git.Repository) (string, error) {
	wt, err := r.Worktree()
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(wt.Filesystem.Root())
}
