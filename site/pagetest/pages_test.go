package pagetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/net/html"

	"github.com/engramhq/engram/site/browsertest"
)

// build builds the memory repository repo into a temporary folder, as a
// deployed site is, and returns the folder.
func build(t *testing.T, repo string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "public")
	browsertest.Build(t, repo, out, "/")
	return out
}

// realSnapshots are the ai-agents snapshots the issue measured on.
var realSnapshots = []struct{ name, repo string }{
	{"newest", "../../../shared/corpus/real/ai-agents"},
	{"316ed2f2d41c", "../../../shared/corpus/real/ai-agents@316ed2f2d41c"},
}

// realRepo is the snapshot's folder, or skips the test when the corpus
// is not here.
func realRepo(t *testing.T, repo string) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(repo, ".agents", "memory")); err != nil {
		t.Skipf("the real-data corpus (../shared/corpus/real) is not here: %v", err)
	}
	return repo
}

// pages parses every index.html under dir/sub.
func pages(t *testing.T, dir, sub string) map[string]*html.Node {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, sub, "*", "index.html"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no pages in %s: %v", sub, err)
	}
	out := make(map[string]*html.Node, len(paths))
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[filepath.Base(filepath.Dir(p))] = doc
	}
	return out
}

// find is every element under n named tag with the class class ("" for
// any), in document order.
func find(n *html.Node, tag, class string) []*html.Node {
	var out []*html.Node
	for c := range n.Descendants() {
		if c.Type == html.ElementNode && c.Data == tag && (class == "" || hasClass(c, class)) {
			out = append(out, c)
		}
	}
	return out
}

func hasClass(n *html.Node, class string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" && strings.Contains(" "+a.Val+" ", " "+class+" ") {
			return true
		}
	}
	return false
}

// text is what a reader reads of n: its text, spaces collapsed.
func text(n *html.Node) string {
	var b strings.Builder
	for c := range n.Descendants() {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// words is s in lower case without punctuation: two texts that say the
// same thing have the same words.
func words(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ")
}

// repeats reports whether a says again what b says: a's words, at least
// a few of them, are among b's, in order.
func repeats(a, b string) bool {
	wa := words(a)
	return strings.Count(wa, " ") >= 2 && strings.Contains(" "+words(b)+" ", " "+wa+" ")
}
