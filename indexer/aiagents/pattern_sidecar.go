package aiagents

import (
	"encoding/json"
	"math"

	"github.com/engramhq/engram/indexer/note"
)

// nearestOutcome is the evidence outcome whose contribution is nearest c.
func nearestOutcome(c float64) note.Outcome {
	switch {
	case math.IsNaN(c) || c >= 0.75:
		return note.Success
	case c >= 0.25:
		return note.Partial
	}
	return note.Failure
}

// outcomeValue is an evidence outcome's contribution to a success rate.
func outcomeValue(o note.Outcome) float64 {
	v, _ := o.Value()
	return v
}

// ApplyPatternSidecar gives a pattern row what a note that engram import
// wrote keeps in its ai_agents front matter: the row's id, name and
// created time (and a description or last_used that the markdown cannot
// hold), and contributions that are not 0, 0.5 or 1 while the evidence
// still says what the import wrote. p holds what engram computed.
func ApplyPatternSidecar(n *note.Note, p *GraphPattern) {
	if raw, ok := n.Extra[sidecarKey]; ok {
		if ps, err := readPatternSidecar(raw); err == nil {
			ps.apply(p)
		}
	}
}

// patternSidecar is the ai_agents front matter of an imported pattern:
// the row's id, name and created time, its description when "## Context"
// cannot hold it exactly, and contributions that are not 0, 0.5 or 1.
type patternSidecar struct {
	ID            string             `json:"id,omitempty" yaml:"id,omitempty"`
	Name          string             `json:"name,omitempty" yaml:"name,omitempty"`
	Description   *string            `json:"description,omitempty" yaml:"description,omitempty"`
	Created       string             `json:"created,omitempty" yaml:"created,omitempty"`
	LastUsed      string             `json:"last_used,omitempty" yaml:"last_used,omitempty"`
	Contributions map[string]float64 `json:"contributions,omitempty" yaml:"contributions,omitempty"`
}

func readPatternSidecar(raw any) (patternSidecar, error) {
	var s patternSidecar
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	return s, err
}

func (s patternSidecar) apply(p *GraphPattern) {
	if s.ID != "" {
		p.ID = s.ID
	}
	if s.Name != "" {
		p.Name = s.Name
	}
	if s.Description != nil {
		p.Description = *s.Description
	}
	if s.Created != "" {
		p.Created = s.Created
	}
	if s.LastUsed != "" && p.LastUsed == "" {
		p.LastUsed = s.LastUsed
	}
	for ep, c := range s.Contributions {
		// Only while the evidence line still gives the outcome the
		// contribution was rounded to.
		if v, ok := p.Contributions[ep]; ok && v == outcomeValue(nearestOutcome(c)) {
			p.Contributions[ep] = c
		}
	}
}
