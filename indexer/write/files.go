package write

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/engramhq/engram/indexer/config"
)

// File is a file to write: its slash path relative to the repository,
// and its bytes.
type File struct {
	Path string
	Data []byte
}

// RenderEpisode is the note NewEpisode writes for in, without writing
// it: its path in the repository and its bytes, parsed back. in.Date is
// required.
func RenderEpisode(in EpisodeInput) (File, error) {
	p, data, err := renderEpisode(in)
	return File{Path: p, Data: data}, err
}

// RenderPattern is the note NewPattern writes for in, without writing it.
func RenderPattern(in PatternInput) (File, error) {
	p, data, err := renderPattern(in)
	return File{Path: p, Data: data}, err
}

// Existing lists the paths of files that exist in the repository at repo
// (engram init names them all before it writes anything).
func Existing(repo string, files []File) []string {
	var out []string
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(repo, filepath.FromSlash(f.Path))); err == nil {
			out = append(out, f.Path)
		}
	}
	return out
}

// WriteFiles writes files into opt.Repo as one write (engram init). It
// refuses, writing nothing, when any of them exists, naming them all,
// unless opt.Force. Every note (*.md) must parse back with no error
// diagnostic, and engram.toml must read as a configuration with no
// unknown key. In a git repository the files are then staged, or with
// opt.Commit committed together; a failure part way puts back what was
// there.
func WriteFiles(ctx context.Context, opt WriteOptions, files []File, message string) (Written, error) {
	for _, f := range files {
		if err := checkFile(opt.Repo, f); err != nil {
			return Written{}, err
		}
	}
	t, err := begin(ctx, opt)
	if err != nil {
		return Written{}, err
	}
	if ex := Existing(opt.Repo, files); len(ex) > 0 && !opt.Force {
		err = fmt.Errorf("%s: %w; nothing was written (--force replaces them)", strings.Join(ex, ", "), fs.ErrExist)
		return t.end(err, message)
	}
	for _, f := range files {
		if opt.Force {
			t.replace(f.Path, f.Data)
		} else {
			t.create(f.Path, f.Data)
		}
	}
	return t.end(nil, message)
}

// checkFile refuses a path outside the repository or in .git, a note
// that would not parse cleanly, and an engram.toml that would not load.
func checkFile(repo string, f File) error {
	p := f.Path
	if path.Clean(p) != p || !filepath.IsLocal(filepath.FromSlash(p)) || p == ".git" || strings.HasPrefix(p, ".git/") {
		return fmt.Errorf("%q is not a path inside the repository", p)
	}
	switch {
	case strings.HasSuffix(p, ".md"):
		if err := checkFree(repo, p); err != nil {
			return err
		}
		_, err := checkNote(p, f.Data)
		return err
	case p == config.File:
		_, diags, err := config.Decode(f.Data)
		if err == nil && len(diags) > 0 {
			err = errors.New(diags[0].String())
		}
		if err != nil {
			return fmt.Errorf("%s would not load, so nothing was written: %w", p, err)
		}
	}
	return nil
}
