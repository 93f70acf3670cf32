package parse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

// linkLine is n wikilinks "[[a]]" on one line.
func linkLine(n int) string { return strings.Repeat("[[a]]", n) }

// TestWikilinkFlood: a paragraph of more wikilinks than any note needs
// (150,000 on one line, 750 KB, took 36 s and 654 MB to build) is
// reported as [markdown-cost] at its line and kept whole as plain text,
// its links unread; up to the limit, and in a list however long, every
// link is read. The time is in BenchmarkParseWikilinks.
func TestWikilinkFlood(t *testing.T) {
	items := strings.Repeat("- [[a]] and [[b]]\n", 20000)
	for _, tc := range []struct {
		name  string
		body  string
		links int // read; -1: the body is over the budget
	}{
		{"good-at-limit", linkLine(maxParagraphLinks), maxParagraphLinks},
		{"good-list", items, 40000},
		{"good-paragraphs", linkLine(maxParagraphLinks) + "\n\n" + linkLine(maxParagraphLinks), 2 * maxParagraphLinks},
		{"bad-over-limit", linkLine(maxParagraphLinks + 1), -1},
		{"bad-150k", linkLine(150000), -1},
		{"bad-lines", strings.Repeat("[[a]] [[b]]\n", maxParagraphLinks), -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := lines("---", "title: Flood", "---", "Intro.", "", tc.body)
			n, diags, err := New(Roots{}).Parse("notes/flood.md", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if tc.links >= 0 {
				checkDiags(t, "notes/flood.md", diags, nil)
				if len(n.Links) != tc.links {
					t.Errorf("%d links read, want %d", len(n.Links), tc.links)
				}
				return
			}
			checkDiags(t, "notes/flood.md", diags, []wantDiag{{6, 1, note.Warning, "markdown-cost"}})
			if len(n.Links) != 0 || len(n.Sections) != 1 {
				t.Fatalf("%d links read and %d sections: want none read, the body kept whole", len(n.Links), len(n.Sections))
			}
			if md := n.Sections[0].Markdown; !strings.HasPrefix(md, "Intro.") || !strings.HasSuffix(md, "[[b]]") && !strings.HasSuffix(md, "[[a]]") {
				t.Errorf("the body is not kept whole: %.40q … %q", md, md[max(len(md)-20, 0):])
			}
			if MarkdownWithinBudget(n.Sections[0].Markdown) {
				t.Error("the site would render the body as markdown, not plain text")
			}
		})
	}
}

// BenchmarkParseWikilinks parses a note of one line of n wikilinks: up to
// the limit every link is read, past it the body is kept as plain text.
// ns/link stays flat as n grows (it grew with n, quadratically in all,
// when each link's column was counted from the start of its line).
func BenchmarkParseWikilinks(b *testing.B) {
	p := New(Roots{})
	for _, n := range []int{10000, 40000, 150000} {
		src := []byte(lines("---", "title: Links", "---", linkLine(n)))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, _, err := p.Parse("notes/links.md", src); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/link")
		})
	}
}

// BenchmarkReadWikilinks reads every wikilink of one line of n, past the
// budget that would keep the body as plain text: the reading itself is
// linear.
func BenchmarkReadWikilinks(b *testing.B) {
	md := newMarkdownParser()
	for _, n := range []int{10000, 40000, 150000} {
		src := []byte(linkLine(n) + "\n")
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				w := &walker{s: &state{path: "notes/links.md"}, b: newBody(src, 1)}
				walkText(parseMarkdown(md, src), w.links)
				if len(w.s.n.Links) != n {
					b.Fatalf("%d links read, want %d", len(w.s.n.Links), n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/link")
		})
	}
}
