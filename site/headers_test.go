package site

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

// TestHeadersFile: the _headers a build writes reads back, in Netlify's
// format, as the rules the preview server sends; a later rule wins.
func TestHeadersFile(t *testing.T) {
	var got []HeaderRule
	sc := bufio.NewScanner(bytes.NewReader(renderHeaders()))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "/"):
			got = append(got, HeaderRule{For: line})
		case strings.HasPrefix(line, "  ") && len(got) > 0:
			name, value, ok := strings.Cut(strings.TrimSpace(line), ": ")
			if !ok {
				t.Fatalf("header line %q has no name: value", line)
			}
			got[len(got)-1].Values = append(got[len(got)-1].Values, Header{name, value})
		default:
			t.Fatalf("line %q is neither a path nor an indented header", line)
		}
	}
	if len(got) != len(HeaderRules) {
		t.Fatalf("_headers has %d rules, want %d", len(got), len(HeaderRules))
	}
	for i := range got {
		if got[i].For != HeaderRules[i].For || len(got[i].Values) != len(HeaderRules[i].Values) {
			t.Errorf("rule %d: %+v, want %+v", i, got[i], HeaderRules[i])
		}
	}
	if h := HeadersFor("/api/v1/bootstrap.md"); h.Get("Content-Type") != "text/markdown; charset=utf-8" || h.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("bootstrap.md headers: %v", h)
	}
	if h := HeadersFor("/css/engram.css"); h.Get("Cache-Control") == HeadersFor("/").Get("Cache-Control") {
		t.Errorf("the stylesheet has the pages' cache rule: %v", h)
	}
}
