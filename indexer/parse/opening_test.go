package parse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

// private checks that the note is withheld and its body kept.
func private(t *testing.T, n note.Note) {
	t.Helper()
	if !n.Private {
		t.Error("the note says private: true and is not withheld")
	}
	keptBody(t, n)
}

// publicAs checks that the front matter was read: the note has its title
// and is public, its body kept without the front matter.
func publicAs(title string) func(*testing.T, note.Note) {
	return func(t *testing.T, n note.Note) {
		t.Helper()
		wantTitle(title)(t, n)
		if n.Private {
			t.Error("a public note is withheld")
		}
		keptBody(t, n)
		for _, s := range n.Sections {
			if strings.Contains(s.Markdown, "title") || strings.Contains(s.Markdown, "-->") {
				t.Errorf("front matter left in the body: %q", s.Markdown)
			}
		}
	}
}

// TestFrontMatterJSON: JSON front matter is read as Hugo reads it, its
// "private" key included; JSON that cannot be read withholds the note.
func TestFrontMatterJSON(t *testing.T) {
	runBadCases(t, []badCase{
		{name: "good", src: lines(`{"title": "J", "tags": ["a", "b"]}`, keptText), check: publicAs("J")},
		{name: "good-private", src: lines(`{"title": "J", "private": true}`, keptText), check: private},
		{name: "good-pretty", src: lines("{", `  "title": "Pretty",`, `  "private": false,`, `  "metrics": {"a": 1}`, "}", keptText), check: publicAs("Pretty")},
		{name: "good-after-blank", src: lines("", `{"private": true}`, keptText),
			want: []wantDiag{{2, 1, note.Warning, "frontmatter-leading-blank"}}, check: private},
		{name: "good-brace-in-string", src: lines(`{"title": "a } and \" {", "private": true}`, keptText), check: private},
		{name: "good-field-line", path: "episodes/j.md", src: lines("{", `  "title": "EP",`, `  "outcome": "maybe",`, `  "task": "t"`, "}", keptText),
			want: []wantDiag{{3, 1, note.Error, "episode-outcome"}}},
		{name: "bad-syntax", src: lines(`{"title": "J", "private": true,}`, keptText),
			want: []wantDiag{{1, -1, note.Error, "frontmatter-json"}}, check: fromFileName("bad-syntax")},
		{name: "bad-not-json", src: lines("{TODO} write this note", keptText),
			want: []wantDiag{{1, -1, note.Error, "frontmatter-json"}}},
		{name: "bad-unclosed", src: lines(`{"title": "J", "private": true`, keptText),
			want: []wantDiag{{1, 1, note.Error, "frontmatter-unclosed"}}, check: fromFileName("bad-unclosed")},
		{name: "bad-duplicate", src: lines("{", `"private": false,`, `"private": true`, "}", keptText),
			want: []wantDiag{{3, 1, note.Error, "frontmatter-duplicate-key"}, {2, 1, note.Warning, "private-key"}}, check: private},
		{name: "good-at-depth", src: lines(`{"title": "Deep", "x": `+strings.Repeat("[", MaxDepth-1)+"1"+strings.Repeat("]", MaxDepth-1)+"}", keptText), check: publicAs("Deep")},
		{name: "bad-deep", src: lines(`{"private": false, "x": `+strings.Repeat("[", MaxDepth)+"1"+strings.Repeat("]", MaxDepth)+"}", keptText),
			want: []wantDiag{{1, -1, note.Error, "frontmatter-depth"}}, check: private},
		{name: "bad-empty", src: lines("{}", keptText), want: []wantDiag{{1, 1, note.Warning, "frontmatter-empty"}}, check: fromFileName("bad-empty")},
		{name: "text-template", src: lines("{{< note >}} is text", keptText), check: fromFileName("text-template")},
	})
}

// TestFrontMatterJSONValues: JSON values are what YAML's would be, and
// numbers keep the text they were written as.
func TestFrontMatterJSONValues(t *testing.T) {
	src := lines(`{"title": 1.10, "type": "episode", "outcome": "success", "task": "t", "tags": [1.10, "x", true],`,
		`"metrics": {"tool_calls": 3}, "big": 9007199254740993, "huge": 123456789012345678901234567890, "nested": {"a": [1, {"b": null}]}}`)
	n, diags, err := New(Roots{}).Parse("notes/values.md", []byte(src))
	if err != nil || len(diags) > 0 {
		t.Fatalf("Parse: %v %v", err, diags)
	}
	if n.Title != "1.10" || strings.Join(n.Tags, ",") != "1.10,x,true" || n.Episode.Metrics["tool_calls"] != 3 {
		t.Errorf("title %q, tags %q, metrics %v: want 1.10, [1.10 x true], tool_calls 3", n.Title, n.Tags, n.Episode.Metrics)
	}
	want := `map[big:9007199254740993 huge:123456789012345678901234567890 nested:map[a:[1 map[b:<nil>]]]]`
	if got := fmt.Sprint(n.Extra); got != want {
		t.Errorf("extra = %s, want %s", got, want)
	}
	if _, ok := n.Extra["big"].(int64); !ok {
		t.Errorf("a whole number is %T, want int64", n.Extra["big"])
	}
}

