package site

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// hostileMarkdown is what has got script past markdown renderers before:
// raw HTML in every position, script URLs in every spelling, attributes
// smuggled through code info strings, titles and autolinks, wikilinks
// inside links, and entities that decode to markup.
var hostileMarkdown = []string{
	"",
	"<script>alert(1)</script>",
	"<img src=x onerror=alert(1)>",
	"a <b onclick=alert(1)>b</b> c",
	"<div style=\"x\">\n\n*md*\n\n</div>",
	"<!-- <script> -->",
	"<![CDATA[<script>]]>",
	"<?php x ?>",
	"<svg><script>alert(1)</script></svg>",
	"[a](javascript:alert(1))",
	"[a](JaVaScRiPt:alert(1))",
	"[a](javascript&#58;alert(1))",
	"[a](javascript&#x3a;alert(1))",
	"[a](javascript&colon;alert(1))",
	"[a](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1))",
	"[a](<java\tscript:alert(1)>)",
	"[a](<java\nscript:alert(1)>)",
	"[a](java&#x09;script:alert(1))",
	"[a](&#x20;javascript:alert(1))",
	"[a](\x01javascript:alert(1))",
	"[a](vbscript:msgbox)",
	"[a](data:text/html;base64,PHNjcmlwdD4=)",
	"[a](DATA:text/html,<script>alert(1)</script>)",
	"[a](javascript&#58alert(1))",
	"[a](javascript%3Aalert(1))",
	"[a](https://x \"t\\\" onmouseover=alert(1)\")",
	"[a][r]\n\n[r]: javascript:alert(1)",
	"[a][r]\n\n[r]: <javascript:alert(1)> \"t\"",
	"![a](javascript:alert(1))",
	"![<img src=x onerror=alert(1)>](x)",
	"![a\" onerror=\"alert(1)](https://x)",
	"<javascript:alert(1)>",
	"<JAVASCRIPT:alert(1)>",
	"<https://x/\"onmouseover=alert(1)>",
	"<a@b.c>",
	"<mailto:a@b.c?x=\"><script>>",
	"[[Note]]",
	"[[Note|<script>alert(1)</script>]]",
	"[[<img src=x onerror=alert(1)>]]",
	"[[javascript:alert(1)]]",
	"[[a|b|c]] [[x#y]] [[#]] [[ ]] [[]]",
	"[[[a]]](javascript:alert(1))",
	"[x [[a]]](javascript:alert(1))",
	"```\" onerror=alert(1) x=\"\n<script>\n```",
	"```<script>\nx\n```",
	"    <script>alert(1)</script>",
	"`<script>`",
	"&lt;script&gt;alert(1)&lt;/script&gt;",
	"&#60;script&#62;",
	"# <script>\n\n> <img onerror=x>\n\n- <b>\n1. [a](javascript:x)",
	"3. x\n4. y",
	"a  \nb\\\nc",
	"**<i>**",
	"> > > > > > [a](javascript:x)",
	"{{< shortcode >}} {{% x %}}",
}

// markdownElements are the elements the renderer may emit, with the
// attributes each may carry.
var markdownElements = map[atom.Atom][]string{
	atom.P: nil, atom.Em: nil, atom.Strong: nil, atom.Code: {"class"}, atom.Pre: {"class"},
	atom.Blockquote: nil, atom.Ul: nil, atom.Ol: {"start"}, atom.Li: nil, atom.Hr: nil, atom.Br: nil,
	atom.H1: nil, atom.H2: nil, atom.H3: nil, atom.H4: nil, atom.H5: nil, atom.H6: nil,
	atom.A: {"href", "rel", "class"}, atom.Span: {"class", "title"},
}

// fuzzResolver resolves some targets and not others, so both renderings of
// a wikilink are exercised.
func fuzzResolver(target string) (string, bool) {
	if len(target)%2 == 1 {
		return "", false
	}
	return "/notes/x/", true
}

func FuzzMarkdownBlock(f *testing.F) {
	for _, s := range hostileMarkdown {
		f.Add(s)
	}
	md := newMarkdown()
	f.Fuzz(func(t *testing.T, src string) {
		if !utf8.ValidString(src) || strings.ContainsRune(src, 0) {
			return // the parse stage hands over valid UTF-8 without NUL
		}
		if err := checkSafeHTML(md.Block(src, fuzzResolver)); err != nil {
			t.Fatalf("Block(%q): %v", src, err)
		}
		if err := checkSafeHTML(md.Inline(src, fuzzResolver)); err != nil {
			t.Fatalf("Inline(%q): %v", src, err)
		}
	})
}

// checkSafeHTML parses out as a browser would, inside a <div>, and
// reports the first element, attribute or URL that could run anything.
func checkSafeHTML(out string) error {
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(out), ctx)
	if err != nil {
		return err
	}
	for _, n := range nodes {
		if err := checkNode(n); err != nil {
			return fmt.Errorf("%v in %q", err, out)
		}
	}
	return nil
}

