package note

import (
	"slices"
	"strings"
)

// DecisionType is what a decision was about (SPEC §2.1). "" is none;
// any other text is a type the input gave that is not valid, kept so that
// a diagnostic can name it.
type DecisionType string

// The decision types of SPEC §2.1.
const (
	DecisionDesign         DecisionType = "design"
	DecisionImplementation DecisionType = "implementation"
	DecisionTest           DecisionType = "test"
	DecisionRecovery       DecisionType = "recovery"
	DecisionRouting        DecisionType = "routing"
	DecisionOther          DecisionType = "other"
)

// DecisionTypes returns the valid decision types, in SPEC order.
func DecisionTypes() []DecisionType {
	return []DecisionType{DecisionDesign, DecisionImplementation, DecisionTest, DecisionRecovery, DecisionRouting, DecisionOther}
}

// Valid reports whether t is one of DecisionTypes.
func (t DecisionType) Valid() bool { return slices.Contains(DecisionTypes(), t) }

// EdgeType is the type of an edge of the causal graph: one of the causal
// types a pattern declares (SPEC §2.2), or one engram derives.
type EdgeType string

// The causal types of SPEC §2.2, which a pattern's "## Causal
// Relationships" declares (a decision's Effects are EdgeCauses).
const (
	EdgeCauses     EdgeType = "causes"
	EdgeEnables    EdgeType = "enables"
	EdgePrevents   EdgeType = "prevents"
	EdgeCorrelates EdgeType = "correlates"
)

// The edge types engram derives: an episode is evidence for a pattern; an
// event leads to another (ai-agents' caused_by and leads_to, one edge
// whichever side declares it); an episode contains each of its decisions
// and of its events that is a node, which is structure, not a causal
// claim (graph health does not count it as a link, and its weight is 1).
const (
	EdgeEvidenceFor EdgeType = "evidence_for"
	EdgeLeadsTo     EdgeType = "leads_to"
	EdgeContains    EdgeType = "contains"
)

// CausalTypes returns the edge types a pattern may declare, in SPEC order.
func CausalTypes() []EdgeType {
	return []EdgeType{EdgeCauses, EdgeEnables, EdgePrevents, EdgeCorrelates}
}

// Causal reports whether t is one of CausalTypes.
func (t EdgeType) Causal() bool { return slices.Contains(CausalTypes(), t) }

// Join is the types (or outcomes) as a message lists them: "a, b, c".
func Join[T ~string](ts []T) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}
