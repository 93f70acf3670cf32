package parse

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/note"
)

// fuzzSeeds are inputs that have broken parsers of this kind before:
// delimiters without bodies, line endings, code, empty links, caps.
var fuzzSeeds = []string{
	"",
	"---",
	"---\n",
	"---\n---",
	"---\n---\n",
	"+++\n+++\n",
	"---\n...\n",
	"\uFEFF---\r\ntitle: x\r\n---\r\n## Observations\r\n\r\n- [a] b\r\n",
	"---\ntitle: [unclosed\n---\n",
	"---\n- a\n---\n",
	"---\na: &a [1]\nb: *a\n---\n",
	"---\nx: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n---\n",
	"---\nx: \"]]]]]]]]]]\"\ny: [[[[1]]]]\n---\n",
	"---\nx: !!float nan\n---\n",
	"\n \t\n---\nprivate: true\n---\n",
	"\r\n+++\nPrivate = true\n+++\n",
	"---\nprivte: false\nprivate: maybe\nprivate: true\ntitle: 0777\ntags: [1.10, 0x1F]\n---\n",
	"+++\nx = nan\n[a.b.c]\nd = 1979-05-27T07:32:00\n+++\n",
	"---\ntype: episode\noutcome: no\n---\n## Decisions\n### :\n- **Type**:\n## Events Timeline\n- []\n- [x] y #\n",
	"---\ntype: pattern\n---\n## Causal Relationships\n- causes [[]] (weight 1e309)\n- \"\" [[x]]\n## Evidence Episodes\n- [[x]]\n- [[|]] - success\n",
	"[[]] [[|]] [[#]] `[[a]]` ``[[b]]` [[c]]``\n",
	"Title\n---\n\n## Heading\n===\n",
	"- [ ]\n- [x]\n- []\n- [a:]\n- [:b] c\n- [a](b)\n",
	"```\n[[a]]\n",
	"a\x00b",
	"a\xffb\r\n\xfe",
	"\r\r\n\n\r",
	"## Context\n\n{{< shortcode >}}\n",
	// Every way a note may open front matter (SPEC §6).
	"{\"title\": \"J\", \"private\": true}\nbody\n",
	"{\n\"a\": {\"b\": [1, 2.5, 1e400, 99999999999999999999, null]}\n}\n",
	"{\"a\": \"}\\\"{\"} tail\n",
	"{\"a\":1,\"a\":2}",
	"{",
	"{}",
	"{TODO}\n",
	"{{< x >}}\n",
	"----\nprivate: true\n----\n",
	"++++\nprivate = true\n+++\n",
	"<!-- c -->\n---\nprivate: true\n---\n",
	"<!--\n---\ntitle: x\n---\n-->\nbody\n",
	"<!--\n---\n",
	"<!-- a --> b\n---\nprivate: true\n---\n",
	"\u200b---\nprivate: true\n---\n",
	"\n\ufeff---\nprivate: true\n-\u2060--\n",
	"\u2028\u2029---\nx: 1\n---",
	"---\nnull\n---\n",
}

func FuzzParse(f *testing.F) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil {
		f.Fatal(err)
	}
	for _, in := range inputs {
		src, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(0), src)
		f.Add(uint8(1), bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n")))
	}
	for i, s := range fuzzSeeds {
		f.Add(uint8(i), []byte(s))
	}
	p := New(Roots{})
	f.Fuzz(func(t *testing.T, where uint8, src []byte) {
		// The folder decides the kind when the front matter does not, so
		// episode and pattern sections get fuzzed too.
		path := []string{"notes/fuzz.md", "episodes/fuzz.md", "patterns/fuzz.md"}[where%3]
		n, diags, err := p.Parse(path, src)
		first := canonical(t, n, diags, err)
		n2, diags2, err2 := p.Parse(path, src)
		if again := canonical(t, n2, diags2, err2); again != first {
			t.Fatalf("Parse is not deterministic:\n%s\n%s", first, again)
		}
		checkParse(t, path, src, n, diags, err)
	})
}

// canonical is a comparable rendering of a Parse result. It must be JSON:
// the export stage writes notes as JSON, and a value JSON cannot hold would
// fail the whole build.
func canonical(t *testing.T, n note.Note, diags []note.Diagnostic, err error) string {
	t.Helper()
	errText := ""
	if err != nil {
		errText = err.Error()
	}
	b, jerr := json.Marshal(struct {
		Note  note.Note
		Diags []note.Diagnostic
		Err   string
	}{n, diags, errText})
	if jerr != nil {
		t.Fatalf("result is not JSON: %v", jerr)
	}
	return string(b)
}

