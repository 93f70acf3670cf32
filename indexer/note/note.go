// Package note holds engram's domain types: the notes of a memory
// repository as the parse stage understands them, and the diagnostics every
// stage reports. It imports nothing else of engram's, so every stage can
// share it.
package note

import (
	"strings"
	"time"
)

// Kind is how engram treats a note.
type Kind string

const (
	KindEpisode Kind = "episode"
	KindPattern Kind = "pattern"
	KindNote    Kind = "note"
)

// Note is one parsed markdown note. Fields that the note does not give are
// zero; positions are 1-based lines in the original file.
type Note struct {
	Path string
	// Source is the namespace of the [[sources]] repository the note
	// came from (engram.toml), "" for the repository being built.
	Source string
	Kind   Kind
	// Type is the front matter type (episode, pattern, antipattern,
	// concept, thread, ...), lower-cased; empty when not given.
	Type      string
	Title     string
	Permalink string
	Tags      []string
	// Date is the front matter date, zero when absent or invalid.
	Date    time.Time
	Due     time.Time
	Private bool
	// Extra holds front matter keys engram does not interpret, passed
	// through to the JSON output.
	Extra map[string]any
	// Sections are the prose sections (Context, Trigger, ... and any
	// heading engram does not interpret), as markdown, in file order.
	// The text before the first level-2 heading has an empty Heading.
	Sections     []Section
	Observations []Observation
	Relations    []Relation
	// Links are all wikilinks of the note, in file order, including those
	// that are part of a relation, a causal relationship or evidence.
	Links []Link

	Episode *Episode
	Pattern *Pattern
}

// Section is a prose section of a note.
type Section struct {
	Heading  string
	Markdown string
	Line     int
}

// Observation is a list item "- [category] content #tag (context)".
type Observation struct {
	Category string
	ID       string
	Content  string
	Tags     []string
	Context  string
	Line     int
}

// Relation is a list item "- relation_type [[Target]] (context)".
type Relation struct {
	Type    string
	Target  string
	Context string
	Line    int
	Col     int
}

// Link is a wikilink [[Target|Alias]] or [[Target#Heading]].
type Link struct {
	Target  string
	Alias   string
	Heading string
	Line    int
	Col     int
}

// Episode is what an episode note adds to a note (SPEC §2.1).
type Episode struct {
	Outcome         Outcome
	Task            string
	DurationMinutes *float64
	Metrics         map[string]float64
	Session         string
	SourceThread    string
	Concepts        []string
	Decisions       []Decision
	Events          []Event
	Lessons         []Lesson
}

// Decision is one "### id: title" block under "## Decisions".
type Decision struct {
	ID        string
	Title     string
	Timestamp string
	Type      DecisionType
	Context   string
	Options   []string
	Chosen    string
	Rationale string
	Outcome   Outcome
	Effects   []Link
	Line      int
}

// Event is one item of "## Events Timeline"; ids are e001, e002, ... in
// file order.
type Event struct {
	ID        string
	Timestamp string
	Type      string
	Text      string
	// CausedBy and LeadsTo are ids of other events of the same episode.
	CausedBy []string
	LeadsTo  []string
	Line     int
}

// Lesson is one item of "## Lessons Learned".
type Lesson struct {
	Text string
	Line int
}

// Pattern is what a pattern or antipattern note adds (SPEC §2.2).
type Pattern struct {
	Trigger string
	Action  string
	// Declared values from front matter; nil when not given.
	DeclaredRate        *float64
	DeclaredOccurrences *int
	LastValidated       time.Time
	Causal              []CausalLink
	Evidence            []Evidence
}

// CausalLink is an item of "## Causal Relationships".
type CausalLink struct {
	Type   EdgeType
	Target string
	// Weight is the explicit "(weight w)"; nil when not given.
	Weight *float64
	Line   int
	Col    int
}

// Evidence is an item of "## Evidence Episodes".
type Evidence struct {
	Target  string
	Outcome Outcome
	Text    string
	Line    int
	Col     int
}

// SectionText returns the markdown of the first prose section with the
// given heading, compared case-insensitively, or "".
func (n *Note) SectionText(heading string) string {
	for _, s := range n.Sections {
		if strings.EqualFold(s.Heading, heading) {
			return s.Markdown
		}
	}
	return ""
}

// TriggerAction returns a pattern's trigger and action: the front matter
// values, or the "## Trigger" and "## Action" sections when those are
// empty.
func (n *Note) TriggerAction() (trigger, action string) {
	if n.Pattern == nil {
		return "", ""
	}
	trigger, action = n.Pattern.Trigger, n.Pattern.Action
	if trigger == "" {
		trigger = strings.TrimSpace(n.SectionText("Trigger"))
	}
	if action == "" {
		action = strings.TrimSpace(n.SectionText("Action"))
	}
	return trigger, action
}

// IsAntipattern reports whether the note declares itself an antipattern.
func (n *Note) IsAntipattern() bool {
	return n.Type == "antipattern" || hasPrefixFold(n.Title, "ANTIPATTERN-")
}

func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		a, b := s[i], prefix[i]
		if 'a' <= a && a <= 'z' {
			a -= 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}
