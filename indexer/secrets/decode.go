package secrets

import (
	"encoding/base64"
	"strings"
)

// encodedLines calls fn with the byte offset of every place where
// gitleaks' decoder (detect/codec) would decode something. Runs of
// letters, digits, hyphens and slashes are everywhere in notes and pages
// (dates, slugs, commit hashes) and almost none decode, so these are
// segmented and tried as gitleaks does: at the start of a run, 32 or
// more hex digits are a hex segment, else 16 or more characters (and up
// to two '=') are a base64 segment, each kept only if it decodes to
// printable ASCII. Percent and unicode escapes are rare: any counts.
func encodedLines(text string, fn func(at int)) {
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '%' && i+2 < len(text) && isHex(text[i+1]) && isHex(text[i+2]):
			fn(i)
		case c == '\\' && i+1 < len(text) && (text[i+1] == 'u' || text[i+1] == 'U'):
			fn(i)
		case isB64(c):
			j := i
			for j < len(text) && isB64(text[j]) {
				if text[j] == '+' && j > 0 && text[j-1] == 'U' {
					fn(j) // a unicode code point, U+XXXX
				}
				j++
			}
			segments(text, i, j, fn)
			i = j - 1
		}
	}
}

// segments splits the run text[i:j] as gitleaks' encoding expression does.
func segments(text string, i, j int, fn func(at int)) {
	for p := i; p < j; {
		h := p
		for h < j && isHex(text[h]) {
			h++
		}
		if h-p >= 32 {
			if hexDecodes(text[p:h]) {
				fn(p)
			}
			p = h
			continue
		}
		if j-p >= 16 {
			end := j
			for end < len(text) && end < j+2 && text[end] == '=' {
				end++
			}
			if b64Decodes(text[p:end]) {
				fn(p)
			}
		}
		return
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isB64(c byte) bool { return b64Chars[c] }

// b64Chars are the characters of gitleaks' base64 segments, [\w/+-].
var b64Chars = func() (t [256]bool) {
	for _, c := range []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/+-") {
		t[c] = true
	}
	return t
}()

// hexDecodes is gitleaks' decodeHex without keeping the result.
func hexDecodes(s string) bool {
	if len(s)%2 != 0 || !strings.ContainsAny(s, "0123456789") {
		return false
	}
	for i := 0; i < len(s); i += 2 {
		if b := unhex(s[i])<<4 | unhex(s[i+1]); b <= '\x08' || b >= '\x7f' {
			return false
		}
	}
	return true
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// b64Decodes is gitleaks' decodeBase64 without keeping the result. Most
// runs are paths and slugs, which mix the two alphabets' own characters
// (- and /) and are dismissed before decoding.
func b64Decodes(s string) bool {
	var seen byte
	for i := 0; i < len(s); i++ {
		seen |= b64Kind[s[i]]
	}
	if seen&likely == 0 {
		return false
	}
	std := seen&urlOnly == 0 && len(s)%4 == 0
	url := seen&(stdOnly|pad) == 0 && len(s)%4 != 1
	for _, enc := range []struct {
		ok bool
		e  *base64.Encoding
	}{{std, base64.StdEncoding}, {url, base64.RawURLEncoding}} {
		if !enc.ok {
			continue
		}
		if b, err := enc.e.DecodeString(s); err == nil && printable(b) {
			return true
		}
	}
	return false
}

// What a character tells of a base64 candidate: gitleaks tries only
// candidates with a likely character (a digit or one of +/-_); - and _
// are only in the URL alphabet, + and / only in the standard one, =
// only pads the standard one.
const (
	likely = 1 << iota
	urlOnly
	stdOnly
	pad
)

var b64Kind = func() (t [256]byte) {
	for c := '0'; c <= '9'; c++ {
		t[c] = likely
	}
	t['-'], t['_'] = likely|urlOnly, likely|urlOnly
	t['+'], t['/'] = likely|stdOnly, likely|stdOnly
	t['='] = pad
	return t
}()

func printable(b []byte) bool {
	for _, c := range b {
		if c <= '\x08' || c >= '\x7f' {
			return false
		}
	}
	return true
}
