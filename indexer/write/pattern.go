package write

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// PatternInput is a pattern or antipattern to write (SPEC §2.2), as
// `engram new pattern --json` and the MCP tool add_pattern take it.
// Title, Trigger and Action are required.
type PatternInput struct {
	Title string `json:"title"`
	// Type is pattern or antipattern; empty is antipattern for a title
	// starting ANTIPATTERN-, else pattern.
	Type          string          `json:"type,omitempty"`
	Tags          []string        `json:"tags,omitempty"`
	Trigger       string          `json:"trigger"`
	Action        string          `json:"action"`
	SuccessRate   *float64        `json:"success_rate,omitempty"`
	Occurrences   *int            `json:"occurrences,omitempty"`
	LastValidated string          `json:"last_validated,omitempty"`
	Context       string          `json:"context,omitempty"`
	Causal        []CausalInput   `json:"causal,omitempty"`
	Evidence      []EvidenceInput `json:"evidence,omitempty"`
}

// CausalInput is a causal relationship: causes, enables, prevents or
// correlates Target, with an optional weight in (0, 1].
type CausalInput struct {
	Type   string   `json:"type"`
	Target string   `json:"target"`
	Weight *float64 `json:"weight,omitempty"`
}

// EvidenceInput is an evidence episode and how it turned out.
type EvidenceInput struct {
	Episode string `json:"episode"`
	Outcome string `json:"outcome"`
	Text    string `json:"text,omitempty"`
}

// NewPattern writes a new pattern note, patterns/<file>.md, as
// NewEpisode writes an episode.
func NewPattern(ctx context.Context, opt WriteOptions, in PatternInput) (Written, error) {
	p, data, err := renderPattern(in)
	if err != nil {
		return Written{}, err
	}
	return writeNewNote(ctx, opt, in.Title, p, data, false, "write: pattern "+in.Title)
}

func renderPattern(in PatternInput) (string, []byte, error) {
	if err := checkPattern(&in); err != nil {
		return "", nil, err
	}
	p, err := notePath("patterns", in.Title)
	if err != nil {
		return "", nil, err
	}
	data := parse.Format(patternNote(in), parse.FormatOptions{Dates: map[string]string{"last_validated": in.LastValidated}})
	n, err := checkNote(p, data)
	if err != nil {
		return "", nil, err
	}
	if n.Pattern == nil || n.Title != in.Title || len(n.Pattern.Causal) != len(in.Causal) || len(n.Pattern.Evidence) != len(in.Evidence) {
		return "", nil, fmt.Errorf("the pattern does not read back as written: simplify its title, causal targets or evidence")
	}
	return p, data, nil
}

// patternNote is the note in asks for, checked (checkPattern).
func patternNote(in PatternInput) note.Note {
	p := &note.Pattern{Trigger: in.Trigger, Action: in.Action, DeclaredRate: in.SuccessRate, DeclaredOccurrences: in.Occurrences}
	for _, c := range in.Causal {
		p.Causal = append(p.Causal, note.CausalLink{Type: note.EdgeType(c.Type), Target: c.Target, Weight: c.Weight})
	}
	for _, e := range in.Evidence {
		p.Evidence = append(p.Evidence, note.Evidence{Target: e.Episode, Outcome: note.Outcome(e.Outcome), Text: oneLine(e.Text)})
	}
	n := note.Note{Kind: note.KindPattern, Type: in.Type, Title: in.Title, Tags: in.Tags, Pattern: p,
		Extra: map[string]any{writtenByKey: writtenByValue}}
	if in.Context != "" {
		n.Sections = []note.Section{{Heading: "Context", Markdown: in.Context}}
	}
	return n
}

func checkPattern(in *PatternInput) error {
	if err := checkTitle(in.Title); err != nil {
		return err
	}
	in.Trigger, in.Action = oneLine(in.Trigger), oneLine(in.Action)
	switch in.Type = strings.ToLower(in.Type); {
	case in.Type == "" && strings.HasPrefix(strings.ToUpper(in.Title), "ANTIPATTERN-"):
		in.Type = "antipattern"
	case in.Type == "":
		in.Type = "pattern"
	case in.Type != "pattern" && in.Type != "antipattern":
		return fmt.Errorf("the type %q is not pattern or antipattern", in.Type)
	}
	switch r := in.SuccessRate; {
	case in.Trigger == "" || in.Action == "":
		return fmt.Errorf("the trigger and the action are required: when does the pattern apply, and what does it do")
	case len(in.Trigger) > maxFieldBytes || len(in.Action) > maxFieldBytes || len(in.Context) > maxFieldBytes:
		return fmt.Errorf("the trigger, action or context is over the limit of %d bytes: shorten it", maxFieldBytes)
	case r != nil && (math.IsNaN(*r) || *r < 0 || *r > 1):
		return fmt.Errorf("the success rate %g is not between 0 and 1: give a fraction (0.7 for 70%%)", *r)
	case in.Occurrences != nil && *in.Occurrences < 0:
		return fmt.Errorf("occurrences %d is negative: give how many times the pattern was seen", *in.Occurrences)
	}
	if in.LastValidated != "" {
		if _, err := parse.ParseTime(in.LastValidated); err != nil {
			return fmt.Errorf("last_validated %q is not a date (2026-05-01)", in.LastValidated)
		}
	}
	for _, c := range in.Causal {
		switch {
		case !note.EdgeType(c.Type).Causal():
			return fmt.Errorf("the causal type %q is not one of %s", c.Type, note.Join(note.CausalTypes()))
		case checkLinkTarget(c.Target) != nil:
			return fmt.Errorf("causal target: %w", checkLinkTarget(c.Target))
		case c.Weight != nil && (math.IsNaN(*c.Weight) || *c.Weight <= 0 || *c.Weight > 1):
			return fmt.Errorf("the weight %g of the link to %s is not in (0, 1]", *c.Weight, c.Target)
		}
	}
	for _, e := range in.Evidence {
		if _, ok := note.ParseOutcome(e.Outcome); !ok {
			return fmt.Errorf("the evidence outcome %q for %s is not %s", e.Outcome, e.Episode, note.OutcomeList)
		}
		if err := checkLinkTarget(e.Episode); err != nil {
			return fmt.Errorf("evidence episode: %w", err)
		}
	}
	return nil
}

// checkLinkTarget refuses a target that would not read back as one
// wikilink.
func checkLinkTarget(t string) error {
	if strings.TrimSpace(t) == "" || strings.ContainsAny(t, "[]|#\n\r") || len(t) > maxTitleBytes {
		return fmt.Errorf("%q is not a note title: give one title, without [ ] | # or line breaks", t)
	}
	return nil
}