// TestFrontMatterFences: fences of more than three dashes or pluses open
// front matter, with a warning; never text that publishes "private: true".
func TestFrontMatterFences(t *testing.T) {
	runBadCases(t, []badCase{
		{name: "good-four", src: lines("----", "title: Four", "----", keptText),
			want: []wantDiag{{1, 1, note.Warning, "frontmatter-fence"}, {3, 1, note.Warning, "frontmatter-fence"}}, check: publicAs("Four")},
		{name: "good-private", src: lines("----", "private: true", "----", keptText),
			want: []wantDiag{{1, 1, note.Warning, "frontmatter-fence"}, {3, 1, note.Warning, "frontmatter-fence"}}, check: private},
		{name: "good-mixed", src: lines("-----", "private: true", "---", keptText),
			want: []wantDiag{{1, 1, note.Warning, "frontmatter-fence"}}, check: private},
		{name: "good-toml", src: lines("++++", "private = true", "+++", keptText),
			want: []wantDiag{{1, 1, note.Warning, "frontmatter-fence"}}, check: private},
		{name: "good-indented-fence-is-text", src: lines("---", "title: Indented", "text: |", "  ----", "---", keptText), check: publicAs("Indented")},
		{name: "bad-unclosed", src: lines("----", "private: true", keptText),
			want: []wantDiag{{1, 1, note.Error, "frontmatter-unclosed"}}, check: fromFileName("bad-unclosed")},
	})
}

// TestFrontMatterAfterComment: front matter after an HTML comment, or in
// one (Hugo's commented-out front matter), is read, with a warning.
func TestFrontMatterAfterComment(t *testing.T) {
	runBadCases(t, []badCase{
		{name: "good-one-line", src: lines("<!-- draft -->", "---", "private: true", "---", keptText),
			want: []wantDiag{{1, 1, note.Warning, "frontmatter-leading-comment"}}, check: private},
		{name: "good-lines", src: lines("", "<!--", "  a comment", "-->", "", "---", "title: After", "---", keptText),
			want: []wantDiag{{2, 1, note.Warning, "frontmatter-leading-comment"}}, check: publicAs("After")},
		{name: "good-commented-out", src: lines("<!--", "---", "title: Inside", "---", "-->", keptText),
			want: []wantDiag{{1, 1, note.Warning, "frontmatter-leading-comment"}}, check: publicAs("Inside")},
		{name: "good-commented-out-private", src: lines("<!--", "+++", "private = true", "+++", "-->", keptText),
			want: []wantDiag{{1, 1, note.Warning, "frontmatter-leading-comment"}}, check: private},
		{name: "good-commented-out-json", src: lines("<!--", `{"private": true}`, "", "-->", keptText),
			want: []wantDiag{{1, 1, note.Warning, "frontmatter-leading-comment"}}, check: private},
		{name: "good-comment-then-json", src: lines("<!-- x -->", `{"private": true}`, keptText),
			want: []wantDiag{{1, 1, note.Warning, "frontmatter-leading-comment"}}, check: private},
		{name: "text-after-comment", src: lines("<!-- x --> Text", "---", "title: no", "---", keptText), check: fromFileName("text-after-comment")},
		{name: "text-comment-with-example", src: lines("<!--", "An example:", "---", "title: no", "---", "-->", keptText), check: fromFileName("text-comment-with-example")},
	})
}

// TestFrontMatterAfterInvisible: characters that show nothing before the
// opening fence, or on it, do not turn front matter into text.
func TestFrontMatterAfterInvisible(t *testing.T) {
	var cases []badCase
	for _, r := range []rune{'\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u2028', '\u2029', '\u00A0', '\u202E'} {
		before := []wantDiag{{1, 1, note.Warning, "frontmatter-invisible"}}
		if r == '\uFEFF' {
			before = nil // a byte order mark that starts the file is no character of it
		}
		cases = append(cases,
			badCase{name: fmt.Sprintf("before-%U", r), src: lines(string(r)+"---", "private: true", "---", keptText),
				want: before, check: private},
			badCase{name: fmt.Sprintf("line-%U", r), src: lines("", string(r), "--"+string(r)+"-", "title: Shown", "---"+string(r), keptText),
				want: []wantDiag{{2, 1, note.Warning, "frontmatter-invisible"}, {3, 3, note.Warning, "frontmatter-invisible"},
					{5, 4, note.Warning, "frontmatter-invisible"}, {3, 1, note.Warning, "frontmatter-leading-blank"}}, check: publicAs("Shown")})
	}
	cases = append(cases, badCase{name: "bom-mid-file", src: "\n\uFEFF---\nprivate: true\n---\n" + keptText,
		want: []wantDiag{{2, 1, note.Warning, "frontmatter-invisible"}, {2, 1, note.Warning, "frontmatter-leading-blank"}}, check: private})
	// YAML also breaks lines at U+2028 and U+2029: positions stay the
	// file's.
	cases = append(cases,
		badCase{name: "separator-in-front-matter", src: lines("---", "title: T\u2028\u2029", "tags: [a", "---", keptText),
			want: []wantDiag{{3, -1, note.Error, "frontmatter-yaml"}}, check: fromFileName("separator-in-front-matter")},
		badCase{name: "separator-key-line", path: "episodes/s.md", src: lines("---", "title: T\u2028\u2028\u2028", "outcome: maybe", "task: t", "---", keptText),
			want: []wantDiag{{3, 1, note.Error, "episode-outcome"}}})
	runBadCases(t, cases)
}
