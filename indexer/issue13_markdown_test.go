package indexer_test

import (
	"context"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/source"
)

// costlyBodySize keeps a note with its front matter under the 1 MiB cap.
const costlyBodySize = 1_000_000

// costlyMarkdown are bodies whose parsing cost grows faster than their
// size in a CommonMark parser (SPEC §6), each about 1 MB: before the cost
// budget, "> " repeated took 271 s to build.
func costlyMarkdown() map[string]string {
	rep := func(unit, tail string) string {
		return strings.Repeat(unit, (costlyBodySize-len(tail))/len(unit)) + tail
	}
	var deep strings.Builder
	for i := 0; deep.Len() < costlyBodySize-2000; i++ {
		deep.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	return map[string]string{
		"quote":     rep("> ", "x"),
		"dash":      rep("- ", "x"),
		"ordered":   rep("1. ", "x"),
		"linkangle": rep("[a](<b", ""),
		"linkopen":  rep("[a](", ""),
		"emphasis":  rep("**a_", ""),
		"brackets":  strings.Repeat("[", costlyBodySize/2) + strings.Repeat("]", costlyBodySize/2),
		"refs":      rep("[a][", ""),
		"deeplist":  deep.String(),
		// Found by searching random markdown for what the first budget
		// let through: an escaped backtick before a run that never closes
		// on every line; quotes kept open by lazy lines between them.
		"codespans": "\\![" + rep("\\```\n", ""),
		"lazyquote": rep("**a_\n> ][\n    ", ""),
	}
}

// moderateMarkdown nests as real notes do: lists five deep, quotes three
// deep, links and emphasis in every paragraph.
const moderateMarkdown = `Intro with *emphasis*, **strong**, a [link](https://example.com/) and [[EP-costly-quote]].

- one
  - two
    - three
      - four
        - five [deep link](https://example.com/5)

> quoted
> > twice
> > > three times with _emphasis_

1. first
2. second
`

func costlyEpisode(title, task, body string) []byte {
	return []byte("---\ntitle: " + title + "\ntype: episode\noutcome: success\ntask: '" + task + "'\ndate: 2026-03-01T10:00:00Z\n---\n\n## Context\n\n" + body + "\n")
}

func writeCostlyRepo(t testing.TB, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := source.WriteRepo(dir, []source.Commit{{When: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), Files: files}}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBuildCostlyMarkdown: each 1 MB note whose markdown would cost more
// than linear time is reported as [markdown-cost] at its line and column
// and shown as plain text, escaped; a note that nests as real notes do
// still renders as markdown. The time is in BenchmarkBuildCostlyMarkdown.
func TestBuildCostlyMarkdown(t *testing.T) {
	files := map[string][]byte{
		"episodes/moderate.md": costlyEpisode("EP-moderate", "A *normal* task", moderateMarkdown),
		"episodes/task.md":     costlyEpisode("EP-costly-task", strings.Repeat("[a](<b", 9000), "Fine."),
	}
	bodies := costlyMarkdown()
	for name, body := range bodies {
		files["episodes/"+name+".md"] = costlyEpisode("EP-costly-"+name, "Costly "+name, body)
	}
	out := filepath.Join(t.TempDir(), "public")
	r, err := indexer.Build(context.Background(), indexer.Options{Repo: writeCostlyRepo(t, files), Out: out, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	costDiags := map[string]note.Diagnostic{}
	for _, d := range r.Diagnostics {
		if d.Rule == "markdown-cost" {
			costDiags[d.Path] = d
		}
	}
	page := func(id string) string {
		data, err := os.ReadFile(filepath.Join(out, "episodes", export.Slug(id), "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			d, ok := costDiags["episodes/"+name+".md"]
			if !ok {
				t.Fatalf("no [markdown-cost] diagnostic")
			}
			// The body starts on line 11, after the front matter and the
			// heading; the deep list passes 32 levels on its 33rd line,
			// and the quote that lazy lines keep open starts on line 12.
			want := map[string]int{"deeplist": 11 + 32, "lazyquote": 12}[name]
			if want == 0 {
				want = 11
			}
			if d.Severity != note.Warning || d.Line != want || d.Col != 1 {
				t.Errorf("diagnostic %s, want a warning at line %d, column 1", d, want)
			}
			// Nesting too deep for even the block parser keeps the whole
			// body, headings included, as text.
			p := page("EP-costly-" + name)
			i := strings.Index(p, `<pre class="plain-text">`)
			if i < 0 {
				t.Fatalf("no plain text on the page")
			}
			pre, _, _ := strings.Cut(p[i:], "</pre>")
			if !strings.Contains(pre, html.EscapeString(body[:200])) {
				t.Errorf("the body is not shown as escaped plain text")
			}
		})
	}
	if d, ok := costDiags["episodes/task.md"]; !ok || !strings.Contains(d.Message, "task") {
		t.Errorf("the costly task is not reported: %v", d)
	}
	if p := page("EP-costly-task"); !strings.Contains(p, html.EscapeString(strings.Repeat("[a](<b", 20))) {
		t.Errorf("the costly task is not shown as escaped text")
	}
	if d, ok := costDiags["episodes/moderate.md"]; ok {
		t.Errorf("a note of moderate nesting is reported: %s", d)
	}
	p := page("EP-moderate")
	for _, want := range []string{"<em>emphasis</em>", "<strong>strong</strong>", `href="https://example.com/5"`, "<blockquote>", "five", "<ol>", "<em>normal</em>"} {
		if !strings.Contains(p, want) {
			t.Errorf("moderate note: %q not rendered as markdown", want)
		}
	}
	if strings.Count(p, "<ul>") < 5 || strings.Count(p, "<blockquote>") < 3 || strings.Contains(p, "plain-text") {
		t.Errorf("moderate note: nesting not rendered as markdown")
	}
}

// BenchmarkBuildCostlyMarkdown times a whole build of a repository with
// one 1 MB note whose markdown would cost more than linear time, beside
// one ordinary note; "prose" is a 1 MB note of ordinary markdown, to
// compare.
func BenchmarkBuildCostlyMarkdown(b *testing.B) {
	bodies := costlyMarkdown()
	bodies["prose"] = strings.Repeat(moderateMarkdown+"\n", costlyBodySize/(len(moderateMarkdown)+1))
	for _, name := range []string{"prose", "quote", "dash", "ordered", "linkangle", "linkopen", "emphasis", "brackets", "refs", "deeplist", "codespans", "lazyquote"} {
		b.Run(name, func(b *testing.B) {
			repo := writeCostlyRepo(b, map[string][]byte{
				"episodes/costly.md": costlyEpisode("EP-costly", "Costly", bodies[name]),
				"episodes/good.md":   []byte(goodEpisode),
			})
			for i := 0; b.Loop(); i++ {
				out := filepath.Join(b.TempDir(), fmt.Sprint("public", i))
				if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: b.TempDir()}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMarkdownBudget: text that real notes hold, however long, stays
// markdown; text that makes a parser do quadratic work does not, however
// it is wrapped.
func TestMarkdownBudget(t *testing.T) {
	many := func(n int, f func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i))
		}
		return b.String()
	}
	within := map[string]string{
		"moderate": moderateMarkdown,
		"bullets": many(20000, func(i int) string {
			return fmt.Sprintf("- [risk] item %d with [a link](https://example.com/%d) and [[Note %d]] #tag\n", i, i, i)
		}),
		"timeline": many(5000, func(i int) string {
			return fmt.Sprintf("%d. [2026-03-01T10:%02d:00Z] ran `go test ./...` on **ledger** #test\n", i+1, i%60)
		}),
		"identifiers":     many(2000, func(i int) string { return "call parse_front_matter and write_api_files then check_output_dir " }),
		"wikilinks":       many(3000, func(i int) string { return fmt.Sprintf("[[EP-%d]], ", i) }),
		"links":           many(30, func(i int) string { return fmt.Sprintf("see [doc %d](https://example.com/docs/%d) ", i, i) }),
		"fenced code":     "```c\n" + many(5000, func(i int) string { return "p[i] = *q++ * a[j][k]; /* _x_ */\n" }) + "```\n",
		"quotes":          many(2000, func(i int) string { return "> > > a quoted *line* with [[Note]]\n" }),
		"nested lists":    many(500, func(i int) string { return strings.Repeat("  ", i%8) + "- level *item*\n" }),
		"headings":        many(2000, func(i int) string { return fmt.Sprintf("## Heading %d\n\nText with _emphasis_ and `code`.\n\n", i) }),
		"reference links": many(40, func(i int) string { return fmt.Sprintf("[doc %d][r%d] ", i, i) }) + "\n\n" + many(40, func(i int) string { return fmt.Sprintf("[r%d]: https://example.com/%d\n", i, i) }),
	}
	for name, src := range within {
		if !parse.MarkdownWithinBudget(src) {
			t.Errorf("%s: over the budget, want markdown", name)
		}
	}
	over := costlyMarkdown()
	for name, src := range costlyMarkdown() {
		// the same at 64 KB (whole lines: a cut line may close what the
		// others open), inside a list item and a blockquote
		small := src[:64<<10]
		if i := strings.LastIndexByte(small, '\n'); i > 0 {
			small = small[:i+1]
		}
		over[name+" small"] = small
		over[name+" in a list"] = "- " + strings.ReplaceAll(small, "\n", "\n  ")
		over[name+" in a quote"] = "> " + strings.ReplaceAll(small, "\n", "\n> ")
	}
	for name, src := range over {
		if parse.MarkdownWithinBudget(src) {
			t.Errorf("%s: within the budget, want plain text", name)
		}
	}
}
