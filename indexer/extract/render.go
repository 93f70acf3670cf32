package extract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// FileName is the episode note's file name: its title and ".md".
func (e Episode) FileName() string { return e.Title + ".md" }

// Markdown renders the episode as an engram episode note (SPEC §2.1):
// front matter, then Context, Decisions, Events Timeline and Lessons
// Learned. Every text is one line, so the note parses with no warning.
func (e Episode) Markdown() []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	fmt.Fprintf(&b, "title: %s\n", quote(e.Title))
	b.WriteString("type: episode\n")
	fmt.Fprintf(&b, "date: %s\n", e.Date)
	fmt.Fprintf(&b, "outcome: %s\n", e.Outcome)
	fmt.Fprintf(&b, "task: %s\n", quote(e.Task))
	fmt.Fprintf(&b, "tags: [%s]\n", quoteAll(e.Tags))
	fmt.Fprintf(&b, "session: %s\n", quote(e.Session))
	if e.DurationMinutes > 0 {
		fmt.Fprintf(&b, "duration_minutes: %s\n", strconv.FormatFloat(e.DurationMinutes, 'f', -1, 64))
	}
	b.WriteString("metrics:\n")
	fmt.Fprintf(&b, "  commits: %d\n  errors: %d\n  files_changed: %d\n", e.Metrics.Commits, e.Metrics.Errors, e.Metrics.FilesChanged)
	fmt.Fprintf(&b, "source_log: %s\n", quote(e.Source))
	b.WriteString("---\n\n## Context\n\n")
	b.WriteString(e.Context)
	b.WriteString("\n")
	if len(e.Decisions) > 0 {
		b.WriteString("\n## Decisions\n")
		for i, d := range e.Decisions {
			fmt.Fprintf(&b, "\n### d%03d: %s\n\n", i+1, d.Title)
			fmt.Fprintf(&b, "- **Type**: %s\n", d.Type)
			if d.Context != "" {
				fmt.Fprintf(&b, "- **Context**: %s\n", d.Context)
			}
			fmt.Fprintf(&b, "- **Chosen**: %s\n", d.Chosen)
			if d.Rationale != "" {
				fmt.Fprintf(&b, "- **Rationale**: %s\n", d.Rationale)
			}
			fmt.Fprintf(&b, "- **Outcome**: %s\n", d.Outcome)
		}
	}
	if len(e.Events) > 0 {
		b.WriteString("\n## Events Timeline\n\n")
		for _, ev := range e.Events {
			fmt.Fprintf(&b, "- [%s] %s #%s\n", e.Date, ev.Text, ev.Type)
		}
	}
	if len(e.Lessons) > 0 {
		b.WriteString("\n## Lessons Learned\n\n")
		for _, l := range e.Lessons {
			fmt.Fprintf(&b, "- %s\n", l.Text)
		}
	}
	return b.Bytes()
}

// quote writes s as a double-quoted YAML scalar: a JSON string is one.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return strings.Join(q, ", ")
}