// checkParse asserts what holds for any input: positions inside the file,
// every diagnostic named, refusals explained, titles printable.
func checkParse(t *testing.T, path string, src []byte, n note.Note, diags []note.Diagnostic, err error) {
	t.Helper()
	lineCount := countLines(src)
	for _, d := range diags {
		if d.Path != path || d.Rule == "" || d.Message == "" {
			t.Errorf("diagnostic without path, rule or message: %#v", d)
		}
		if d.Line < 0 || d.Col < 0 || d.Line > lineCount {
			t.Errorf("diagnostic %v outside the file's %d lines", d, lineCount)
		}
		if d.Line > 0 && d.Rule != "frontmatter-toml" && d.Col > runesOnLine(src, d.Line)+1 {
			t.Errorf("diagnostic %v past the end of line %d", d, d.Line)
		}
	}
	if err != nil {
		if !errors.Is(err, errUnpublishable) {
			t.Fatalf("Parse returned %v; only ErrUnpublishable is allowed", err)
		}
		if note.CountErrors(diags) == 0 {
			t.Fatal("a refused note has no error diagnostic saying why")
		}
		return
	}
	if !n.Private {
		// Privacy fails closed: a published note's front matter was read,
		// and names no key that looks like "private".
		for _, d := range diags {
			if d.Severity == note.Error && (unreadableRules[d.Rule] || d.Rule == "private-value") {
				t.Errorf("note published despite %v", d)
			}
		}
		for k := range n.Extra {
			if NearPrivacyKey(k) {
				t.Errorf("note published with key %q", k)
			}
		}
	}
	if n.Title == "" || strings.ContainsFunc(n.Title, unicode.IsControl) {
		t.Errorf("title %q is empty or holds control characters", n.Title)
	}
	for _, pos := range positions(n) {
		if pos[0] < 1 || pos[0] > lineCount || pos[1] < 0 {
			t.Errorf("note element at %d:%d outside the file's %d lines", pos[0], pos[1], lineCount)
		}
	}
}

// splitLines splits src at LF, CRLF and lone CR, the line endings of YAML
// and CommonMark.
func splitLines(src []byte) [][]byte {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
	return bytes.Split(src, []byte("\n"))
}

// countLines is the number of lines of src, counting an empty last line
// after a final line ending: the largest line a position may name.
func countLines(src []byte) int { return len(splitLines(src)) }

// runesOnLine counts the characters of 1-based line l of src, as the
// parser does after dropping the BOM: an upper bound for a column.
func runesOnLine(src []byte, l int) int {
	ls := splitLines(src)
	if l > len(ls) {
		return 0
	}
	return utf8.RuneCount(ls[l-1])
}

// positions lists the line and column of every positioned part of a note
// (column 0 where the part has none).
func positions(n note.Note) [][2]int {
	var out [][2]int
	for _, s := range n.Sections {
		out = append(out, [2]int{s.Line, 0})
	}
	for _, o := range n.Observations {
		out = append(out, [2]int{o.Line, 0})
	}
	for _, r := range n.Relations {
		out = append(out, [2]int{r.Line, r.Col})
	}
	for _, l := range n.Links {
		out = append(out, [2]int{l.Line, l.Col})
	}
	if e := n.Episode; e != nil {
		for _, d := range e.Decisions {
			out = append(out, [2]int{d.Line, 0})
			for _, l := range d.Effects {
				out = append(out, [2]int{l.Line, l.Col})
			}
		}
		for _, ev := range e.Events {
			out = append(out, [2]int{ev.Line, 0})
		}
		for _, l := range e.Lessons {
			out = append(out, [2]int{l.Line, 0})
		}
	}
	if p := n.Pattern; p != nil {
		for _, c := range p.Causal {
			out = append(out, [2]int{c.Line, c.Col})
		}
		for _, e := range p.Evidence {
			out = append(out, [2]int{e.Line, e.Col})
		}
	}
	return out
}

