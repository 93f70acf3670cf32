package parse

import (
	"reflect"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

func textCases() []badCase {
	return []badCase{
		{
			name: "invalid-utf8-in-body",
			src:  lines("---", "title: x", "---", keptText+" hé\xffllo"),
			want: []wantDiag{{7, 14, note.Warning, "invalid-utf8"}},
			check: func(t *testing.T, n note.Note) {
				if !hasSection(n, "Context", "Body kept. hé\uFFFDllo") {
					t.Errorf("invalid byte not replaced by U+FFFD: %+v", n.Sections)
				}
			},
		},
		{
			name:  "invalid-utf8-in-front-matter",
			src:   lines("---", "title: bäd\xfe", "---", keptText),
			want:  []wantDiag{{2, 11, note.Warning, "invalid-utf8"}},
			check: wantTitle("bäd\uFFFD"),
		},
		{
			name: "shortcode-kept-as-text",
			src:  lines("---", "title: x", "---", keptText+` {{< param "title" >}} and {{% notice %}}`),
			check: func(t *testing.T, n note.Note) {
				if !hasSection(n, "Context", `Body kept. {{< param "title" >}} and {{% notice %}}`) {
					t.Errorf("shortcode not kept verbatim: %+v", n.Sections)
				}
			},
		},
	}
}

// lineEndingsLF is the reference for TestParseLineEndings; its diagnostics
// are at known lines in the body and the front matter.
var lineEndingsLF = lines(
	"---",                                   // 1
	"title: EPISODE-crlf",                   // 2
	"type: episode",                         // 3
	"outcome: success",                      // 4
	"task: Check line numbers",              // 5
	"date: last tuesday",                    // 6
	"---",                                   // 7
	"",                                      // 8
	"## Observations",                       // 9
	"",                                      // 10
	"- [fact] fine",                         // 11
	"- dangling text",                       // 12
	"",                                      // 13
	"## Events Timeline",                    // 14
	"",                                      // 15
	"- [2026-08-04T09:15:00Z] ok #test",     // 16
	"- no timestamp",                        // 17
	"",                                      // 18
	"## Context",                            // 19
	"",                                      // 20
	"Bad byte: \xff here, then [[Target]].", // 21
)

// TestParseLineEndings checks that CRLF line endings and a BOM change
// nothing: same note, same diagnostics at the same lines (SPEC §6). A lone
// CR (old Mac files) ends a line as in YAML and CommonMark.
func TestParseLineEndings(t *testing.T) {
	crlf := strings.ReplaceAll(lineEndingsLF, "\n", "\r\n")
	variants := []struct{ name, src string }{
		{"LF", lineEndingsLF},
		{"CRLF", crlf},
		{"BOM", "\uFEFF" + lineEndingsLF},
		{"BOM+CRLF", "\uFEFF" + crlf},
		{"mixed", strings.Replace(lineEndingsLF, "\n", "\r\n", 10)},
		{"CR", strings.ReplaceAll(lineEndingsLF, "\n", "\r")},
		{"BOM+CR", "\uFEFF" + strings.ReplaceAll(lineEndingsLF, "\n", "\r")},
	}
	want := []wantDiag{
		{6, 1, note.Error, "frontmatter-date"},
		{12, 3, note.Warning, "observation-syntax"},
		{17, 3, note.Warning, "event-syntax"},
		{21, 11, note.Warning, "invalid-utf8"},
	}
	p := New(Roots{})
	ref, refDiags, err := p.Parse("episodes/crlf.md", []byte(lineEndingsLF))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			n, diags, err := p.Parse("episodes/crlf.md", []byte(v.src))
			if err != nil {
				t.Fatal(err)
			}
			checkDiags(t, "episodes/crlf.md", diags, want)
			if !reflect.DeepEqual(diags, refDiags) {
				t.Errorf("diagnostics differ from the LF version:\n got %v\nwant %v", diags, refDiags)
			}
			if !reflect.DeepEqual(n, ref) {
				t.Errorf("note differs from the LF version:\n got %+v\nwant %+v", n, ref)
			}
			if n.Title != "EPISODE-crlf" {
				t.Errorf("title = %q", n.Title)
			}
			if ev := n.Episode.Events; len(ev) != 2 || ev[0].Line != 16 || ev[1].Line != 17 {
				t.Errorf("events = %+v, want lines 16 and 17", ev)
			}
			if l := n.Links; len(l) != 1 || l[0].Line != 21 || l[0].Col != 24 {
				t.Errorf("links = %+v, want [[Target]] at 21:24", l)
			}
			for _, s := range n.Sections {
				if strings.ContainsRune(s.Markdown, '\r') {
					t.Errorf("section %q keeps a CR: %q", s.Heading, s.Markdown)
				}
			}
		})
	}
}

