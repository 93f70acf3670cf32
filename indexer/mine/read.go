package mine

import (
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/note"
)

// episode is what the miner keeps of an episode.
type episode struct {
	title   string
	session string // the session key: source, then session or title
	outcome note.Outcome
	// flagged: a fixture, nearly empty or poisoned (causal.Excludes):
	// never evidence; flag is the first of its flags, the reason a pair
	// whose every episode is flagged is withheld.
	flagged bool
	flag    string
}

// unit is one decision: its situation and its choice.
type unit struct {
	ep        int
	decision  string
	situation string
	terms     []int32 // sorted, distinct
	choice    int32
	wording   string
}

type miner struct {
	opt      Options
	notes    []note.Note
	g        causal.Result
	eps      []episode
	units    []unit
	termID   map[string]int32
	termText []string
	choiceID map[string]int32
	choices  []string // choice key: its sorted distinct terms
	analysed map[string][]string
	// termUnits, choiceEps and withUnits are index's.
	termUnits [][]int
	choiceEps []int
	withUnits int
	// tests is the number of pairs considered: the association test's
	// correction.
	tests int
	// sizes memoises the number of episodes of a situation, which many
	// choices share.
	sizes map[termSet]int
	// written are the pattern notes (patterns).
	written []written
	res     Result
}

func newMiner(notes []note.Note, g causal.Result, opt Options) *miner {
	return &miner{opt: opt, notes: notes, g: g, termID: map[string]int32{}, sizes: map[termSet]int{}, choiceID: map[string]int32{}, analysed: map[string][]string{},
		res: Result{Candidates: []Candidate{}, Withheld: map[string]int{}, Read: map[string]int{}}}
}

// read makes the units of every episode, in the notes' order.
func (m *miner) read() {
	for i := range m.notes {
		n := &m.notes[i]
		if n.Episode == nil {
			continue
		}
		ep := m.episode(i)
		m.res.Read[ReadEpisodes]++
		if ep.flagged {
			m.res.Read[ReadEpisodesFlagged]++
		}
		m.eps = append(m.eps, ep)
		for k := range n.Episode.Decisions {
			m.unit(len(m.eps)-1, n.Episode, &n.Episode.Decisions[k])
		}
	}
	m.res.Read[ReadUnits] = len(m.units)
}

func (m *miner) episode(i int) episode {
	n := &m.notes[i]
	ep := episode{title: n.Title, session: n.Source + "\x00" + n.Episode.Session, outcome: n.Episode.Outcome}
	if strings.TrimSpace(n.Episode.Session) == "" {
		ep.session = n.Source + "\x00\x00" + n.Title // its own session
	}
	if i < len(m.g.Flags) && causal.Excludes(m.g.Flags[i]) {
		ep.flagged = true
		ep.flag = m.g.Flags[i][0]
	}
	return ep
}

// unit reads one decision: its situation is its context, or the
// episode's task when it has none; a decision with neither, or with no
// choice, is counted and skipped.
func (m *miner) unit(ep int, e *note.Episode, d *note.Decision) {
	m.res.Read[ReadDecisions]++
	situation := strings.TrimSpace(d.Context)
	if situation == "" {
		m.res.Read[ReadDecisionsWithoutContext]++
		situation = strings.TrimSpace(e.Task)
	}
	terms := m.terms(situation)
	if len(terms) == 0 {
		m.res.Read[ReadDecisionsWithoutSituation]++
		return
	}
	wording := chosen(d)
	key := m.choiceKey(wording)
	if key == "" {
		m.res.Read[ReadDecisionsWithoutChoice]++
		return
	}
	c, ok := m.choiceID[key]
	if !ok {
		c = int32(len(m.choices))
		m.choiceID[key] = c
		m.choices = append(m.choices, key)
	}
	m.units = append(m.units, unit{ep: ep, decision: d.ID, situation: situation, terms: terms, choice: c, wording: wording})
}

// analyse is Options.Analyze, once per distinct text.
func (m *miner) analyse(s string) []string {
	if ts, ok := m.analysed[s]; ok {
		return ts
	}
	ts := m.opt.Analyze(s)
	m.analysed[s] = ts
	return ts
}

// maxSituationTerms caps the terms a situation is read by: its first
// distinct ones. A paragraph of context (ai-agents writes them) would
// otherwise make thousands of candidate triggers per decision; the
// situation's first words say what it is.
const maxSituationTerms = 16

// terms are the first maxSituationTerms distinct terms of s, as sorted
// ids.
func (m *miner) terms(s string) []int32 {
	var out []int32
	seen := map[string]bool{}
	for _, t := range m.analyse(s) {
		if seen[t] {
			continue
		}
		if len(seen) == maxSituationTerms {
			break
		}
		seen[t] = true
		id, ok := m.termID[t]
		if !ok {
			id = int32(len(m.termText))
			m.termID[t] = id
			m.termText = append(m.termText, t)
		}
		out = append(out, id)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// choiceKey is what two wordings of one choice share: their distinct
// terms, sorted ("Retry the requests" and "retrying request" are one
// choice). "" when the choice has no terms.
func (m *miner) choiceKey(s string) string {
	ts := slices.Clone(m.analyse(s))
	slices.Sort(ts)
	return strings.Join(slices.Compact(ts), " ")
}
