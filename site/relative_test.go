package site

import "testing"

// TestRelativeLinks: links from the site's root become relative to the
// page; a folder is its index.html where it is a page (href, action) and
// stays a folder where scripts add to it (src, data-src, content);
// anything else is left as it is.
func TestRelativeLinks(t *testing.T) {
	for _, tc := range []struct{ in, up, want string }{
		{`<a href="/episodes/x/">`, "../../", `<a href="../../episodes/x/index.html">`},
		{`<a href="/">`, "../", `<a href="../index.html">`},
		{`<a href="/">`, "", `<a href="index.html">`},
		{`<a href="/episodes/x/#d001">`, "../", `<a href="../episodes/x/index.html#d001">`},
		{`<form action="/search/" method="get">`, "../../", `<form action="../../search/index.html" method="get">`},
		{`<link rel="stylesheet" href="/css/engram.css">`, "../", `<link rel="stylesheet" href="../css/engram.css">`},
		{`<meta name="engram-api" content="/api/v1/">`, "../../", `<meta name="engram-api" content="../../api/v1/">`},
		{`<meta name="engram-api" content="/api/v1/">`, "", `<meta name="engram-api" content="api/v1/">`},
		{`<canvas data-src="/graph/index.json">`, "../", `<canvas data-src="../graph/index.json">`},
		{`<script src="/js/search.js" defer>`, "../", `<script src="../js/search.js" defer>`},
		// Not links from the root: another host, a relative link, an
		// anchor, text that only looks like an attribute.
		{`<a href="//evil.example/x/">`, "../", `<a href="//evil.example/x/">`},
		{`<a href="https://example.com/">`, "../", `<a href="https://example.com/">`},
		{`<a href="#main">`, "../", `<a href="#main">`},
		{`<a href="notes.md">`, "../", `<a href="notes.md">`},
		{`<p>x="/y/"</p>`, "../", `<p>x="/y/"</p>`},
		{`<a title="/t/" href="/u/">`, "../", `<a title="/t/" href="../u/index.html">`},
		{`<a href="/unclosed`, "../", `<a href="/unclosed`},
	} {
		if got := string(relativeLinks([]byte(tc.in), tc.up)); got != tc.want {
			t.Errorf("relativeLinks(%s, %q) = %s, want %s", tc.in, tc.up, got, tc.want)
		}
	}
}
