package note

import (
	"regexp"
	"strings"
)

// meaningless matches the identifiers that carry no meaning as words
// (SPEC §3: similar episodes leave them out, and graph health does not
// count them as words), each unique to one note or shared by chance: UUIDs; ISO 8601 dates and timestamps (2026-07-16,
// 2026-07-16T00:00:00+00:00) and times of day (17:55:44.23); and runs of
// 7 or more hex digits (commit SHAs, hashes, hex ids), which noHex then
// keeps when they are a plain number or a word. Ordinary numbers (PR
// 2829, 404, Python 3.10, ed25519 aside) stay: they can mean something.
var meaningless = regexp.MustCompile(`(?i)` +
	`\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b` +
	`|\b\d{4}-\d\d-\d\d(?:[t ]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:z\b|[+-]\d\d(?::?\d\d)?\b)?)?\b` +
	`|\b\d\d?:\d\d:\d\d(?:[.,]\d+)?(?:z\b|[+-]\d\d(?::?\d\d)?\b)?` +
	`|\b[0-9a-f]{7,}\b`)

// WithoutIdentifiers returns text with its meaningless identifiers
// blanked out.
func WithoutIdentifiers(text string) string {
	if !strings.ContainsAny(text, "0123456789") {
		return text // every identifier above has a digit, or is a word
	}
	return meaningless.ReplaceAllStringFunc(text, func(m string) string {
		if len(m) <= 40 && !identifier(m) {
			return m
		}
		return " "
	})
}

// IsHexID reports whether a word is a commit SHA or another hex id: seven
// or more hex digits with at least one digit and one letter, or more hex
// digits than a SHA-1 has.
func IsHexID(w string) bool {
	if len(w) < 7 {
		return false
	}
	for _, c := range w {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return len(w) > 40 || identifier(w)
}

// identifier says whether a match is an identifier: a UUID, date or time
// (they have a separator), or hex digits with at least one digit and one
// letter; a run of digits alone is a number and letters alone a word
// ("deadbeef" aside), unless it is longer than a SHA-1.
func identifier(m string) bool {
	digit, letter := false, false
	for _, c := range m {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
			letter = true
		default:
			return true // a separator: UUID, date, time
		}
	}
	return digit && letter
}
