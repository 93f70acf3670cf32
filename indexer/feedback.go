package indexer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/events"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/source"
)

// isFeedback reports whether a repository path is a feedback file
// (SPEC §2.6): feedback/**/*.jsonl.
func isFeedback(p string) bool {
	return strings.HasPrefix(p, "feedback/") && strings.HasSuffix(p, ".jsonl")
}

// feedbackRecord is one line of a feedback file.
type feedbackRecord struct {
	ID      *string         `json:"id"`
	Kind    *string         `json:"kind"`
	At      json.RawMessage `json:"at"`
	Session string          `json:"session"`
}

// feedbackFields are the keys a line is read by.
var feedbackFields = events.FieldNames(feedbackRecord{})

// readFeedback reads every feedback file and counts, per note, the echoes
// (an agent used the note) and fizzles (it was injected and ignored). A
// line that is not a JSON object, repeats a key, has an unknown kind, or
// names no note is a diagnostic at its file and line; the other lines are
// kept.
func readFeedback(repo *source.Repo, notes []note.Note) ([]export.Feedback, []note.Diagnostic) {
	out := make([]export.Feedback, len(notes))
	ix := causal.NewIndex(notes)
	var diags note.Diagnostics
	report := func(p string, line int, sev note.Severity, rule, format string, args ...any) {
		diags.Report(p, line, 1, sev, rule, format, args...)
	}
	for _, f := range repo.Files {
		if !isFeedback(f.Path) {
			continue
		}
		if f.Size > parse.MaxNoteBytes*16 {
			report(f.Path, 1, note.Error, "feedback-too-large", "feedback file is %d bytes, over the limit of %d; not read", f.Size, parse.MaxNoteBytes*16)
			continue
		}
		data, err := fs.ReadFile(repo.FS, f.Path)
		if err != nil {
			report(f.Path, 1, note.Error, "read", "%v", err)
			continue
		}
		// An editor's byte order mark is not part of the first record.
		data = bytes.TrimPrefix(data, []byte("\uFEFF"))
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
		for line := 1; sc.Scan(); line++ {
			text := bytes.TrimSpace(sc.Bytes())
			if len(text) == 0 {
				continue
			}
			var r feedbackRecord
			if err := json.Unmarshal(text, &r); err != nil {
				report(f.Path, line, note.Warning, "feedback-syntax", "not a JSON object: %v; line skipped", err)
				continue
			}
			if !events.ReportKeys(&diags, f.Path, line, sc.Bytes(), feedbackFields, "feedback") {
				continue
			}
			switch {
			case r.ID == nil || *r.ID == "":
				report(f.Path, line, note.Warning, "feedback-id", "no \"id\" naming the note; line skipped")
				continue
			case r.Kind == nil || (*r.Kind != "echo" && *r.Kind != "fizzle"):
				kind := "nothing"
				if r.Kind != nil {
					kind = fmt.Sprintf("%q", *r.Kind)
				}
				report(f.Path, line, note.Warning, "feedback-kind", "kind is %s, not \"echo\" or \"fizzle\"; line skipped", kind)
				continue
			}
			i, ok := ix.Resolve(*r.ID)
			if !ok {
				report(f.Path, line, note.Warning, "feedback-target", "%q names no note; line skipped", *r.ID)
				continue
			}
			if *r.Kind == "echo" {
				out[i].Echo++
			} else {
				out[i].Fizzle++
			}
		}
		if err := sc.Err(); err != nil {
			report(f.Path, 1, note.Error, "read", "%v", err)
		}
	}
	return out, diags
}
