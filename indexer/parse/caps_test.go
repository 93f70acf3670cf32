package parse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

// Size and depth caps (SPEC §6): refused before a parser can be made to
// spend memory or time on them.

// yamlBlockNest is YAML front matter whose leaf is levels keys deep.
func yamlBlockNest(levels int) string {
	var sb strings.Builder
	sb.WriteString("---\n")
	for i := 0; i < levels; i++ {
		fmt.Fprintf(&sb, "%sk%d:", strings.Repeat("  ", i), i)
		if i == levels-1 {
			sb.WriteString(" leaf")
		}
		sb.WriteByte('\n')
	}
	return sb.String() + "---\n" + keptText + "\n"
}

// yamlFlowNest is "x: [[...[1]...]]" whose leaf is levels deep.
func yamlFlowNest(levels int) string {
	return lines("---", "x: "+strings.Repeat("[", levels-1)+"1"+strings.Repeat("]", levels-1), "---", keptText)
}

// tomlNest is a TOML table header of levels-1 parts and a key in it, so
// that the key is levels deep.
func tomlNest(levels int) string {
	parts := make([]string, levels-1)
	for i := range parts {
		parts[i] = fmt.Sprintf("t%d", i)
	}
	return lines("+++", `title = "deep"`, "["+strings.Join(parts, ".")+"]", "leaf = 1", "+++", keptText)
}

// leafDepth follows the first value of each map or list down to a scalar
// and returns how many levels it passed and the scalar.
func leafDepth(v any) (int, any) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			d, leaf := leafDepth(x[k])
			return d + 1, leaf
		}
		return 1, nil
	case []any:
		if len(x) == 0 {
			return 1, nil
		}
		d, leaf := leafDepth(x[0])
		return d + 1, leaf
	}
	return 0, v
}

// keptAtDepth checks that nesting at the limit is read whole: no value is
// cut, and the leaf sits MaxDepth levels below the root.
func keptAtDepth(t *testing.T, n note.Note) {
	t.Helper()
	keptBody(t, n)
	if len(n.Extra) != 1 {
		t.Fatalf("extra = %v, want the one nested key", n.Extra)
	}
	d, leaf := leafDepth(n.Extra)
	if d != MaxDepth || leaf == nil {
		t.Errorf("leaf at depth %d is %v; want a value at depth %d", d, leaf, MaxDepth)
	}
}

// aliasBomb is the "billion laughs": nine levels of anchors, each a list
// of nine aliases of the one before. Expanded it would be 9^9 strings.
func aliasBomb() string {
	ls := []string{"---", `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`}
	for c := 'b'; c <= 'i'; c++ {
		ref := strings.TrimSuffix(strings.Repeat("*"+string(c-1)+",", 9), ",")
		ls = append(ls, fmt.Sprintf("%c: &%c [%s]", c, c, ref))
	}
	return lines(append(ls, "---", keptText)...)
}

func aliasBombDiags() []wantDiag {
	var want []wantDiag
	for line := 3; line <= 10; line++ { // b .. i
		for i := 0; i < 9; i++ {
			want = append(want, wantDiag{line, 8 + 3*i, note.Error, "frontmatter-alias"})
		}
	}
	return want
}

// sizedFrontMatter is YAML front matter of exactly size bytes between the
// delimiters.
func sizedFrontMatter(size int) string {
	head := "title: sized\npad: "
	return "---\n" + head + strings.Repeat("a", size-len(head)-1) + "\n---\n" + keptText + "\n"
}

