package site

import (
	"io/fs"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/engramhq/engram/templates"
)

// otherPages are what lets a template show another page than its own:
// Hugo's collections, page lookups and the site's pages.
var otherPages = regexp.MustCompile(`\.Pages\b|\.RegularPages\b|\.Sections\b|GetPage|site\.Home|\.Site\b|\.Parent\b|\.Ancestors\b|\.Prev|\.Next|\.CurrentSection\b|\.FirstSection\b|\.Translations\b|\.Resources\b|resources\.|\.Data\b|site\.Data|now\b|getenv|readFile|os\.`)

// templateComment is a {{/* ... */}} comment, which may name anything.
var templateComment = regexp.MustCompile(`(?s)\{\{-?\s*/\*.*?\*/\s*-?\}\}`)

// TestCachedKindsReadOnlyTheirPage holds the kinds whose pages a build
// reuses (all but the list kinds) to what the page cache assumes: their
// template, the base template and every partial they call show nothing
// but their own page, the configuration and the templates. A template
// that shows another page must be a list kind, or its pages would be
// reused stale.
func TestCachedKindsReadOnlyTheirPage(t *testing.T) {
	read := func(name string) string {
		data, err := fs.ReadFile(templates.FS, "layouts/"+name)
		if err != nil {
			t.Fatal(err)
		}
		return templateComment.ReplaceAllString(string(data), "")
	}
	check := func(kind, name string) {
		text := read(name)
		if m := otherPages.FindString(text); m != "" {
			t.Errorf("the %s pages are reused from earlier builds, but layouts/%s reads %q: another page, or something outside the page; make %s a list kind or show only the page's own front matter", kind, name, m, kind)
		}
		for _, call := range regexp.MustCompile(`partial "([^"]+)"`).FindAllStringSubmatch(text, -1) {
			if other := otherPages.FindString(read("_partials/" + call[1])); other != "" {
				t.Errorf("the %s pages are reused, but layouts/%s calls the partial %s, which reads %q", kind, name, call[1], other)
			}
		}
	}
	for _, k := range kinds() {
		if !k.list {
			check(k.name, k.name+".html")
		}
	}
	check("every", "baseof.html")
	// The guard must see what it guards against.
	if !otherPages.MatchString(read("home.html")) || !strings.Contains(read("episodes.html"), ".Pages") {
		t.Error("the pattern of other pages no longer matches the list templates: fix otherPages")
	}
}

// TestPageKey: a page's key changes with its path, its content and the
// render key, and with nothing else.
func TestPageKey(t *testing.T) {
	r1, err := renderKey("title = 'a'", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := renderKey("title = 'b'", false, nil)
	r3, _ := renderKey("title = 'a'", true, nil)
	r4, _ := renderKey("title = 'a'", false, nil)
	r5, _ := renderKey("title = 'a'", false, []byte("scanner"))
	if r1 == r5 {
		t.Error("the render key ignores the salt")
	}
	if r1 != r4 {
		t.Error("the render key is not deterministic")
	}
	if r1 == r2 || r1 == r3 {
		t.Error("the render key ignores the configuration or the relative links")
	}
	k := pageKey(r1, "episodes/x.md", []byte(`{"title":"x"}`))
	for name, other := range map[string]PageKey{
		"path":    pageKey(r1, "episodes/y.md", []byte(`{"title":"x"}`)),
		"content": pageKey(r1, "episodes/x.md", []byte(`{"title":"y"}`)),
		"render":  pageKey(r2, "episodes/x.md", []byte(`{"title":"x"}`)),
		// The path and the content are length-prefixed apart.
		"boundary": pageKey(r1, "episodes/x.m", []byte(`d{"title":"x"}`)),
	} {
		if other == k {
			t.Errorf("the page key ignores the %s", name)
		}
	}
	if pageKey(r1, "episodes/x.md", []byte(`{"title":"x"}`)) != k {
		t.Error("the page key is not deterministic")
	}
	if len(BinaryID()) == 0 {
		t.Error("no binary identity")
	}
	if exe, err := os.Executable(); err == nil && runtime.GOOS == "linux" && goBuildID(exe) == nil {
		t.Errorf("no Go build ID read from %s: every process would key its pages apart", exe)
	}
	if goBuildID("/nonexistent") != nil {
		t.Error("a build ID from no file")
	}
}
