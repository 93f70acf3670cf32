package site

import (
	"html"
	"strings"
	"testing"
)

// TestInlinePlainMatchesMarkdown checks the fast path for plain lines gives
// what the markdown renderer gives.
func TestInlinePlainMatchesMarkdown(t *testing.T) {
	md := newMarkdown()
	for _, s := range []string{
		"Ran go test ./... - 3 failures in ledger",
		"Use \"quotes\" and 'apostrophes' (and parentheses); 50% of runs",
		"Never read the wall clock in tests.",
		"tabs\tinside",
		"ends with two spaces  ",
		"a # not a heading",
	} {
		if !plain(s) {
			t.Errorf("%q should take the fast path", s)
			continue
		}
		got := md.Inline(s, nil)
		full := md.Block(s, nil)
		want := full[len("<p>") : len(full)-len("</p>\n")]
		if got != want {
			t.Errorf("Inline(%q) = %q, markdown gives %q", s, got, want)
		}
	}
	for _, s := range []string{"# heading", "- item", "1. item", "**bold**", "see [[Note]]", "<b>", "a & b", "http://x.y", "    code", "x\ny", "a_b", "user@example.com"} {
		if plain(s) {
			t.Errorf("%q must go through the markdown renderer", s)
		}
	}
}

// TestUnsafeLinks: a link whose destination is a script URL, however it is
// spelt (character references, case, blanks inside the scheme), keeps its
// text and loses its link; safe links stay.
func TestUnsafeLinks(t *testing.T) {
	md := newMarkdown()
	for _, tc := range []struct{ src, want string }{
		{"[a](javascript:alert(1))", "a"},
		{"[a](javascript&#58;alert(1))", "a"},
		{"[a](javascript&colon;alert(1))", "a"},
		{"[a](&#x6A;avascript:alert(1))", "a"},
		{"[a](&#106;&#97;vascript:alert(1))", "a"},
		{"[a](JaVaScRiPt:alert(1))", "a"},
		{"[a](<java\tscript:alert(1)>)", "a"},
		{"[a](vbscript:msgbox)", "a"},
		{"[a](data:text/html;base64,PHNjcmlwdD4=)", "a"},
		{"![a](javascript:alert(1))", "a"},
		{"[a](https://example.com/x?y=1&amp;z=2)", `<a href="https://example.com/x?y=1&amp;z=2" rel="nofollow">a</a>`},
		{"[a](../notes/x)", `<a href="../notes/x" rel="nofollow">a</a>`},
		{"[a](mailto:me@example.com)", `<a href="mailto:me@example.com" rel="nofollow">a</a>`},
	} {
		if got := md.Inline(tc.src, nil); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.src, got, tc.want)
		}
	}
}

// TestCostlyMarkdownIsPlainText: markdown over the cost budget (SPEC §6)
// is shown as escaped text, a block in <pre>, a line inline; markdown
// within it is rendered.
func TestCostlyMarkdownIsPlainText(t *testing.T) {
	md := newMarkdown()
	costly := strings.Repeat("[a](<b", 20000) + "<script>"
	if got, want := md.Block(costly, nil), `<pre class="plain-text">`+html.EscapeString(costly)+"</pre>\n"; got != want {
		t.Errorf("Block: got %.80q…, want %.80q…", got, want)
	}
	if got, want := md.Inline(costly, nil), html.EscapeString(costly); got != want {
		t.Errorf("Inline: got %.80q…, want %.80q…", got, want)
	}
	if got := md.Block(strings.Repeat("> ", 40)+"x", nil); !strings.HasPrefix(got, `<pre class="plain-text">&gt; &gt; `) {
		t.Errorf("a line 40 quotes deep: got %.80q", got)
	}
	if got := md.Block("> > *a* [b](https://x/)", nil); !strings.Contains(got, "<blockquote>\n<blockquote>") || !strings.Contains(got, "<em>a</em>") {
		t.Errorf("moderate markdown not rendered: %q", got)
	}
}

// TestHeadingsBelowTitle: a note's headings render below the page's
// title, its one <h1>; a first-level heading the note keeps is an <h2>.
func TestHeadingsBelowTitle(t *testing.T) {
	md := newMarkdown()
	for src, want := range map[string]string{
		"# Another heading\n\nText.": "<h2>Another heading</h2>\n<p>Text.</p>\n",
		"Setext\n===":                "<h2>Setext</h2>\n",
		"## Two\n### Three *em*":     "<h2>Two</h2>\n<h3>Three <em>em</em></h3>\n",
		"###### Six":                 "<h6>Six</h6>\n",
	} {
		if got := md.Block(src, nil); got != want {
			t.Errorf("%q: got %q, want %q", src, got, want)
		}
	}
}

// TestImageAltText: an image is its alt text as plain text, whatever
// inline markdown the alt holds (emphasis, code, an autolink, raw HTML,
// a line break), as goldmark's Node.Text gave it before it was
// deprecated.
func TestImageAltText(t *testing.T) {
	md := newMarkdown()
	for _, tc := range []struct{ src, want string }{
		{"![*an* `x` **b**](x)", `<a href="x" rel="nofollow">` + "an x b" + `</a>`},
		{"![see <https://example.com>](x)", `<a href="x" rel="nofollow">` + "see https://example.com" + `</a>`},
		{"![a <b>c</b>](x)", `<a href="x" rel="nofollow">` + "a &lt;b&gt;c&lt;/b&gt;" + `</a>`},
		{"![a\nb](x)", `<a href="x" rel="nofollow">` + "a\nb" + `</a>`},
		{"![](x)", `<a href="x" rel="nofollow">` + "image" + `</a>`},
	} {
		if got := md.Inline(tc.src, nil); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.src, got, tc.want)
		}
	}
}
