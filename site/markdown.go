package site

import (
	"bytes"
	"html"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/engramhq/engram/indexer/parse"
)

// Resolver maps a wikilink target to a URL; ok is false for a missing note.
type Resolver func(target string) (url string, ok bool)

// markdown renders the prose of notes to HTML that can run nothing: raw
// HTML is dropped, only http, https, mailto and relative links survive
// (after entity decoding), and wikilinks become links or missing-note
// markers. Hugo then places this HTML in its templates: notes never reach
// Hugo's own markdown or shortcode processing (SPEC §6).
type markdown struct{ md goldmark.Markdown }

func newMarkdown() markdown {
	return markdown{md: goldmark.New(
		goldmark.WithParserOptions(parser.WithInlineParsers(util.Prioritized(wikilinkParser{}, 199))),
		goldmark.WithRendererOptions(
			ghtml.WithXHTML(),
			renderer.WithNodeRenderers(util.Prioritized(safeRenderer{}, 100)),
		),
	)}
}

// Block renders markdown as block HTML. Markdown that would cost more
// than linear time to parse (SPEC §6, parse.MarkdownWithinBudget) is shown
// as preformatted plain text; the parse stage has reported it.
func (m markdown) Block(src string, resolve Resolver) string {
	if !parse.MarkdownWithinBudget(src) {
		return `<pre class="plain-text">` + html.EscapeString(src) + "</pre>\n"
	}
	return m.render(src, resolve)
}

func (m markdown) render(src string, resolve Resolver) string {
	doc := m.md.Parser().Parse(text.NewReader([]byte(src)), parser.WithContext(withResolver(resolve)))
	var buf bytes.Buffer
	if err := m.md.Renderer().Render(&buf, []byte(src), doc); err != nil {
		return "<p>" + html.EscapeString(src) + "</p>"
	}
	return buf.String()
}

// Inline renders one line of markdown without the surrounding paragraph.
// Most lines (observations, events, lessons) are plain text, and skip the
// markdown parser.
func (m markdown) Inline(src string, resolve Resolver) string {
	if plain(src) {
		// As goldmark escapes text: plain lines hold no &, < or >.
		return strings.ReplaceAll(strings.TrimSpace(src), `"`, "&quot;")
	}
	if !parse.MarkdownWithinBudget(src) {
		return html.EscapeString(strings.TrimSpace(src))
	}
	out := strings.TrimSpace(m.render(src, resolve))
	if strings.HasPrefix(out, "<p>") && strings.HasSuffix(out, "</p>") && strings.Count(out, "<p>") == 1 {
		return out[3 : len(out)-4]
	}
	return out
}

// plain reports whether a line has nothing markdown would change: no
// markup characters, no autolink, no line break, no leading block marker
// (#, >, -, +, digits followed by . or ), indented code).
func plain(s string) bool {
	if s == "" || strings.ContainsAny(s, "*_`[]<>&\\!~|\n\r") || strings.Contains(s, "://") || strings.Contains(s, "@") {
		return false
	}
	t := strings.TrimLeft(s, " ")
	if t == "" || len(s)-len(t) >= 4 {
		return false
	}
	switch t[0] {
	case '#', '>', '-', '+', '=', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return false
	}
	return true
}

var resolverKey = parser.NewContextKey()

func withResolver(r Resolver) parser.Context {
	ctx := parser.NewContext()
	ctx.Set(resolverKey, r)
	return ctx
}

// wikiLink is an inline [[Target|alias]] node, resolved at parse time.
type wikiLink struct {
	ast.BaseInline
	label   string
	url     string
	missing bool
}

var kindWikiLink = ast.NewNodeKind("WikiLink")

func (n *wikiLink) Kind() ast.NodeKind                     { return kindWikiLink }
func (n *wikiLink) Dump(src []byte, level int)             { ast.DumpHelper(n, src, level, nil, nil) }
func (wikilinkParser) Trigger() []byte                     { return []byte{'['} }
func (wikilinkParser) CloseBlock(ast.Node, parser.Context) {}

type wikilinkParser struct{}

func (wikilinkParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	l, size := parse.Wikilink(line)
	// "[[]]" stays text, as the site has always shown it.
	if size <= len("[[]]") {
		return nil
	}
	block.Advance(size)
	n := &wikiLink{label: l.Target}
	if l.Alias != "" {
		n.label = l.Alias
	}
	if r, ok := pc.Get(resolverKey).(Resolver); ok && r != nil {
		n.url, ok = r(l.Target)
		n.missing = !ok
	} else {
		n.missing = true
	}
	return n
}

// safeRenderer replaces goldmark's renderers for everything that can carry
// a URL or markup from the note.
type safeRenderer struct{}

func (safeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindLink, renderLink)
	reg.Register(ast.KindAutoLink, renderAutoLink)
	reg.Register(ast.KindImage, renderImage)
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(kindWikiLink, renderWikiLink)
	reg.Register(ast.KindHeading, renderHeading)
}

