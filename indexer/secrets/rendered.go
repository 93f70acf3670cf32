package secrets

import (
	"bytes"
	"html"
)

// Rendered is markdown text as its page shows it, where that differs:
// HTML character references resolved (&#103; is g) and backslash escapes
// dropped (\_ is _). The scan of a build's files reads them as written,
// and the scan of its output reads the pages, which show them rendered;
// what a build keeps of a note besides its pages (the query cache) is
// scanned both ways. It errs towards decoding: an escaped & (\&#103;) is
// decoded too.
func Rendered(text []byte) ([]byte, bool) {
	if !bytes.ContainsAny(text, `&\`) {
		return nil, false
	}
	out := []byte(html.UnescapeString(string(text)))
	w := 0
	for r := 0; r < len(out); r++ {
		if out[r] == '\\' && r+1 < len(out) && isPunct(out[r+1]) {
			r++
		}
		out[w] = out[r]
		w++
	}
	out = out[:w]
	return out, !bytes.Equal(out, text)
}

// isPunct is CommonMark's ASCII punctuation, which a backslash escapes.
func isPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}
