package parse

import (
	"reflect"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

// TestSectionsKept: every heading a note has is kept, with the text under
// it or none ("text" underlined by "---" is a heading, and was lost with
// its note's whole body); a first-level heading that starts the note is
// left out only when it says the title, which the page shows already.
func TestSectionsKept(t *testing.T) {
	type sec struct{ Heading, Markdown string }
	for _, tc := range []struct {
		name, path, src string
		want            []sec
	}{
		{"setext", "", lines("text", "---", "more", "---"), []sec{{"text", ""}, {"more", ""}}},
		{"setext-with-body", "", lines("Title", "---", "", "Body."), []sec{{"Title", "Body."}}},
		{"empty-sections", "", lines("Intro.", "", "## Empty", "", "## Full", "", "text", "## Last"), []sec{{"", "Intro."}, {"Empty", ""}, {"Full", "text"}, {"Last", ""}}},
		{"title-heading", "", lines("---", "title: The Title", "---", "# the title", "", "Body."), []sec{{"", "Body."}}},
		{"title-heading-setext", "", lines("---", "title: The Title", "---", "The Title", "===", "Body."), []sec{{"", "Body."}}},
		{"other-heading", "", lines("---", "title: The Title", "---", "# Another heading", "", "Body."), []sec{{"", "# Another heading\n\nBody."}}},
		{"heading-from-file-name", "notes/my-note.md", lines("# My Note", "", "Body."), []sec{{"", "# My Note\n\nBody."}}},
		{"heading-only", "", lines("---", "title: T", "---", "# Not the title"), []sec{{"", "# Not the title"}}},
		{"title-heading-only", "", lines("---", "title: T", "---", "# T", "## Next", "x"), []sec{{"Next", "x"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path
			if path == "" {
				path = "notes/" + tc.name + ".md"
			}
			n, diags, err := New(Roots{}).Parse(path, []byte(tc.src))
			if err != nil || note.CountErrors(diags) > 0 {
				t.Fatalf("Parse: %v %v", err, diags)
			}
			var got []sec
			for _, s := range n.Sections {
				got = append(got, sec{s.Heading, s.Markdown})
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("sections %q, want %q", got, tc.want)
			}
		})
	}
}