// renderHeading writes a note's headings below the page's own: the
// note's title is the page's one <h1>, so a heading the note starts with
// ("# Another heading", kept when it is not the title) is an <h2>.
func renderHeading(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	level := strconv.Itoa(max(n.(*ast.Heading).Level, 2))
	if entering {
		_, _ = w.WriteString("<h" + level + ">")
	} else {
		_, _ = w.WriteString("</h" + level + ">\n")
	}
	return ast.WalkContinue, nil
}

// renderRawHTML shows inline HTML from a note as text: it never becomes
// markup, and nothing the author wrote disappears.
func renderRawHTML(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		segs := n.(*ast.RawHTML).Segments
		for i := 0; i < segs.Len(); i++ {
			seg := segs.At(i)
			_, _ = w.WriteString(html.EscapeString(string(seg.Value(src))))
		}
	}
	return ast.WalkSkipChildren, nil
}

// renderHTMLBlock shows an HTML block from a note as preformatted text.
func renderHTMLBlock(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := n.(*ast.HTMLBlock)
	_, _ = w.WriteString(`<pre class="raw-html"><code>`)
	lines := b.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		_, _ = w.WriteString(html.EscapeString(string(seg.Value(src))))
	}
	if b.HasClosure() {
		_, _ = w.WriteString(html.EscapeString(string(b.ClosureLine.Value(src))))
	}
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}

func renderLink(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	l := n.(*ast.Link)
	url, ok := safeURL(string(l.Destination))
	if !ok {
		return ast.WalkContinue, nil // the text stays, the link goes
	}
	if entering {
		_, _ = w.WriteString(`<a href="` + html.EscapeString(url) + `" rel="nofollow">`)
	} else {
		_, _ = w.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

func renderAutoLink(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	l := n.(*ast.AutoLink)
	label := string(l.Label(src))
	dest := string(l.URL(src))
	if l.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
		dest = "mailto:" + dest
	}
	writeLinkOrText(w, dest, label)
	return ast.WalkSkipChildren, nil
}

// plainText is the text of n's inline children, as goldmark's deprecated
// Node.Text gave it: text segments and strings, a soft line break as a
// newline, other inline nodes by their own children.
func plainText(n ast.Node, src []byte) []byte {
	var b []byte
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b = append(b, c.Value(src)...)
			if c.SoftLineBreak() {
				b = append(b, '\n')
			}
		case *ast.String:
			b = append(b, c.Value...)
		case *ast.AutoLink:
			b = append(b, c.Label(src)...)
		case *ast.RawHTML:
			b = append(b, c.Segments.Value(src)...)
		default:
			b = append(b, plainText(c, src)...)
		}
	}
	return b
}

// renderImage shows an image's alt text as a link: the site loads nothing
// from the notes' URLs.
func renderImage(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	img := n.(*ast.Image)
	alt := string(plainText(img, src))
	if alt == "" {
		alt = "image"
	}
	writeLinkOrText(w, string(img.Destination), alt)
	return ast.WalkSkipChildren, nil
}

// writeLinkOrText writes a link to dest when its URL is safe, else the
// label alone.
func writeLinkOrText(w util.BufWriter, dest, label string) {
	if url, ok := safeURL(dest); ok {
		_, _ = w.WriteString(`<a href="` + html.EscapeString(url) + `" rel="nofollow">` + html.EscapeString(label) + "</a>")
		return
	}
	_, _ = w.WriteString(html.EscapeString(label))
}

func renderWikiLink(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	l := n.(*wikiLink)
	label := html.EscapeString(l.label)
	if l.missing {
		_, _ = w.WriteString(`<span class="missing" title="missing note">` + label + "</span>")
	} else {
		_, _ = w.WriteString(`<a class="wikilink" href="` + html.EscapeString(l.url) + `">` + label + "</a>")
	}
	return ast.WalkContinue, nil
}

// safeURL allows http, https and mailto URLs, and relative ones. dest is
// as written: its character references are resolved first, as CommonMark
// says a destination means (goldmark leaves that to its renderer), so
// "javascript&#58;" is a javascript: URL. Control characters and blanks,
// which browsers drop from schemes, are removed before the check. The
// destination is also decoded the way a browser decodes an attribute,
// which is laxer ("&#58" without its semicolon, "&#0058;"): the href
// written is escaped, so that reading cannot reach a browser, but a URL
// that means a script either way is refused all the same.
func safeURL(dest string) (string, bool) {
	clean := withoutBlanks(string(util.ResolveEntityNames(util.ResolveNumericReferences([]byte(dest)))))
	if !allowedScheme(clean) || !allowedScheme(withoutBlanks(html.UnescapeString(dest))) {
		return "", false
	}
	return clean, true
}

// withoutBlanks drops control characters and blanks.
func withoutBlanks(s string) string {
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// allowedScheme reports whether url is relative or http, https or mailto.
func allowedScheme(url string) bool {
	colon := strings.IndexByte(url, ':')
	if colon < 0 || strings.ContainsAny(url[:colon], "/?#") {
		return true // relative
	}
	switch strings.ToLower(url[:colon]) {
	case "http", "https", "mailto":
		return true
	}
	return false
}
