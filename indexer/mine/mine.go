package mine

import (
	"strings"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/note"
)

// Options are the miner's settings. Analyze is required; the zero value of
// every other field means its default.
type Options struct {
	// Analyze turns text into the terms situations are compared by (lower
	// case, stop words dropped, stemmed): the indexer passes the search
	// stage's analyser (search.Analyze), so mining reads words as search
	// and similar episodes do.
	Analyze func(string) []string
	// MinEpisodes is the support a candidate needs: this many different
	// episodes (default 3, SPEC §3).
	MinEpisodes int
	// MaxTerms caps the terms of a trigger (default 3): more only
	// describes the same episodes in more words.
	MaxTerms int
	// MaxContrasts caps the contrasting choices listed (default 5).
	MaxContrasts int
}

func (o Options) withDefaults() Options {
	if o.MinEpisodes <= 0 {
		o.MinEpisodes = 3
	}
	if o.MaxTerms <= 0 {
		o.MaxTerms = 3
	}
	if o.MaxContrasts <= 0 {
		o.MaxContrasts = 5
	}
	return o
}

// The reasons a considered pair is withheld (Result.Withheld), besides
// graph health's flags (causal.FlagFixture, FlagTautology,
// FlagPlaceholder, FlagDefaultRate).
const (
	// ReasonSupport: fewer than Options.MinEpisodes different episodes.
	ReasonSupport = "support"
	// ReasonOneSession: every episode is of one session.
	ReasonOneSession = "one-session"
	// ReasonAssociation: the action is not more likely in the situation
	// than everywhere (a generic action, such as running the tests).
	ReasonAssociation = "association"
	// ReasonDuplicate: the same action over (nearly) the same episodes as
	// a candidate kept, by a trigger nested in or around its own.
	ReasonDuplicate = "duplicate"
	// ReasonWritten: a pattern note already states it: the same action
	// (as the miner reads choices), with evidence that holds most of the
	// candidate's episodes (what engram mine --write leaves behind).
	ReasonWritten = "written"
)

// The counts of Result.Read.
const (
	ReadEpisodes                  = "episodes"
	ReadEpisodesFlagged           = "episodes_flagged"
	ReadDecisions                 = "decisions"
	ReadDecisionsWithoutContext   = "decisions_without_context"
	ReadDecisionsWithoutSituation = "decisions_without_situation"
	ReadDecisionsWithoutChoice    = "decisions_without_choice"
	ReadUnits                     = "units"
)

// Mine proposes the pattern candidates of notes, read after the graph
// stage: g's flags say which episodes are fixtures, nearly empty or
// poisoned, and those are never evidence (as for patterns). The same
// notes always give the same Result.
func Mine(notes []note.Note, g causal.Result, opt Options) Result {
	m := newMiner(notes, g, opt.withDefaults())
	m.read()
	m.patterns()
	m.mine()
	return m.result()
}

// chosen is a decision's choice: the option Chosen names (an option's
// text, in any case, or its number or letter) when it names one, else
// Chosen as written.
func chosen(d *note.Decision) string {
	c := strings.TrimSpace(d.Chosen)
	for k, o := range d.Options {
		o = strings.TrimSpace(o)
		if strings.EqualFold(c, o) || k < 9 && c == string(rune('1'+k)) || k < 26 && strings.EqualFold(c, string(rune('a'+k))) {
			return o
		}
	}
	return c
}
