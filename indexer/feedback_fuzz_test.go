package indexer

import (
	"bytes"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/source"
)

// feedbackSeeds are feedback lines, good and bad: both kinds, every way
// of naming a note, wrong types, unknown kinds, broken JSON, blank lines,
// CRLF and a BOM.
var feedbackSeeds = []string{
	"",
	`{"id": "Alpha", "kind": "echo", "at": "2026-01-02T03:04:05Z"}` + "\n",
	`{"id": "alpha", "kind": "fizzle", "at": 1767322800000, "session": "s1"}` + "\n" + `{"id": "beta-note", "kind": "echo"}`,
	`{"id": "/notes/beta/", "kind": "echo"}` + "\r\n\r\n" + `{"id": "Alpha", "kind": "echo"}` + "\r\n",
	"\uFEFF" + `{"id": "Alpha", "kind": "echo"}` + "\n",
	`{"id": "nobody", "kind": "echo"}` + "\n",
	`{"id": "Alpha", "kind": "ECHO"}` + "\n",
	`{"id": "Alpha"}` + "\n" + `{"kind": "echo"}` + "\n" + `{"id": "", "kind": "echo"}`,
	`{"id": null, "kind": null}` + "\n",
	`{"id": 5, "kind": "echo"}` + "\n",
	`["Alpha", "echo"]` + "\n" + `"Alpha"` + "\n" + "null\n" + "{}\n",
	`{"id": "Alpha", "kind": "echo"} {"id": "Alpha", "kind": "echo"}` + "\n",
	`{"id": "Alpha", "kind": "echo"` + "\n",
	"   \n\t\n\v\f\r\n",
	"\x00\xff\xfe\n{\"id\": \"\xff\", \"kind\": \"echo\"}\n",
	"\r{\"id\": \"Alpha\", \"kind\": \"echo\"}\r{\"id\": \"Alpha\", \"kind\": \"echo\"}",
}

// FuzzReadFeedback reads one feedback file. Whatever it holds, a byte
// order mark or CRLF line endings change nothing, and every line that is
// not blank is accounted for exactly once: counted as an echo or a
// fizzle of a note, or reported by one diagnostic at that file and line.
func FuzzReadFeedback(f *testing.F) {
	for _, s := range feedbackSeeds {
		f.Add([]byte(s))
	}
	notes := []note.Note{
		{Title: "Alpha", Path: "notes/alpha.md"},
		{Title: "Beta", Path: "notes/beta-note.md", Permalink: "/notes/beta/"},
	}
	const path = "feedback/2026/fuzz.jsonl"
	f.Fuzz(func(t *testing.T, data []byte) {
		repo := &source.Repo{
			FS:    fstest.MapFS{path: {Data: data}},
			Files: []source.File{{Path: path, Size: int64(len(data))}},
		}
		fb, diags := readFeedback(repo, notes)
		// A byte order mark and CRLF line endings change nothing.
		alts := [][]byte{bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))}
		if !bytes.HasPrefix(data, []byte("\uFEFF")) {
			alts = append(alts, append([]byte("\uFEFF"), data...))
		}
		for _, alt := range alts {
			repo := &source.Repo{FS: fstest.MapFS{path: {Data: alt}}, Files: []source.File{{Path: path, Size: int64(len(alt))}}}
			if fb2, diags2 := readFeedback(repo, notes); !reflect.DeepEqual(fb2, fb) || len(diags2) != len(diags) {
				t.Fatalf("%q read as %v %v, but %q as %v %v", data, fb, diags, alt, fb2, diags2)
			}
		}
		if len(fb) != len(notes) {
			t.Fatalf("%d feedback entries for %d notes", len(fb), len(notes))
		}
		counted := 0
		for _, e := range fb {
			if e.Echo < 0 || e.Fizzle < 0 {
				t.Fatalf("negative count %+v", e)
			}
			counted += e.Echo + e.Fizzle
		}
		lines := bytes.Split(bytes.TrimPrefix(data, []byte("\uFEFF")), []byte("\n"))
		seen := map[int]bool{}
		for _, d := range diags {
			if d.Path != path || d.Line < 1 || d.Line > len(lines) || d.Col < 1 || d.Rule == "" || d.Message == "" {
				t.Fatalf("diagnostic %#v: no path, rule or message, or a line outside 1..%d", d, len(lines))
			}
			if seen[d.Line] {
				t.Fatalf("line %d reported twice: %v", d.Line, diags)
			}
			seen[d.Line] = true
			if len(bytes.TrimSpace(lines[d.Line-1])) == 0 {
				t.Fatalf("blank line %d reported: %v", d.Line, d)
			}
		}
		nonBlank := 0
		for _, l := range lines {
			if len(bytes.TrimSpace(l)) > 0 {
				nonBlank++
			}
		}
		if counted+len(diags) != nonBlank {
			t.Fatalf("%d lines counted and %d reported, of %d lines that are not blank: %v", counted, len(diags), nonBlank, diags)
		}
	})
}
