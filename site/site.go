// Package site is engram's last stage: it renders the export documents as
// a Hugo site, with Hugo embedded as a library and the templates embedded
// in the binary. Hugo sees only content that engram generated (SPEC §6).
// It is the only package that imports Hugo.
package site

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/spf13/afero"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/templates"
)

// Options configure a render. The zero value discards Hugo's log.
type Options struct {
	Log io.Writer
}

// workDir is where the generated Hugo project lives in its in-memory file
// system; nothing is written there on disk.
const workDir = "/engram"

// Render writes the site for s into publishDir, which must be empty or
// absent. The Hugo project (configuration, templates, generated content)
// is built in memory: only publishDir is written.
func Render(ctx context.Context, s *export.Site, publishDir string, opt Options) error {
	src := afero.NewMemMapFs()
	if err := writeProject(src, workDir, s); err != nil {
		return fmt.Errorf("render site: %w", err)
	}
	log := opt.Log
	if log == nil {
		log = io.Discard
	}
	return renderHugoFs(ctx, src, workDir, publishDir, log)
}

// writeProject writes the Hugo configuration, the embedded templates and
// the generated content into dir.
func writeProject(fsys afero.Fs, dir string, s *export.Site) error {
	if err := afero.WriteFile(fsys, path.Join(dir, "hugo.toml"), []byte(hugoConfig(s)), 0o644); err != nil {
		return err
	}
	if err := copyFS(templates.FS, fsys, dir); err != nil {
		return err
	}
	if err := writeGraphData(fsys, dir, s); err != nil {
		return err
	}
	return writePages(fsys, dir, pages(s, newMarkdown()))
}

// hugoConfig is the Hugo configuration. Hugo sees nothing of engram.toml but
// the title and base URL, quoted as TOML strings.
func hugoConfig(s *export.Site) string {
	return fmt.Sprintf(`baseURL = %q
title = %q
disableKinds = ["taxonomy", "term"]
enableRobotsTXT = false
disableHugoGeneratorInject = true

[outputs]
home = ["html", "rss"]
section = ["html", "rss"]
page = ["html"]

[security]
enableInlineShortcodes = false
[security.funcs]
getenv = []
`, s.BaseURL, s.Title)
}

// copyFS copies the embedded layouts/ and static/ trees into dir.
func copyFS(src fs.FS, dst afero.Fs, dir string) error {
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." || strings.HasSuffix(p, ".go") {
			return err
		}
		target := path.Join(dir, p)
		if d.IsDir() {
			return dst.MkdirAll(target, 0o755)
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		return afero.WriteFile(dst, target, data, 0o644)
	})
}
