package indexer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/source"
)

// hostileTexts are what a note may hold that a reader must see as text:
// markup, markup already escaped once, script links and autolinks.
var hostileTexts = []string{
	"<script>alert(1)</script>",
	"<img src=x onerror=alert(1)>",
	"&lt;b&gt;",
	"[x](javascript:alert(1))",
	"<javascript:alert(1)>",
	"`<b>`",
}

// escapeRepo holds two failed episodes and an antipattern whose titles,
// tasks, lessons, trigger and action are hostile, and a site title that
// is too, so that each lands in every format: the pages, both RSS feeds,
// feed.json, bootstrap.md and llms.txt.
func escapeRepo(t *testing.T) string {
	t.Helper()
	all := strings.Join(hostileTexts, " ")
	yaml := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	files := map[string][]byte{
		"engram.toml": []byte("title = " + tomlString("Memory "+all) + "\n"),
	}
	for i, h := range hostileTexts[:3] {
		files["episodes/e"+string(rune('a'+i))+".md"] = []byte("---\ntitle: " + yaml("EP-"+h) +
			"\ntype: episode\noutcome: failure\ntask: " + yaml("Task "+all) + "\ndate: 2026-03-01T10:00:00Z\n---\n\n## Lessons Learned\n\n- Lesson " + all + "\n")
	}
	files["patterns/p.md"] = []byte("---\ntitle: " + yaml("PATTERN-"+hostileTexts[1]) + "\ntype: pattern\nantipattern: true\ntrigger: " +
		yaml("A deploy "+all) + "\naction: " + yaml("Skip the tests "+all) + "\n---\n\n## Evidence Episodes\n\n- [[EP-" + hostileTexts[0] + "]] - failure\n- [[EP-" + hostileTexts[1] + "]] - failure\n")
	dir := t.TempDir()
	if err := source.WriteRepo(dir, []source.Commit{{When: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), Files: files}}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func tomlString(s string) string {
	b, _ := json.Marshal(s) // a JSON string without control characters is a TOML basic string
	return string(b)
}

// TestBuildEscapesEveryFormat: each output format escapes note text for
// itself (SPEC §6), checked by reading each as its reader does.
func TestBuildEscapesEveryFormat(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: escapeRepo(t), Out: out, CacheDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	t.Run("rss", func(t *testing.T) { checkFeeds(t, out) })
	t.Run("feed.json", func(t *testing.T) { checkJSONFeed(t, out) })
	for _, name := range []string{"api/v1/bootstrap.md", "llms.txt"} {
		t.Run(name, func(t *testing.T) { checkMarkdown(t, out, name) })
	}
}

// checkFeeds reads every XML file of the site as a feed reader does: the
// XML decoded once, then each text read as HTML, which must be text alone.
// The titles, read so, are the notes' titles exactly.
func checkFeeds(t *testing.T, out string) {
	var feeds []string
	_ = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".xml") {
			feeds = append(feeds, p)
		}
		return err
	})
	titles := map[string]bool{}
	rss := 0
	for _, p := range feeds {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte("<rss")) {
			rss++
		}
		dec := xml.NewDecoder(bytes.NewReader(data))
		var path []string
		for {
			tok, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: not XML: %v", p, err)
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				path = append(path, tok.Name.Local)
			case xml.EndElement:
				path = path[:len(path)-1]
			case xml.CharData:
				text := string(tok)
				if err := onlyText(text); err != nil {
					t.Errorf("%s: <%s> %q reads as markup: %v", p, strings.Join(path, "/"), text, err)
				}
				if strings.Join(path, "/") == "rss/channel/item/title" {
					titles[html.UnescapeString(text)] = true
				}
			}
		}
	}
	if rss < 2 {
		t.Errorf("%d RSS feeds found, want the home page's and /episodes/'s", rss)
	}
	// An item's title is its episode's headline, the task: each
	// hostile text is in one, as text, once decoded as HTML.
	for _, h := range hostileTexts[:3] {
		if !slices.ContainsFunc(slices.Collect(maps.Keys(titles)), func(title string) bool { return strings.Contains(title, h) }) {
			t.Errorf("no feed item's title has %q once decoded as HTML: %v", h, titles)
		}
	}
}

// onlyText reports the first element that HTML makes of s.
func onlyText(s string) error {
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(s), ctx)
	if err != nil {
		return err
	}
	for _, n := range nodes {
		if n.Type != html.TextNode {
			return errors.New("an element <" + n.Data + ">")
		}
	}
	return nil
}

// checkJSONFeed: feed.json holds note text in text fields only; a field
// of HTML would have to hold no markup from a note.
func checkJSONFeed(t *testing.T, out string) {
	var feed map[string]any
	readJSON(t, filepath.Join(out, "feed.json"), &feed)
	var walk func(key string, v any)
	texts := 0
	walk = func(key string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(k, x)
			}
		case []any:
			for _, x := range v {
				walk(key, x)
			}
		case string:
			if strings.Contains(key, "html") {
				if err := onlyText(v); err != nil {
					t.Errorf("feed.json %s: %v in %q", key, err, v)
				}
			}
			if key == "content_text" && strings.Contains(v, hostileTexts[1]) {
				texts++
			}
		}
	}
	walk("", feed)
	if texts == 0 {
		t.Errorf("feed.json: no content_text keeps the note's text as written")
	}
}

// checkMarkdown renders an agent's Markdown as permissively as a renderer
// may (GitHub's extensions, raw HTML allowed): nothing in it may become
// HTML, an image, a code span or a link other than an http one, and the
// hostile text must read as written.
func checkMarkdown(t *testing.T, out, name string) {
	src, err := os.ReadFile(filepath.Join(out, name))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(ghtml.WithUnsafe()))
	if err := md.Convert(src, &buf); err != nil {
		t.Fatal(err)
	}
	nodes, err := html.ParseFragment(&buf, &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[atom.Atom]bool{atom.H1: true, atom.H2: true, atom.P: true, atom.Ul: true, atom.Li: true, atom.Blockquote: true, atom.Em: true, atom.Strong: true, atom.A: true}
	var text strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			text.WriteString(n.Data)
		case n.DataAtom == atom.Code && n.FirstChild != nil && n.FirstChild.Data == "json_url":
			// llms.txt's own words
		case n.Type != html.ElementNode || !allowed[n.DataAtom]:
			t.Errorf("%s renders <%s> (node type %d)", name, n.Data, n.Type)
		case n.DataAtom == atom.A:
			for _, a := range n.Attr {
				if u, err := url.Parse(a.Val); a.Key == "href" && (err != nil || (u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https") || u.Opaque != "") {
					t.Errorf("%s links %q", name, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	for _, h := range hostileTexts {
		if !strings.Contains(text.String(), h) {
			t.Errorf("%s does not read %q as written:\n%s", name, h, src)
		}
	}
}
