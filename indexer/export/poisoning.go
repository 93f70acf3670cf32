package export

import (
	"slices"
	"strconv"
	"strings"

	"github.com/engramhq/engram/indexer/causal"
)

// Poisoning is a text of a note flagged for memory poisoning (SPEC §3):
// it addresses an agent with instructions. A reader sees where and why;
// an agent's answers withhold the field (query) and the bootstrap leaves
// the note out.
type Poisoning struct {
	// Field names the text: "task", "context", "decisions/d001/rationale",
	// "events/e003", "lessons/2", "observations/1", "sections/Notes",
	// "trigger", "action", "title".
	Field string `json:"field"`
	// Category is what it asks: override, download-exec, safeguard,
	// exfiltration or hidden.
	Category string `json:"category"`
	// Why says it in words: "to run a script downloaded from the network".
	Why  string `json:"why"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	// Excerpt is the text found, invisible characters spelled out.
	Excerpt string `json:"excerpt"`
	// Fingerprint allows it, in engram.toml's [poisoning] allow, when it
	// is meant.
	Fingerprint string `json:"fingerprint"`
	// InComment: the text is in an HTML comment, which the page does not
	// show.
	InComment bool `json:"in_comment,omitempty"`
}

// Withheld is the marker that stands, in an answer to an agent, for a
// text flagged for memory poisoning: it says the text was withheld and
// why, and that the note's page shows it to people.
func Withheld(p Poisoning) string {
	return "[withheld: flagged for memory poisoning, it asks an agent " + p.Why + "; the note's page shows it to people]"
}

// poisoning is what note i is flagged for, nil when nothing.
func (x *exporter) poisoning(i int) []Poisoning {
	if i >= len(x.in.Poisoning) {
		return nil
	}
	var out []Poisoning
	for _, f := range x.in.Poisoning[i] {
		out = append(out, Poisoning{Field: f.Field, Category: f.Category, Why: f.Why, Line: f.Line, Col: f.Col,
			Excerpt: f.Excerpt, Fingerprint: f.Fingerprint, InComment: f.InComment})
	}
	return out
}

// poisonedLessons are the texts of the lessons flagged for memory
// poisoning: a lesson cluster with one of them among its wordings is
// flagged too, and never offered to an agent.
func (x *exporter) poisonedLessons() map[string]bool {
	out := map[string]bool{}
	for i, fs := range x.in.Poisoning {
		e := x.in.Notes[i].Episode
		for _, f := range fs {
			k, ok := strings.CutPrefix(f.Field, "lessons/")
			n, err := strconv.Atoi(k)
			if ok && err == nil && e != nil && n >= 1 && n <= len(e.Lessons) {
				out[e.Lessons[n-1].Text] = true
			}
		}
	}
	return out
}

// lessonFlags are the flags of a lesson cluster: memory poisoning when a
// wording of it is a poisoned lesson.
func lessonFlags(wordings []string, poisoned map[string]bool) []string {
	if slices.ContainsFunc(wordings, func(w string) bool { return poisoned[w] }) {
		return []string{causal.FlagPoisoning}
	}
	return nil
}
