package site

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"
)

// A site built without a base URL (export.Site.RelativeLinks) must work opened
// from disk (file://) and served under any path (SPEC §4): Hugo renders it
// with links from the site's root ("/episodes/x/"), and relativeFs, Hugo's
// destination, rewrites them in each HTML page as Hugo writes it, relative
// to that page and naming index.html, which a browser opens from disk
// where it would list a folder ("../../episodes/x/index.html").

// rootLinkAttrs are the attributes whose values are links in the pages the
// templates make, and whether a folder they name is a page; each is written as name="value" (html/template quotes
// every attribute, goldmark and engram's renderers too), and a value that
// starts with "/" (but not "//") is a link from the site's root.
// A link to a folder in href or action is to its page, index.html; in src,
// data-src or content (the engram-api meta) a folder stays one: the
// scripts add file names to it.
var rootLinkAttrs = map[string]bool{" href": true, " action": true, " src": false, " data-src": false, " content": false}

// relativeFs writes files into the publish directory root, rewriting
// the links of every .html file.
type relativeFs struct {
	afero.Fs
	root string
}

func (f relativeFs) Create(name string) (afero.File, error) {
	file, err := f.Fs.Create(name)
	if err != nil || !f.relative(name) {
		return file, err
	}
	return &relativeFile{File: file, up: upToRoot(f.root, name)}, nil
}

func (f relativeFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	file, err := f.Fs.OpenFile(name, flag, perm)
	if err != nil || flag&(os.O_WRONLY|os.O_RDWR) == 0 || !f.relative(name) {
		return file, err
	}
	return &relativeFile{File: file, up: upToRoot(f.root, name)}, nil
}

// relative reports whether the links of the file name are made relative:
// those of every HTML page but the 404 page at the root. A host serves
// that one at whatever address was missing (/episodes/x/y/z/), where a
// link relative to the root would not resolve; its links stay from the
// site's root, right where the site is served at the host's root. Opened
// from disk, or served under a path, it is unstyled: docs/publishing.md.
func (f relativeFs) relative(name string) bool {
	return strings.HasSuffix(name, ".html") && filepath.Clean(name) != filepath.Join(f.root, "404.html")
}

// upToRoot is the path from the folder of file to root: "" or "../../".
func upToRoot(root, file string) string {
	rel, err := filepath.Rel(root, file)
	if err != nil {
		return ""
	}
	return strings.Repeat("../", strings.Count(filepath.ToSlash(rel), "/"))
}

// relativeFile keeps what Hugo writes and writes it relativised on Close.
type relativeFile struct {
	afero.File
	up  string
	buf bytes.Buffer
}

func (f *relativeFile) Write(p []byte) (int, error)       { return f.buf.Write(p) }
func (f *relativeFile) WriteString(s string) (int, error) { return f.buf.WriteString(s) }

func (f *relativeFile) Close() error {
	_, err := f.File.Write(relativeLinks(f.buf.Bytes(), f.up))
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	return err
}

// relativeLinks rewrites every link from the site's root in page (see
// rootLinkAttrs) relative to the page, up being the path from the page's
// folder to the root: "/x/" becomes up+"x/index.html" (in src, data-src
// or content up+"x/"), "/" up+"index.html", "/css/a.css" up+"css/a.css";
// a query or fragment is kept.
func relativeLinks(page []byte, up string) []byte {
	var out bytes.Buffer
	out.Grow(len(page) + len(page)/16)
	mark := []byte(`="/`)
	for {
		at := bytes.Index(page, mark)
		if at < 0 {
			out.Write(page)
			return out.Bytes()
		}
		start := at + len(mark) - 1 // the value's "/"
		end := bytes.IndexByte(page[start:], '"')
		toPage, isLink := linkAttr(page[:at])
		if end < 0 || !isLink || (start+1 < len(page) && page[start+1] == '/') {
			out.Write(page[:start+1])
			page = page[start+1:]
			continue
		}
		out.Write(page[:start])
		out.WriteString(relativeLink(string(page[start:start+end]), up, toPage))
		page = page[start+end:]
	}
}

// linkAttr reports whether before ends with the name of a link attribute,
// and whether that attribute's folder is a page.
func linkAttr(before []byte) (toPage, ok bool) {
	for a, page := range rootLinkAttrs {
		if bytes.HasSuffix(before, []byte(a)) {
			return page, true
		}
	}
	return false, false
}

// relativeLink is link (from the site's root) relative to a page up
// folders below the root; toPage names a folder's index.html.
func relativeLink(link, up string, toPage bool) string {
	p, rest := link[1:], ""
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p, rest = p[:i], p[i:]
	}
	if toPage && (p == "" || strings.HasSuffix(p, "/")) {
		p += "index.html"
	}
	if p == "" && up == "" {
		p = "./"
	}
	return up + p + rest
}
