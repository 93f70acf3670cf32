package parse

import (
	"regexp"

	"github.com/engramhq/engram/indexer/note"
)

// leadingWikilinkRE is wikilinkRE held to the start of the text. The
// anchor also keeps it linear: it reads no further than the first bracket
// after "[[", however many more the line holds.
var leadingWikilinkRE = regexp.MustCompile(`^` + wikilinkRE.String())

// Wikilink reads the wikilink that b starts with, "[[Target#heading|alias]]",
// by the grammar the notes are parsed with, so that the site renders as
// links exactly what the graph stage resolved. size is its length in bytes,
// 0 when b does not start with one; the target of "[[]]" is empty.
func Wikilink(b []byte) (l note.Link, size int) {
	m := leadingWikilinkRE.FindSubmatchIndex(b)
	if m == nil {
		return note.Link{}, 0
	}
	return splitLink(string(b[m[2]:m[3]])), m[1]
}
