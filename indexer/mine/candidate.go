// Package mine proposes pattern candidates from the record (SPEC §3,
// issue 35): a situation that recurs across episodes (shared terms of
// decisions' contexts or episodes' tasks) and a choice that recurs in it,
// with the episodes that support it, their outcomes, and the other
// choices made in the same situation. It is deterministic and LLM-free,
// and it proposes only: a candidate is never advice until a person or an
// agent writes it as a pattern (engram mine --write).
//
// Graph health's rules (indexer/causal) run on every candidate; one that
// fails them, or that fewer than three different episodes (of more than
// one session) support, is withheld and counted, never published.
package mine

import "github.com/engramhq/engram/indexer/note"

// Result is what mining found in a repository.
type Result struct {
	// Candidates are the candidates that passed every rule, best first
	// (a total order: ties end on the id).
	Candidates []Candidate
	// Withheld counts the candidates that did not, by reason (a
	// graph-health flag, "support" or "one-session"), so every pair the
	// miner considered is accounted for.
	Withheld map[string]int
	// Read counts what the miner read: episodes, decisions, decisions
	// without a context (their situation is the episode's task), and the
	// episodes left out as fixtures or nearly empty.
	Read map[string]int
}

// Candidate is one situation → action pair the record supports.
type Candidate struct {
	// ID is stable across builds while the trigger and action stay the
	// same words: "CANDIDATE-" and a slug of both.
	ID string
	// Trigger says the situation in words ("When …"), Terms are the
	// shared terms it was found by.
	Trigger string
	Terms   []string
	// Action is the recurring choice, in the words of the decisions that
	// made it (the most common wording, ties to the first in order).
	Action string
	Choice Choice
	// Contrasts are the other choices made in the same situation, each
	// with its own record (what-if, mined), best first.
	Contrasts []Choice
}

// Choice is a choice in a situation and the record behind it.
type Choice struct {
	Action string
	// Evidence are the episodes that made the choice, one per episode,
	// in the order of their titles.
	Evidence []Evidence
	// Occurrences is len(Evidence); SuccessRate the mean of their
	// outcomes' values (success 1, partial 0.5, failure 0) over those
	// with an outcome; Confidence its 95% Wilson lower bound.
	Occurrences int
	SuccessRate float64
	Confidence  float64
	// Sessions is the number of different sessions among the evidence.
	Sessions int
}

// Evidence is one episode's part in a choice.
type Evidence struct {
	// Episode is the episode's title (its id; under its source's
	// namespace when it comes from another repository).
	Episode string
	// Decision is the decision's id, "" when the situation and choice
	// come from the episode's task and events rather than a decision.
	Decision string
	Outcome  note.Outcome
}
