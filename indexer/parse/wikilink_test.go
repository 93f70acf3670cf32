package parse

import (
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

func TestWikilink(t *testing.T) {
	for _, c := range []struct {
		in   string
		want note.Link
		size int
	}{
		{"[[Note]]", note.Link{Target: "Note"}, 8},
		{"[[ Note | the note ]] and more", note.Link{Target: "Note", Alias: "the note"}, 21},
		{"[[Note#Heading|alias]]", note.Link{Target: "Note", Heading: "Heading", Alias: "alias"}, 22},
		{"[[]]", note.Link{}, 4},
		{"[[a]b]]", note.Link{}, 0},
		{"[[a[b]]", note.Link{}, 0},
		{"[[a\nb]]", note.Link{}, 0},
		{"[[a]", note.Link{}, 0},
		{"x [[a]]", note.Link{}, 0},
		{"[a]]", note.Link{}, 0},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, size := Wikilink([]byte(c.in))
			if got != c.want || size != c.size {
				t.Errorf("Wikilink(%q) = %+v, %d; want %+v, %d", c.in, got, size, c.want, c.size)
			}
		})
	}
}

// TestWikilinkAgreesWithItems: a wikilink at the start of a line is one
// the parse stage finds in an item, with the same target.
func TestWikilinkAgreesWithItems(t *testing.T) {
	for _, s := range []string{"[[A]]", "[[A|b]] c", "[[A#h]]", "[[ A ]]", "[[A]] [[B]]", "[[a[b]]"} {
		t.Run(s, func(t *testing.T) {
			l, size := Wikilink([]byte(s))
			m := wikilinkRE.FindStringSubmatchIndex(s)
			if (size > 0) != (m != nil && m[0] == 0) {
				t.Fatalf("Wikilink(%q) size %d, regexp match %v", s, size, m)
			}
			if size > 0 && (size != m[1] || l != splitLink(s[m[2]:m[3]])) {
				t.Errorf("Wikilink(%q) = %+v, %d; the parse stage reads %q", s, l, size, s[m[2]:m[3]])
			}
		})
	}
}
