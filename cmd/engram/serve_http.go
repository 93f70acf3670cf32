package main

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/engramhq/engram/site"
)

// The preview's own files: the live-reload script and the banner's
// stylesheet. The site's policy allows no inline script or style, so
// both are files of the server's origin.
//
//go:embed serve
var serveFiles embed.FS

// assetsPath is where the preview's own files and events are served; no
// page of the site lives there.
const assetsPath = "/_engram/"

// handler serves the current generation: the site with the preview's
// additions, the preview's files, and the reload events.
func (p *preview) handler() http.Handler {
	files, _ := fs.Sub(serveFiles, "serve")
	mux := http.NewServeMux()
	mux.HandleFunc(assetsPath+"events", p.events)
	mux.Handle(assetsPath, withSiteHeaders(http.StripPrefix(assetsPath, http.FileServerFS(files))))
	mux.HandleFunc("/", p.page)
	return mux
}

// withSiteHeaders sends the headers the deployed site gets (site.HeaderRules).
func withSiteHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range site.HeadersFor(r.URL.Path) {
			w.Header()[k] = v
		}
		h.ServeHTTP(w, r)
	})
}

// page serves a file of the current generation, adding the preview's
// stylesheet, banner and script to an HTML page.
func (p *preview) page(w http.ResponseWriter, r *http.Request) {
	g := p.current.Load()
	if g.files == nil {
		p.placeholder(w, r, g)
		return
	}
	// A page's additions change when the build fails though its file did
	// not: every request gets the whole file.
	r = r.Clone(r.Context())
	for _, h := range []string{"If-Modified-Since", "If-None-Match", "If-Range", "Range"} {
		r.Header.Del(h)
	}
	in := &injector{w: w, g: g, head: r.Method == http.MethodHead}
	g.files.ServeHTTP(in, r)
	in.finish()
}

// placeholder is the page of every path until a build succeeds.
func (p *preview) placeholder(w http.ResponseWriter, r *http.Request, g *generation) {
	msg := "Building the site…"
	if g.failed {
		msg = "Nothing to show yet: the build failed. Fix what the list says and save; this page reloads."
	}
	var b bytes.Buffer
	placeholderPage.Execute(&b, msg)
	for k, v := range site.HeadersFor(r.URL.Path) {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusServiceUnavailable)
	if r.Method != http.MethodHead {
		w.Write(inject(b.Bytes(), g))
	}
}

// events streams the version of the generation served, now and after
// every change: a page of another version reloads (serve/reload.js).
func (p *preview) events(w http.ResponseWriter, r *http.Request) {
	for k, v := range site.HeadersFor(r.URL.Path) {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	rc := http.NewResponseController(w)
	for {
		g := p.current.Load()
		if _, err := fmt.Fprintf(w, "event: reload\ndata: %s\n\n", g.version); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-g.changed:
		}
	}
}

// injector holds back an HTML page the site's handler writes, to send
// it with the preview's additions; anything else passes through.
type injector struct {
	w    http.ResponseWriter
	g    *generation
	head bool          // a HEAD request: no body to change
	page *bytes.Buffer // the page held back; nil when passing through
	code int           // the status of the page held back
	sent bool
}

func (in *injector) Header() http.Header { return in.w.Header() }

func (in *injector) WriteHeader(code int) {
	if in.sent {
		return
	}
	in.sent = true
	h := in.w.Header()
	// The site's 404 page gets the additions too: it reloads and shows
	// the banner like any other.
	if (code == http.StatusOK || code == http.StatusNotFound) && strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		h.Del("Last-Modified")
		if !in.head {
			in.page, in.code = new(bytes.Buffer), code
			return
		}
		h.Del("Content-Length")
	}
	in.w.WriteHeader(code)
}

func (in *injector) Write(b []byte) (int, error) {
	if !in.sent {
		in.WriteHeader(http.StatusOK)
	}
	if in.page != nil {
		return in.page.Write(b)
	}
	return in.w.Write(b)
}

// finish sends the page held back, with the additions.
func (in *injector) finish() {
	if in.page == nil {
		return
	}
	body := inject(in.page.Bytes(), in.g)
	in.w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	in.w.WriteHeader(in.code)
	in.w.Write(body)
}

// inject adds to an HTML page the preview's stylesheet and version at
// the end of its head, the banner of problems at the start of its body,
// and the reload script at its end. A page without those tags gets them
// at its end, where a browser still reads them.
func inject(page []byte, g *generation) []byte {
	headEnd := indexOr(page, bytes.Index(page, []byte("</head>")))
	bodyStart := len(page)
	if i := bytes.Index(page, []byte("<body")); i >= 0 {
		if j := bytes.IndexByte(page[i:], '>'); j >= 0 {
			bodyStart = i + j + 1
		}
	}
	bodyEnd := indexOr(page, bytes.LastIndex(page, []byte("</body>")))
	cuts := []struct {
		at   int
		text string
	}{
		{headEnd, `<link rel="stylesheet" href="` + assetsPath + `serve.css">` + "\n" +
			`<meta name="engram-serve" content="` + template.HTMLEscapeString(g.version) + `">` + "\n"},
		{bodyStart, banner(g)},
		{bodyEnd, `<script src="` + assetsPath + `reload.js" defer></script>` + "\n"},
	}
	sort.SliceStable(cuts, func(i, j int) bool { return cuts[i].at < cuts[j].at })
	var b bytes.Buffer
	b.Grow(len(page) + 1024)
	last := 0
	for _, c := range cuts {
		b.Write(page[last:c.at])
		b.WriteString(c.text)
		last = c.at
	}
	b.Write(page[last:])
	return b.Bytes()
}

func indexOr(page []byte, i int) int {
	if i < 0 {
		return len(page)
	}
	return i
}

// banner lists the problems of the latest build; note text in them is
// escaped, never markup.
func banner(g *generation) string {
	if len(g.problems) == 0 {
		return ""
	}
	summary := fmt.Sprintf("%d errors in the notes (engram check lists them too).", len(g.problems))
	if len(g.problems) == 1 {
		summary = "An error in the notes (engram check lists it too)."
	}
	if g.failed {
		summary = "The build failed; this is the last good build."
		if g.dir == "" {
			summary = "The build failed."
		}
	}
	var b strings.Builder
	bannerHTML.Execute(&b, struct {
		Summary  string
		Problems []string
	}{summary, g.problems})
	return b.String()
}

var bannerHTML = template.Must(template.New("banner").Parse(`
<div class="engram-serve-errors" role="alert">
<p><strong>engram serve</strong>: {{.Summary}}</p>
<ul>{{range .Problems}}
<li>{{.}}</li>{{end}}
</ul>
</div>
`))

var placeholderPage = template.Must(template.New("placeholder").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>engram serve</title>
</head>
<body>
<main class="engram-serve-placeholder">
<h1>engram serve</h1>
<p>{{.}}</p>
</main>
</body>
</html>
`))