// FuzzFrontMatter drives the front matter splitter and both decoders
// directly, without the cleaning Parse does first.
func FuzzFrontMatter(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		"title: x\ntags: [a, b]\nmetrics:\n  a: 1\n",
		"a: 1\na: 2\n",
		"a: |x\n",
		"<<: *x\n",
		"title = \"x\"\n[metrics]\na = 1\n",
		"a = 1\na = 2\n",
		"a = [[[[1]]]]\n",
		"a = {b = {c = {d = 1}}}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if blk, ok, problem := splitFrontMatter(src); ok {
			checkBlock(t, src, blk, problem)
		}
		if len(src) > MaxFrontMatterBytes {
			return // Parse never hands a decoder more
		}
		// Parse hands decoders valid UTF-8 only; "\xfe\xff" would be a
		// UTF-16 byte order mark to yaml.v3.
		text := bytes.ToValidUTF8(src, []byte("\uFFFD"))
		// The text sits between the delimiter lines; errors at the end of
		// the input point at the closing one.
		lineCount := countLines(text) + 2
		blk := fmBlock{text: text, openLine: 1, firstRow: 2}
		for _, decode := range []func(fmBlock) (frontMatter, []fmError){decodeYAML, decodeTOML, decodeJSON} {
			fm, errs := decode(blk)
			checkDecoded(t, fm, errs, lineCount)
		}
	})
}

func checkBlock(t *testing.T, src []byte, blk fmBlock, problem *fmError) {
	t.Helper()
	if problem != nil {
		t.Fatalf("split found front matter and a problem %+v", problem)
	}
	if blk.format != "yaml" && blk.format != "toml" && blk.format != "json" {
		t.Fatalf("format %q", blk.format)
	}
	if blk.bodyOff < 0 || blk.bodyOff > len(src) || blk.openLine < 1 || blk.firstRow < blk.openLine || blk.bodyLine < blk.firstRow {
		t.Fatalf("block out of range: %+v (len %d)", blk, len(src))
	}
	// Only blank lines, invisible characters and HTML comments come
	// before the opening line, which is a fence or opens a JSON object.
	ls := bytes.SplitAfter(src, []byte("\n"))
	start := 0
	for _, l := range ls[:blk.openLine-1] {
		start += len(l)
	}
	before := htmlCommentRE.ReplaceAll(src[:start], nil)
	if s, _, _ := shown(before); len(bytes.TrimSpace(bytes.ReplaceAll(s, []byte("<!--"), nil))) > 0 {
		t.Fatalf("text %q before the front matter", s)
	}
	open, _, _ := shown(ls[blk.openLine-1])
	c, _ := fenceOf(open)
	switch {
	case blk.format == "json":
		if !opensJSON(open) || !bytes.HasPrefix(blk.text, []byte("{")) || !bytes.HasSuffix(blk.text, []byte("}")) {
			t.Fatalf("JSON front matter %q on line %q", blk.text, open)
		}
	case c == 0 || blk.firstRow != blk.openLine+1:
		t.Fatalf("line %d, %q, is not a fence", blk.openLine, open)
	case !bytes.HasPrefix(src[start+len(ls[blk.openLine-1]):], blk.text):
		t.Fatalf("front matter text %q is not the text after the opening fence", blk.text)
	}
	// The body starts on bodyLine, unless the closing delimiter ended the
	// file without a newline, when there is no body line at all.
	nl := bytes.Count(src[:blk.bodyOff], []byte("\n"))
	if want := nl + 1; blk.bodyLine != want && !(blk.bodyOff == len(src) && blk.bodyLine == nl+2) {
		t.Fatalf("body line %d, but %d newlines precede the body", blk.bodyLine, nl)
	}
}

// htmlCommentRE is a closed HTML comment.
var htmlCommentRE = regexp.MustCompile(`(?s)<!--.*?-->`)

func checkDecoded(t *testing.T, fm frontMatter, errs []fmError, lineCount int) {
	t.Helper()
	for _, e := range errs {
		if e.rule == "" || e.msg == "" || e.line < 1 || e.line > lineCount || e.col < 0 {
			t.Errorf("front matter error %+v outside lines 1..%d or unnamed", e, lineCount)
		}
	}
	for k, l := range fm.lines {
		if l < 1 || l > lineCount {
			t.Errorf("key %q on line %d, outside 1..%d", k, l, lineCount)
		}
	}
	if _, err := json.Marshal(fm.values); err != nil {
		t.Errorf("decoded front matter is not JSON: %v", err)
	}
}
