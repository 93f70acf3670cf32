package indexer_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/engramhq/engram/indexer/source"
)

const hostile = `---
title: "EPISODE-<script>alert(1)</script>"
outcome: success
task: '<img src=x onerror=alert(1)>'
url: /evil/
slug: evil
aliases: [/alias/]
outputs: [json]
draft: true
expiryDate: 2000-01-01
cascade:
  url: /cascaded/
---

## Context

Shortcode {{< param "title" >}} and {{% param "title" %}} stay text.
<script>alert("raw")</script>
<div onclick="alert(2)">raw html block</div>

[plain](javascript:alert(3)) [encoded](javascript&#58;alert(4)) [upper](JaVaScRiPt:alert(5))
[data](data:text/html;base64,PHNjcmlwdD4=) [vb](vbscript:msgbox) ![img](javascript:alert(6))
<a href="javascript:alert(7)">inline</a> [ok](https://example.com/)

## Observations

- [risk] <b onmouseover="alert(8)">bold</b> #x

## Lessons Learned

- [link](javascript:alert(9)) in a lesson
`

// TestBuildHostileNote checks that nothing a note contains can steer Hugo
// or run script on the site (SPEC §6).
func TestBuildHostileNote(t *testing.T) {
	dir := t.TempDir()
	err := source.WriteRepo(dir, []source.Commit{{When: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), Files: map[string][]byte{
		"episodes/hostile.md": []byte(hostile),
		"episodes/good.md":    []byte(goodEpisode),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	build(t, dir, out)
	for _, p := range []string{"evil", "alias", "cascaded"} {
		if _, err := os.Stat(filepath.Join(out, p)); err == nil {
			t.Errorf("front matter steered the site: /%s/ exists", p)
		}
	}
	pages, _ := filepath.Glob(filepath.Join(out, "episodes", "episode-script-alert-1-script-*", "index.html"))
	if len(pages) != 1 {
		t.Fatalf("hostile episode page not published where its slug says: %v", pages)
	}
	page, _ := os.ReadFile(pages[0])
	if !strings.Contains(string(page), `param &#34;title&#34;`) && !strings.Contains(string(page), `param &quot;title&quot;`) {
		t.Errorf("shortcode text should be shown as text:\n%s", page)
	}
	for _, text := range []string{"plain", "encoded", "upper", "data", "raw html block"} {
		if !strings.Contains(string(page), text) {
			t.Errorf("the text %q of a removed link or tag should stay on the page", text)
		}
	}
	if !strings.Contains(string(page), `href="https://example.com/"`) {
		t.Errorf("a safe link should stay a link")
	}
	// An on…= attribute is looked for among the attributes the HTML
	// parser finds: in an attribute's value (a meta description's text)
	// it is text.
	bad := regexp.MustCompile(`(?i)<script|href\s*=\s*"\s*(javascript|vbscript|data):|<div[^>]*>raw html|<b\s`)
	// The site's only scripts: the search page's and the graph
	// explorer's own files.
	own := map[string][]byte{
		"search/index.html":   []byte(`<script src="../js/search.js" defer></script>`),
		"graph/index.html":    []byte(`<script src="../js/graph.js" defer></script>`),
		"episodes/index.html": []byte(`<script src="../js/filter.js" defer></script>`),
	}
	for p, data := range tree(t, out) {
		if !strings.HasSuffix(p, ".html") && !strings.HasSuffix(p, ".xml") {
			continue
		}
		if s, ok := own[p]; ok {
			data = bytes.Replace(data, s, nil, 1)
		}
		if m := bad.Find(data); m != nil {
			t.Errorf("%s contains %q", p, m)
		}
		if a := eventAttribute(data); a != "" {
			t.Errorf("%s has an element with %s", p, a)
		}
	}
}

// eventAttribute is the first on…= attribute of an element of data, as
// a browser parses it.
func eventAttribute(data []byte) string {
	z := html.NewTokenizer(bytes.NewReader(data))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			for _, a := range tok.Attr {
				if strings.HasPrefix(strings.ToLower(a.Key), "on") {
					return "<" + tok.Data + " " + a.Key + ">"
				}
			}
		}
	}
}
