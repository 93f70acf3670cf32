// Package site is engram's last stage: it renders the export documents as
// a Hugo site, with Hugo embedded as a library and the templates embedded
// in the binary. Hugo sees only content that engram generated (SPEC §6).
// It is the only package that imports Hugo.
//
// Here are the Hugo driver (hugo.go), the page kinds (page.go, then one
// page_<kind>.go each, with templates/layouts/<kind>.html) and the
// rendering of the notes' markdown (markdown.go). The charts are drawn by
// internal/chart and the graph explorer laid out by internal/graphlayout,
// which know nothing of Hugo.
package site

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/engramhq/engram/indexer/export"
)

// Options configure a render. The zero value discards Hugo's log.
type Options struct {
	Log io.Writer
	// API are the paths of the JSON API's files (export.Site.Files),
	// which are the JSON twins of the pages that show them; nil makes the
	// files again to know them. Only their paths are needed: the caller
	// that wrote the files need not keep their bytes while Hugo renders.
	API []string
	// Stage, when set, is called as each stage of the render begins:
	// "pages" (the content, charts and HTML of the notes, made in Go),
	// then "hugo" (Hugo renders them while the twins are written).
	Stage func(name string)
	// Pages, when set, holds pages earlier builds rendered: a page whose
	// key it holds is written from it, and the others are kept in it
	// (pagecache.go).
	Pages PageCache
	// PageSalt goes into every page's key with the rest: what else the
	// bytes of a kept page were checked under (the indexer's output
	// secret scanner), so that a reused page was checked the same way.
	PageSalt []byte
}

// Rendered is what a render did.
type Rendered struct {
	// Reused are the pages written from the PageCache, slash-separated
	// paths in the publish directory.
	Reused []string
}

// workDir is where the generated Hugo project lives in its in-memory file
// system; nothing is written there on disk.
const workDir = "/engram"

// Render writes the site for s into publishDir, which must be empty or
// absent. The Hugo projects (configuration, templates, generated content)
// are built in memory, one a batch of regular pages and one of the home
// and section pages (batch.go): only publishDir is written.
func Render(ctx context.Context, s *export.Site, publishDir string, opt Options) (Rendered, error) {
	api := opt.API
	if api == nil {
		files, err := s.Files()
		if err != nil {
			return Rendered{}, fmt.Errorf("render site: %w", err)
		}
		api = export.Paths(files)
	}
	stage := opt.Stage
	if stage == nil {
		stage = func(string) {}
	}
	stage("pages")
	ps, err := pages(ctx, s, newMarkdown())
	if err != nil {
		return Rendered{}, fmt.Errorf("render site: %w", err)
	}
	publishDir, err = filepath.Abs(publishDir)
	if err != nil {
		return Rendered{}, fmt.Errorf("render site: %w", err)
	}
	var r *reuse
	if opt.Pages != nil {
		r = &reuse{cache: opt.Pages, publishDir: publishDir, keep: map[string]PageKey{}}
		if r.render, err = renderKey(hugoConfig(s), s.RelativeLinks, opt.PageSalt); err != nil {
			return Rendered{}, fmt.Errorf("render site: %w", err)
		}
	}
	cs, err := contents(ctx, ps, r)
	if err != nil {
		return Rendered{}, fmt.Errorf("render site: %w", err)
	}
	log := opt.Log
	if log == nil {
		log = io.Discard
	}
	// The twins go into the folders Hugo writes the pages to: write them
	// while Hugo renders.
	stage("hugo")
	twins := make(chan error, 1)
	go func() { twins <- writeTwins(ctx, publishDir, ps, api) }()
	err = renderSites(ctx, s, cs, publishDir, log, r)
	if err := errors.Join(err, <-twins); err != nil {
		return Rendered{}, err
	}
	if r == nil {
		return Rendered{}, nil
	}
	return Rendered{Reused: r.reused}, nil
}

// writeTwins writes each page's JSON twin as index.json beside its
// index.html, the page's own list, unless the twin is an API file (the
// page's document): that is linked as the page's alternate, and
// _redirects serves it at index.json (redirects.go). A page with neither
// (the graph explorer) writes its own.
func writeTwins(ctx context.Context, publishDir string, ps []page, api []string) error {
	files := make(map[string]bool, len(api))
	for _, p := range api {
		files[p] = true
	}
	if err := os.MkdirAll(publishDir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(publishDir, redirectsFile), renderRedirects(twinRewrites(ps)), 0o644); err != nil {
		return err
	}
	for _, p := range ps {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("write the JSON twins: %w", err)
		}
		var data []byte
		switch {
		case p.api != "":
			if !files[p.api] {
				return fmt.Errorf("the JSON twin of %s: no API file %s", p.path, p.api)
			}
			continue
		case p.twin != nil:
			var err error
			if data, err = export.Encode(p.twin); err != nil {
				return fmt.Errorf("write the JSON twin of %s: %w", p.path, err)
			}
		default:
			continue
		}
		dir := filepath.Join(publishDir, filepath.FromSlash(pageDir(p.path)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("write the JSON twin of %s: %w", p.path, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "index.json"), data, 0o644); err != nil {
			return fmt.Errorf("write the JSON twin of %s: %w", p.path, err)
		}
	}
	return nil
}

// pageDir is the folder a content file's page is published in:
// episodes/x.md is episodes/x/, episodes/_index.md is episodes/.
func pageDir(contentPath string) string {
	dir, file := path.Split(contentPath)
	if file == "_index.md" {
		return strings.TrimSuffix(dir, "/")
	}
	return dir + strings.TrimSuffix(file, ".md")
}

// hugoConfig is the Hugo configuration. Hugo sees nothing of engram.toml but
// the title and base URL, quoted as TOML strings.
func hugoConfig(s *export.Site) string {
	return siteConfig(s, `"taxonomy", "term"`)
}

// batchConfig is the configuration of a batch of regular pages: the
// whole site's, but that Hugo makes no page of its own (home, sections,
// feed, sitemap, 404), which the list site makes.
func batchConfig(s *export.Site) string {
	return siteConfig(s, `"home", "section", "taxonomy", "term", "rss", "sitemap", "robotstxt", "404"`)
}

// siteConfig is the Hugo configuration with the kinds disabled.
func siteConfig(s *export.Site, disabled string) string {
	return fmt.Sprintf(`baseURL = %q
title = %q
disableKinds = [%s]
enableRobotsTXT = false
disableHugoGeneratorInject = true

# relative_links: built without a base URL, the sitemap and RSS link
# from the site's root (the pages are made relative as they are written).
[params]
relative_links = %t

# No taxonomies: /tags/ is engram's own section, its pages made by engram.
[taxonomies]

[outputs]
home = ["html", "rss"]
section = ["html"]
page = ["html"]

[security]
enableInlineShortcodes = false
[security.funcs]
getenv = []
`, s.BaseURL, s.Title, disabled, s.RelativeLinks)
}