func capCases() []badCase {
	big := "---\ntitle: big\n---\n" + strings.Repeat("x", 2<<20)
	atLimit := "---\ntitle: at-limit\n---\n" + keptText + "\n"
	atLimit += strings.Repeat("word ", (MaxNoteBytes-len(atLimit))/5)
	atLimit += strings.Repeat("\n", MaxNoteBytes-len(atLimit))
	return []badCase{
		{
			name: "nul-byte",
			src:  lines("---", "title: x", "---", "ab\x00c"),
			err:  errUnpublishable,
			want: []wantDiag{{4, 3, note.Error, "binary-file"}},
		},
		{
			// Found before CRLF and CR are cleaned: its line must count
			// them as clean does.
			name: "nul-after-crlf-and-cr",
			src:  "---\r\ntitle: x\r---\rab\x00c",
			err:  errUnpublishable,
			want: []wantDiag{{4, 3, note.Error, "binary-file"}},
		},
		{
			name: "nul-first-byte",
			src:  "\x00\x01\x02",
			err:  errUnpublishable,
			want: []wantDiag{{1, 1, note.Error, "binary-file"}},
		},
		{
			// Refused before any parser sees it: nothing of the note is
			// read, not even its title.
			name: "note-2MiB",
			src:  big,
			err:  errUnpublishable,
			want: []wantDiag{{0, 0, note.Error, "note-too-large"}},
			check: func(t *testing.T, n note.Note) {
				if n.Title != "" || n.Kind != "" || n.Sections != nil {
					t.Errorf("a note over the limit was parsed: %+v", n)
				}
			},
		},
		{
			name:  "note-at-limit",
			src:   atLimit,
			check: wantTitle("at-limit"),
		},
		{
			name:  "alias-bomb",
			src:   aliasBomb(),
			want:  aliasBombDiags(),
			check: func(t *testing.T, n note.Note) { keptBody(t, n) },
		},
		{
			name: "yaml-merge-alias",
			src:  lines("---", "base: &base {x: 1}", "other:", "  <<: *base", "---", keptText),
			want: []wantDiag{{4, 7, note.Error, "frontmatter-alias"}},
		},
		{
			name:  "yaml-block-nesting-40",
			src:   yamlBlockNest(40),
			want:  []wantDiag{{2, -1, note.Error, "frontmatter-depth"}},
			check: fromFileName("yaml-block-nesting-40"),
		},
		{
			name: "yaml-flow-nesting-10000",
			src:  yamlFlowNest(10001),
			want: []wantDiag{{2, -1, note.Error, "frontmatter-depth"}},
			check: func(t *testing.T, n note.Note) {
				fromFileName("yaml-flow-nesting-10000")(t, n)
				if len(yamlFlowNest(10001)) >= MaxFrontMatterBytes {
					t.Fatal("the input must be under the front matter size cap")
				}
			},
		},
		{
			name:  "toml-table-nesting-40",
			src:   tomlNest(41),
			want:  []wantDiag{{2, -1, note.Error, "frontmatter-depth"}},
			check: func(t *testing.T, n note.Note) { keptBody(t, n) },
		},
		{name: "yaml-block-nesting-32", src: yamlBlockNest(MaxDepth), check: keptAtDepth},
		{name: "yaml-flow-nesting-32", src: yamlFlowNest(MaxDepth), check: keptAtDepth},
		{name: "toml-table-nesting-32", src: tomlNest(MaxDepth), check: keptAtDepth},
		{
			name: "yaml-block-nesting-33",
			src:  yamlBlockNest(MaxDepth + 1),
			want: []wantDiag{{2, -1, note.Error, "frontmatter-depth"}},
		},
		{
			name: "yaml-flow-nesting-33",
			src:  yamlFlowNest(MaxDepth + 1),
			want: []wantDiag{{2, -1, note.Error, "frontmatter-depth"}},
		},
		{
			name: "toml-table-nesting-33",
			src:  tomlNest(MaxDepth + 1),
			want: []wantDiag{{2, -1, note.Error, "frontmatter-depth"}},
		},
		{
			name:  "front-matter-over-64KiB",
			src:   sizedFrontMatter(MaxFrontMatterBytes + 1),
			want:  []wantDiag{{1, 1, note.Error, "frontmatter-too-large"}},
			check: fromFileName("front-matter-over-64KiB"),
		},
		{
			name:  "front-matter-at-64KiB",
			src:   sizedFrontMatter(MaxFrontMatterBytes),
			check: wantTitle("sized"),
		},
	}
}
