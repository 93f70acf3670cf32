package site

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/afero"
	"golang.org/x/sync/errgroup"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/templates"
)

// Hugo renders in bounded batches (issue 30). What one Hugo site holds
// grows with its pages (their front matter parsed, their output in
// flight, its page lists and caches): one site of every page peaked at
// 13.5 GB at 100,000 notes. So the regular pages (a note's, a tag's, a
// month's...: every page whose content file is not an _index.md), which
// show only their own front matter (pagecache.go), are rendered
// pageBatch at a time, each batch its own Hugo site over the same
// templates, released before the next; then one more site renders the
// home and section pages, the sitemap, the feed and the 404 page.
//
// What Hugo computes across pages must come out as from one site: the
// lists (.Pages, site.GetPage), the sitemap and the RSS feed. The list
// site therefore holds every regular page as a stub: its title, dates
// and the few fields the list templates show of it (listedParams), given
// to Hugo with build.render = "link", so that it is listed, sorted and
// linked as before but not rendered. A stub is a few hundred bytes where
// the page's content file is kilobytes.

// pageBatch is how many regular pages one Hugo site renders at most.
// Measured at 2,000 and 20,000 notes (BENCHMARKS.md, "Hugo in batches"):
// below about 1,000 a batch's fixed cost (configuration, templates) shows
// in the time; above, the peak grows with the batch and the time does not
// fall.
const pageBatch = 2000

// batchSize is pageBatch, which tests lower to make many batches of few
// pages.
var batchSize = pageBatch

// content is one content file of the Hugo project.
type content struct {
	path string // relative to content/
	// data is the content file; nil for a regular page written from the
	// page store, which no batch need render (its stub lists it).
	data []byte
	// stub is what the list site holds of a regular page (nil for the
	// others, which it holds whole).
	stub []byte
}

// regular tells a regular page's content file from a home or section
// page's (_index.md).
func regular(contentPath string) bool {
	return path.Base(contentPath) != "_index.md"
}

// contents encodes the content files of ps, letting go of each page's
// params once encoded (the HTML made for them need not stay in memory
// while Hugo renders). r, when set, is the page store's part: a page of a
// kind that shows only itself is looked up by its key (reuse.page) and,
// found, written from the store.
func contents(ctx context.Context, ps []page, r *reuse) ([]content, error) {
	cs := make([]content, len(ps))
	errs := make([]error, len(ps))
	// Most of a rebuild's pages come from the store, and writing them is
	// file system calls (a folder and a file each) more than CPU: they
	// go out from several goroutines at once. Each result has its page's
	// index, so the order (and the error reported) is the pages'
	// whatever finishes first.
	var g errgroup.Group
	g.SetLimit(contentWorkers)
	for i := range ps {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			cs[i], errs[i] = contentOf(ps[i], r)
			ps[i].params = nil
			return nil
		})
	}
	_ = g.Wait() // each page's error is in errs
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("write page %s: %w", ps[i].path, err)
		}
	}
	if r != nil {
		slices.Sort(r.reused)
	}
	return cs, nil
}

// contentWorkers is how many pages contents makes at once: more than the
// cores, since a page written from the store waits on the file system.
var contentWorkers = max(4, 2*runtime.GOMAXPROCS(0))

// contentOf is p's content file, and its stub when p is a regular page.
func contentOf(p page, r *reuse) (content, error) {
	fm := frontMatter{Title: p.title, LinkTitle: p.linkTitle, Description: p.description, Date: p.date, Lastmod: p.lastmod, Outputs: p.outputs, Layout: p.kind, Twin: p.api, Params: p.params, Heads: p.heads}
	data, err := json.Marshal(fm)
	if err != nil {
		return content{}, err
	}
	c := content{path: p.path, data: data}
	if regular(p.path) && p.list {
		// A batch holds no other page for it to show.
		return content{}, fmt.Errorf("a %s page shows other pages, so it must be a section's _index.md, not a regular page rendered in a batch", p.kind)
	}
	if regular(p.path) {
		stub := frontMatter{Title: p.title, LinkTitle: p.linkTitle, Date: p.date, Lastmod: p.lastmod, Layout: p.kind, Params: listedParams(p.params), Build: &buildOptions{Render: "link"}}
		if c.stub, err = json.Marshal(stub); err != nil {
			return content{}, err
		}
	}
	if r == nil || p.list {
		return c, nil
	}
	found, err := r.page(p.path, data)
	if err != nil || !found {
		return c, err
	}
	if regular(p.path) {
		c.data = nil
		return c, nil
	}
	fm.Build = &buildOptions{Render: "link"}
	c.data, err = json.Marshal(fm)
	return c, err
}