func checkNode(n *html.Node) error {
	switch n.Type {
	case html.TextNode:
	case html.ElementNode:
		allowed, ok := markdownElements[n.DataAtom]
		if !ok || n.Namespace != "" {
			return fmt.Errorf("element <%s>", n.Data)
		}
		for _, a := range n.Attr {
			if !contains(allowed, a.Key) || a.Namespace != "" {
				return fmt.Errorf("attribute %s on <%s>", a.Key, n.Data)
			}
			if a.Key == "href" || a.Key == "src" {
				if s := browserScheme(a.Val); s != "" && s != "http" && s != "https" && s != "mailto" {
					return fmt.Errorf("%s=%q has scheme %s", a.Key, a.Val, s)
				}
			}
		}
	default:
		return fmt.Errorf("node of type %d (%q)", n.Type, n.Data)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if err := checkNode(c); err != nil {
			return err
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// browserScheme is the scheme a browser finds in an attribute value that
// is already entity-decoded, per the WHATWG URL parser: leading and
// trailing C0 controls and spaces are stripped, tabs and newlines removed
// anywhere, and a scheme is an ASCII letter followed by letters, digits,
// "+", "-" or "." up to the first ":". "" means a relative URL.
func browserScheme(v string) string {
	v = strings.TrimFunc(v, func(r rune) bool { return r <= ' ' })
	v = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, v)
	colon := strings.IndexByte(v, ':')
	if colon < 1 {
		return ""
	}
	s := strings.ToLower(v[:colon])
	for i, r := range s {
		alpha := r >= 'a' && r <= 'z'
		if !alpha && (i == 0 || !(r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return ""
		}
	}
	return s
}

func FuzzSafeURL(f *testing.F) {
	for _, s := range []string{
		"javascript:alert(1)", "JAVASCRIPT:x", " javascript:x", "java\tscript:x", "java\x00script:x",
		"javascript&#58;x", "javascript&#x3A;x", "javascript&colon;x", "javascript&#58x", "javascript&#0058;x",
		"&#106;avascript:x", "&#x6a;avascript:x", "&Jfr;avascript:x", "j&#97;v&#97;script:x",
		"vbscript:x", "VBScript:x", "data:text/html,<script>", "data:image/svg+xml,<svg onload=x>",
		"da\u00adta:x", "\u200bjavascript:x", "javascript\u00a0:x", "javascript%3Ax", "%6A%61vascript:x",
		"https://example.com", "http://x/?a=1&amp;b=2", "mailto:a@b.c", "../x", "/x:y", "?a:b", "#a:b",
		"x/y:z", "//evil.example/x", "\\\\evil\\x", "&amp;#106;avascript:x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dest string) {
		url, ok := safeURL(dest)
		if !ok {
			return
		}
		// The renderer escapes the URL into an attribute; a browser
		// decodes it once and then parses it.
		seen := html.UnescapeString(html.EscapeString(url))
		if s := browserScheme(seen); s != "" && s != "http" && s != "https" && s != "mailto" {
			t.Fatalf("safeURL(%q) = %q: a browser sees scheme %s", dest, url, s)
		}
		// However the destination was written, decoded the CommonMark way
		// or the HTML way, a script scheme is refused.
		for _, decoded := range []string{
			string(util.ResolveEntityNames(util.ResolveNumericReferences([]byte(dest)))),
			html.UnescapeString(dest),
		} {
			switch browserScheme(stripBlanks(decoded)) {
			case "javascript", "vbscript", "data":
				t.Fatalf("safeURL accepts %q (decodes to %q)", dest, decoded)
			}
		}
	})
}

// stripBlanks drops what browsers ignore inside a scheme.
func stripBlanks(s string) string {
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

func FuzzWikilink(f *testing.F) {
	for _, s := range []string{
		"Note", "Note|alias", "a#b", "a#b|c", " padded ", "<script>alert(1)</script>",
		"a&amp;b", "&lt;b&gt;", "x|<img src=x onerror=alert(1)>", "javascript:alert(1)",
		"../../etc/passwd", "CON", "\u202eevil", "é\u0301", "*em* `code`", "a\\|b", "|", "#",
	} {
		f.Add(s)
	}
	md := newMarkdown()
	f.Fuzz(func(t *testing.T, inner string) {
		if !utf8.ValidString(inner) || strings.ContainsAny(inner, "\x00") {
			return
		}
		src := "[[" + inner + "]]"
		var asked []string
		resolve := func(target string) (string, bool) {
			asked = append(asked, target)
			return fuzzResolver(target)
		}
		out := md.Block(src, resolve)
		if err := checkSafeHTML(out); err != nil {
			t.Fatalf("Block(%q): %v", src, err)
		}
		// A wikilink is one line with no brackets inside; its target is
		// the text before | and #, trimmed, and reaches the resolver and
		// the page exactly as written.
		if strings.ContainsAny(inner, "[]\n\r") || len(inner) < 1 {
			return
		}
		target, alias, hasAlias := strings.Cut(inner, "|")
		target, _, _ = strings.Cut(target, "#")
		target = strings.TrimSpace(target)
		if len(asked) != 1 || asked[0] != target {
			t.Fatalf("Block(%q) resolved %q, want [%q]", src, asked, target)
		}
		label := target
		if hasAlias && strings.TrimSpace(alias) != "" {
			label = strings.TrimSpace(alias)
		}
		if got := renderedText(t, out); got != label {
			t.Fatalf("Block(%q) shows %q, want %q (from %q)", src, got, label, out)
		}
	})
}

// renderedText is the text a browser shows for out.
func renderedText(t *testing.T, out string) string {
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(out), ctx)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			sb.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	return strings.TrimSpace(sb.String())
}
