package source

import (
	"slices"
	"testing"
)

// TestOpenSkipsOutput: an engram build's output inside the memory
// repository (public/ of an earlier `engram build --out public`) is never
// read as input, in a plain directory as in git, whatever --out the build
// at hand was given; a folder that only looks like one (no manifest, or
// no schema beside it) is read as notes are.
func TestOpenSkipsOutput(t *testing.T) {
	for _, tc := range []struct {
		name      string
		files     []string
		wantFiles []string
		wantDiags []string
	}{
		{"an earlier output", []string{"episodes/a.md", "public/api/v1/index.json", "public/api/v1/schema/index.schema.json", "public/api/v1/bootstrap.md", "public/index.html"},
			[]string{"episodes/a.md"}, []string{"public/ source-output"}},
		{"a nested output", []string{"a.md", "site/old/api/v1/index.json", "site/old/api/v1/schema/index.schema.json", "site/old/bootstrap.md", "site/keep.md"},
			[]string{"a.md", "site/keep.md"}, []string{"site/old/ source-output"}},
		{"a killed build's old output", []string{"a.md", ".public.engram-old/api/v1/index.json", ".public.engram-old/api/v1/schema/index.schema.json", ".public.engram-old/x.md"},
			[]string{"a.md"}, []string{".public.engram-old/ source-output"}},
		{"notes about an API", []string{"api/v1/index.json", "api/v1/notes.md"},
			[]string{"api/v1/index.json", "api/v1/notes.md"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files...)
			repo, diags := mustOpen(t, dir)
			if got := paths(repo); !slices.Equal(got, tc.wantFiles) {
				t.Errorf("files = %v, want %v", got, tc.wantFiles)
			}
			if got := rules(diags); !slices.Equal(got, tc.wantDiags) {
				t.Errorf("diags = %v, want %v", got, tc.wantDiags)
			}
		})
	}
}
