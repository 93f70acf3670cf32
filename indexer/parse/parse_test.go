package parse

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden is what a golden file holds for one input note.
type golden struct {
	Note        note.Note         `json:"note"`
	Diagnostics []note.Diagnostic `json:"diagnostics"`
}

// TestParseGolden parses every testdata/*.md and compares the note and its
// diagnostics with testdata/*.golden.json. The golden files are the spec:
// review every change to them by eye before committing it.
func TestParseGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("no testdata/*.md inputs")
	}
	p := New(Roots{})
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".md")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			n, diags, err := p.Parse(filepath.ToSlash(in), src)
			if err != nil {
				t.Fatalf("Parse: unexpected error %v", err)
			}
			got := marshalGolden(t, n, diags)
			want := filepath.Join("testdata", name+".golden.json")
			if *update {
				if err := os.WriteFile(want, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			wantBytes, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run go test -update and review the new file)", err)
			}
			if !bytes.Equal(got, wantBytes) {
				t.Errorf("%s differs from the parse result (run go test -update and review the diff):\n%s", want, lineDiff(string(wantBytes), string(got)))
			}
		})
	}
}

func marshalGolden(t *testing.T, n note.Note, diags []note.Diagnostic) []byte {
	t.Helper()
	if diags == nil {
		diags = []note.Diagnostic{}
	}
	b, err := json.MarshalIndent(golden{Note: n, Diagnostics: diags}, "", "  ")
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return append(b, '\n')
}

// lineDiff shows the first lines where want and got differ, enough to see
// what changed without a diff library.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var sb strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl == gl {
			continue
		}
		sb.WriteString("line " + itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl + "\n")
		if shown++; shown == 10 {
			sb.WriteString("...\n")
			break
		}
	}
	return sb.String()
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// BenchmarkParseEpisode measures one typical episode note; compare runs
// with benchstat.
func BenchmarkParseEpisode(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "episode.md"))
	if err != nil {
		b.Fatal(err)
	}
	p := New(Roots{})
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, _, err := p.Parse("episodes/episode.md", src); err != nil {
			b.Fatal(err)
		}
	}
}