var linksSrc = lines(
	"---",          // 1
	"title: links", // 2
	"---",          // 3
	"Inline `[[InCode]]` and ``[[InDoubleCode]]`` are code; [[Real|shown]] and [[Page#Part]] and [[Both#Sec|alias]] are links.", // 4
	"",                                 // 5
	"```",                              // 6
	"[[InFence]]",                      // 7
	"```",                              // 8
	"",                                 // 9
	"    [[InIndentedCode]]",           // 10
	"",                                 // 11
	"Empty [[]] and [[ ]] and [[|x]].", // 12
	"",                                 // 13
	"- a list item with code:",         // 14
	"",                                 // 15
	"  ~~~",                            // 16
	"  [[InListFence]]",                // 17
	"  ~~~",                            // 18
	"",                                 // 19
	"## Relations",                     // 20
	"",                                 // 21
	"- `uses [[CodeRelation]]`",        // 22
	"- uses [[RealRelation]] (see `[[NotALink]]`)", // 23
)

// TestParseLinks checks which wikilinks are links: none inside code spans
// or code blocks; alias and heading split off; an empty one reported.
func TestParseLinks(t *testing.T) {
	n, diags, err := New(Roots{}).Parse("notes/links.md", []byte(linksSrc))
	if err != nil {
		t.Fatal(err)
	}
	wantLinks := []note.Link{
		{Target: "Real", Alias: "shown", Line: 4, Col: 56},
		{Target: "Page", Heading: "Part", Line: 4, Col: 75},
		{Target: "Both", Heading: "Sec", Alias: "alias", Line: 4, Col: 93},
		{Target: "RealRelation", Line: 23, Col: 8},
	}
	if !reflect.DeepEqual(n.Links, wantLinks) {
		t.Errorf("links:\n got %+v\nwant %+v", n.Links, wantLinks)
	}
	wantRelations := []note.Relation{
		{Type: "uses", Target: "RealRelation", Context: "see `[[NotALink]]`", Line: 23, Col: 3},
	}
	if !reflect.DeepEqual(n.Relations, wantRelations) {
		t.Errorf("relations:\n got %+v\nwant %+v", n.Relations, wantRelations)
	}
	checkDiags(t, "notes/links.md", diags, []wantDiag{
		{12, 7, note.Warning, "link-empty"},
		{12, 16, note.Warning, "link-empty"},
		{12, 26, note.Warning, "link-empty"},
		{22, 3, note.Warning, "relation-syntax"},
	})
}

// TestSplitLink checks the target, alias and heading of a wikilink's inside.
func TestSplitLink(t *testing.T) {
	cases := []struct {
		in   string
		want note.Link
	}{
		{"Target", note.Link{Target: "Target"}},
		{"Target|alias", note.Link{Target: "Target", Alias: "alias"}},
		{"Target#heading", note.Link{Target: "Target", Heading: "heading"}},
		{" Target # Heading | Shown ", note.Link{Target: "Target", Heading: "Heading", Alias: "Shown"}},
		{"Target|alias#not-a-heading", note.Link{Target: "Target", Alias: "alias#not-a-heading"}},
		{"|alias", note.Link{Alias: "alias"}},
		{"", note.Link{}},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if got := splitLink(c.in); got != c.want {
				t.Errorf("splitLink(%q) = %+v, want %+v", c.in, got, c.want)
			}
		})
	}
}

func TestParseEventLinks(t *testing.T) {
	src := "---\ntitle: E\ntype: episode\noutcome: success\ntask: t\n---\n\n## Events Timeline\n\n" +
		"1. [2026-01-01T10:00:00Z] Build broke #error\n" +
		"2. [2026-01-01T10:05:00Z] Rolled back (caused_by e001) (leads_to e003, [[e004]]) #milestone\n" +
		"3. [2026-01-01T10:06:00Z] Tests green #test (caused_by: e002)\n" +
		"4. [2026-01-01T10:07:00Z] Shipped (LEADS_TO e001) and (a note) (caused_by)\n"
	n, _, err := New(Roots{}).Parse("episodes/e.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		Text, Type        string
		CausedBy, LeadsTo []string
	}
	var out []got
	for _, ev := range n.Episode.Events {
		out = append(out, got{ev.Text, ev.Type, ev.CausedBy, ev.LeadsTo})
	}
	want := []got{
		{"Build broke", "error", nil, nil},
		{"Rolled back", "milestone", []string{"e001"}, []string{"e003", "e004"}},
		{"Tests green", "test", []string{"e002"}, nil},
		// Only trailing groups are links; an empty group names nothing.
		{"Shipped (LEADS_TO e001) and (a note)", "", []string{}, nil},
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("events:\n got %#v\nwant %#v", out, want)
	}
}