// lister is the params of a kind whose pages the list templates show
// (home.html, episodes.html, patterns.html, notes.html, antipatterns.html,
// rss.xml): listed is what they read of a page, keyed as in the page's
// own params, so a stub's values are the page's (TestListedParams).
type lister interface{ listed() any }

// listedParams is what a stub carries of params: what the list templates
// read, or nothing for a kind they do not list.
func listedParams(params any) any {
	if l, ok := params.(lister); ok {
		return l.listed()
	}
	return struct{}{}
}

// renderSites renders cs into publishDir: the regular pages batchSize at
// a time, each batch its own Hugo site, then the list site. It stops
// between sites when ctx ends (and within one, renderHugoFs).
func renderSites(ctx context.Context, s *export.Site, cs []content, publishDir string, log io.Writer, r *reuse) error {
	batch := make([]int, 0, batchSize)
	for i := range cs {
		if !regular(cs[i].path) || cs[i].data == nil {
			continue
		}
		if batch = append(batch, i); len(batch) < batchSize {
			continue
		}
		if err := renderBatch(ctx, s, cs, batch, publishDir, log, r); err != nil {
			return err
		}
		batch = batch[:0]
	}
	if len(batch) > 0 {
		if err := renderBatch(ctx, s, cs, batch, publishDir, log, r); err != nil {
			return err
		}
	}
	return renderList(ctx, s, cs, publishDir, log, r)
}

// renderBatch renders the regular pages cs[batch] as a Hugo site of its
// own, and lets go of their content files: the list site has their stubs.
func renderBatch(ctx context.Context, s *export.Site, cs []content, batch []int, publishDir string, log io.Writer, r *reuse) error {
	src := afero.NewMemMapFs()
	if err := afero.WriteFile(src, path.Join(workDir, "hugo.toml"), []byte(batchConfig(s)), 0o644); err != nil {
		return err
	}
	if err := copyFS(templates.FS, src, workDir, "layouts"); err != nil {
		return err
	}
	for _, i := range batch {
		if err := writeContent(src, cs[i].path, cs[i].data); err != nil {
			return err
		}
		cs[i].data = nil
	}
	return renderHugoFs(ctx, src, workDir, publishDir, log, s.RelativeLinks, r)
}

// renderList renders the home and section pages, with every regular page
// as a stub, the static files, the sitemap, the feed and the 404 page.
func renderList(ctx context.Context, s *export.Site, cs []content, publishDir string, log io.Writer, r *reuse) error {
	src := afero.NewMemMapFs()
	if err := writeSkeleton(ctx, src, workDir, s); err != nil {
		return err
	}
	for _, c := range cs {
		data := c.stub
		if data == nil {
			data = c.data
		}
		if err := writeContent(src, c.path, data); err != nil {
			return err
		}
	}
	return renderHugoFs(ctx, src, workDir, publishDir, log, s.RelativeLinks, r)
}

// writeSkeleton writes all of the whole site's Hugo project but its
// content: the configuration, the embedded templates and static files,
// the headers and the graph explorer's data.
func writeSkeleton(ctx context.Context, fsys afero.Fs, dir string, s *export.Site) error {
	if err := afero.WriteFile(fsys, path.Join(dir, "hugo.toml"), []byte(hugoConfig(s)), 0o644); err != nil {
		return err
	}
	if err := copyFS(templates.FS, fsys, dir, "layouts", "static"); err != nil {
		return err
	}
	if err := afero.WriteFile(fsys, path.Join(dir, "static", headersFile), renderHeaders(), 0o644); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return writeGraphData(fsys, dir, s)
}

// writeContent writes one content file into the project in fsys.
func writeContent(fsys afero.Fs, contentPath string, data []byte) error {
	full := path.Join(workDir, "content", contentPath)
	if err := fsys.MkdirAll(path.Dir(full), 0o755); err != nil {
		return fmt.Errorf("write page %s: %w", contentPath, err)
	}
	if err := afero.WriteFile(fsys, full, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write page %s: %w", contentPath, err)
	}
	return nil
}

// copyFS copies the trees roots of the embedded templates into dir.
func copyFS(src fs.FS, dst afero.Fs, dir string, roots ...string) error {
	for _, root := range roots {
		err := fs.WalkDir(src, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || strings.HasSuffix(p, ".go") {
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
		if err != nil {
			return err
		}
	}
	return nil
}
