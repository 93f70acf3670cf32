package site

import (
	"context"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/templates"
)

// notKinds are the layouts that are no page kind's: the base, the 404
// page, the feed and the fallbacks that fail a build whose page kind has
// no template.
var notKinds = []string{"baseof.html", "404.html", "rss.xml", "sitemap.xml", "page.html", "section.html"}

// TestKindsHaveTemplates keeps the kinds and their templates in
// agreement: each kind has layouts/<kind>.html, and each layout is a
// kind's.
func TestKindsHaveTemplates(t *testing.T) {
	layouts, err := fs.ReadDir(templates.FS, "layouts")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range layouts {
		if !e.IsDir() && !slices.Contains(notKinds, e.Name()) {
			files = append(files, e.Name())
		}
	}
	var names []string
	for _, k := range kinds() {
		if slices.Contains(names, k.name) {
			t.Errorf("kind %s registered twice", k.name)
		}
		names = append(names, k.name)
		if !slices.Contains(files, k.name+".html") {
			t.Errorf("kind %s has no template layouts/%s.html", k.name, k.name)
		}
	}
	for _, f := range files {
		if !slices.Contains(names, strings.TrimSuffix(f, path.Ext(f))) {
			t.Errorf("layouts/%s is no kind's template: register its kind in kinds()", f)
		}
	}
}

// TestPagesHaveKinds: every page is made by a kind, which names its
// layout, and no two pages share a content file.
func TestPagesHaveKinds(t *testing.T) {
	s := graphSite(5)
	seen := map[string]bool{}
	ps, err := pages(context.Background(), s, newMarkdown())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.kind == "" || p.params == nil {
			t.Errorf("%s: kind %q, params %v", p.path, p.kind, p.params)
		}
		if seen[p.path] {
			t.Errorf("%s made twice", p.path)
		}
		seen[p.path] = true
	}
	for _, want := range []string{"_index.md", "episodes/_index.md", "graph/_index.md", "outcomes/unknown.md"} {
		if !seen[want] {
			t.Errorf("no page %s", want)
		}
	}
}
