package note

import "strings"

// Outcome is how an episode, a decision or an evidence line turned out
// (SPEC §2.1): success, partial or failure. "" is no outcome; any other
// text is an outcome the input gave that is not valid.
type Outcome string

// The valid outcomes.
const (
	Success Outcome = "success"
	Partial Outcome = "partial"
	Failure Outcome = "failure"
)

// Outcomes returns the valid outcomes, best first: the order of every
// list and table of outcomes engram makes.
func Outcomes() []Outcome { return []Outcome{Success, Partial, Failure} }

// ParseOutcome reads an outcome as written in a note, in any case; the
// result is lower case, and ok is whether it is valid.
func ParseOutcome(s string) (o Outcome, ok bool) {
	o = Outcome(strings.ToLower(strings.TrimSpace(s)))
	return o, o.Valid()
}

// Valid reports whether o is success, partial or failure.
func (o Outcome) Valid() bool { return o == Success || o == Partial || o == Failure }

// Value is what the outcome counts for in a success rate: success 1,
// partial 0.5, failure 0. ok is false for no outcome or an invalid one,
// which count for nothing.
func (o Outcome) Value() (v float64, ok bool) {
	switch o {
	case Success:
		return 1, true
	case Partial:
		return 0.5, true
	case Failure:
		return 0, true
	}
	return 0, false
}

// OutcomeList is the valid outcomes as a reader sees them in a message:
// "success, partial or failure".
const OutcomeList = "success, partial or failure"
