package export

import "github.com/engramhq/engram/indexer/mine"

// Candidates is candidates.json: the pattern candidates mined from the
// episodes (indexer/mine, SPEC §3), best first, with what the miner
// withheld and read. They are proposals: Advice is always false, and no
// reader of advice (the bootstrap, the MCP server's answers) takes them
// until a person or an agent writes one as a pattern (engram mine
// --write), when it is a pattern like any other.
type Candidates struct {
	Version       int    `json:"version"`
	ReferenceTime string `json:"reference_time"`
	// Advice is false: a candidate is never advice (Note says so in
	// words, for a reader that meets the file alone).
	Advice bool   `json:"advice"`
	Note   string `json:"note"`
	// Write is the command that turns a candidate into a pattern note,
	// less the candidate's id.
	Write string      `json:"write"`
	Items []Candidate `json:"items"`
	// Withheld counts the candidates the miner did not publish, by
	// reason: a graph-health flag, "support" (fewer than three episodes)
	// or "one-session" (every episode of one session).
	Withheld map[string]int `json:"withheld"`
	// Read counts what the miner read (episodes, decisions, decisions
	// without a context, episodes left out).
	Read map[string]int `json:"read"`
	// DroppedEvidence counts the evidence entries that named no
	// published episode: left out, never linked. The miner reads only
	// published episodes, so it is 0 unless something went wrong.
	DroppedEvidence int `json:"dropped_evidence"`
}

// Candidate is one situation → action pair: the trigger and the terms it
// was found by, the action chosen in it with its record (the embedded
// CandidateChoice), and the other choices made in the same situation,
// each with its own record (what-if, mined), best first.
type Candidate struct {
	ID      string   `json:"id"`
	Trigger string   `json:"trigger"`
	Terms   []string `json:"terms"`
	CandidateChoice
	Contrasts []CandidateChoice `json:"contrasts"`
}

// CandidateChoice is a choice in a situation and the record behind it:
// occurrences are the episodes that made it (as the miner counted them),
// success_rate the mean of their outcomes (success 1, partial 0.5,
// failure 0), confidence its 95% Wilson lower bound, sessions the
// different sessions among them.
type CandidateChoice struct {
	Action      string              `json:"action"`
	Occurrences int                 `json:"occurrences"`
	SuccessRate float64             `json:"success_rate"`
	Confidence  float64             `json:"confidence"`
	Sessions    int                 `json:"sessions"`
	Evidence    []CandidateEvidence `json:"evidence"`
}

// CandidateEvidence is one episode's part in a choice: the episode, its
// page and document, the decision ("" when the choice comes from the
// episode's task and events) and how it turned out.
type CandidateEvidence struct {
	ID       string `json:"id"`
	URL      string `json:"url"`
	JSONURL  string `json:"json_url"`
	Decision string `json:"decision,omitempty"`
	Outcome  string `json:"outcome"`
}

// CandidatesNote is what candidates.json says of itself.
const CandidatesNote = "Pattern candidates mined from the episodes: proposals for a person or an agent to review, never advice. " +
	"None reaches the bootstrap or an agent's answers until it is written as a pattern (engram mine --write ID)."

// CandidatesWrite is the command that writes a candidate as a pattern.
const CandidatesWrite = "engram mine --write"

// CandidatesOf is candidates.json of in alone, without the rest of the
// site's documents: what engram mine --json prints, so the command and
// the API give an agent one shape.
func CandidatesOf(in Input) Candidates { return newExporter(in).candidates() }

// candidates is candidates.json from the miner's result: its candidates
// in its order, each evidence episode linked to its page and document.
func (x *exporter) candidates() Candidates {
	r := x.in.Candidates
	out := Candidates{Version: SchemaVersion, ReferenceTime: formatTime(x.in.ReferenceTime), Note: CandidatesNote, Write: CandidatesWrite,
		Items: []Candidate{}, Withheld: counts(r.Withheld), Read: counts(r.Read)}
	for _, c := range r.Candidates {
		item := Candidate{ID: c.ID, Trigger: c.Trigger, Terms: append([]string{}, c.Terms...), Contrasts: []CandidateChoice{}}
		item.CandidateChoice = x.choice(c.Choice, &out.DroppedEvidence)
		item.Action = c.Action // the candidate's wording, which names it
		for _, ch := range c.Contrasts {
			item.Contrasts = append(item.Contrasts, x.choice(ch, &out.DroppedEvidence))
		}
		out.Items = append(out.Items, item)
	}
	return out
}

// choice is a choice as candidates.json writes it; evidence that names
// no published episode is left out and counted in dropped.
func (x *exporter) choice(ch mine.Choice, dropped *int) CandidateChoice {
	out := CandidateChoice{Action: ch.Action, Occurrences: ch.Occurrences, SuccessRate: round(ch.SuccessRate),
		Confidence: round(ch.Confidence), Sessions: ch.Sessions, Evidence: []CandidateEvidence{}}
	for _, ev := range ch.Evidence {
		i, ok := x.noteIndex(ev.Episode)
		if !ok || x.in.Notes[i].Episode == nil {
			*dropped++
			continue
		}
		out.Evidence = append(out.Evidence, CandidateEvidence{ID: ev.Episode, URL: x.url(i), JSONURL: x.jsonURL(i), Decision: ev.Decision, Outcome: string(ev.Outcome)})
	}
	return out
}

// counts is a copy of m that encodes as an object, never null; encoding
// sorts its keys.
func counts(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
