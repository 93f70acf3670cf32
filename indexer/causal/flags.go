package causal

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/engramhq/engram/indexer/note"
)

// Flags are what graph health finds wrong with a note (SPEC §3, "Graph
// health"): the ways ai-agents' own graph turned out to be noise (its
// ADR-089), each a name published in the note's JSON and shown as a
// banner on its page. A flagged pattern is never offered to agents as
// advice; a flagged episode is never offered as similar and never counts
// as a pattern's evidence.
const (
	// FlagFixture: an episode whose id or task says it is a test fixture
	// ("Test implementation"), or a pattern that comes from fixtures: its
	// evidence is only fixture episodes, or its trigger or action is the
	// text of one.
	FlagFixture = "fixture"
	// FlagEmpty: an episode with no content beyond a task of at most two
	// words ("Task 1", "Session 373 - 2026-01-05").
	FlagEmpty = "empty"
	// FlagTautology: a pattern whose action restates its trigger.
	FlagTautology = "tautology"
	// FlagPlaceholder: a pattern whose trigger or action is a template or
	// a placeholder ("When unknown decision needed", "T1" → "A1", TODO,
	// empty).
	FlagPlaceholder = "placeholder"
	// FlagDefaultRate: a pattern whose success rate is not a measurement:
	// declared with no evidence and no occurrences behind it (a bare
	// default), contradicted by its evidence episodes' own outcomes (0.0
	// over episodes that each say success), or declared outside the 95%
	// Wilson interval of its evidence. A rate declared with its
	// occurrences is a claim, not a default (Stats.Measured).
	FlagDefaultRate = "default_rate"
	// FlagPoisoning: a note with text that addresses an agent with
	// instructions (memory poisoning: to ignore its instructions, run a
	// downloaded script, skip review, send secrets away, or hidden in a
	// comment or invisible characters), which indexer/poison finds and
	// the repository has not allowed. Besides what every flag means, no
	// text of the note is in the bootstrap, and answers to agents (MCP,
	// the query commands) withhold the text found.
	FlagPoisoning = "memory_poisoning"
	// FlagOutcomeContradicted: an episode that says failure or partial
	// while its last event reports the work done ("PR #753 ready for
	// merge", "fixed and committed", "PR #3028 merged"): a writer that
	// classified the session by the word "failing" in its log. The
	// outcome is published as written, and the episode is not listed as
	// a failure. Unlike the other flags it says nothing against the
	// episode's text: the episode is still offered as similar and still
	// counts as evidence (an evidence line has its own outcome).
	FlagOutcomeContradicted = "outcome_contradicted"
)

// flagOrder is the order flags are listed in.
var flagOrder = []string{FlagFixture, FlagEmpty, FlagTautology, FlagPlaceholder, FlagDefaultRate, FlagPoisoning, FlagOutcomeContradicted}

// Excludes reports whether flags keep a note out of what agents are
// offered (advice, similar episodes) and out of a pattern's evidence:
// every flag does but FlagOutcomeContradicted.
func Excludes(flags []string) bool {
	for _, f := range flags {
		if f != FlagOutcomeContradicted {
			return true
		}
	}
	return false
}

// noise are the flags that say a note is not real work (a fixture, an
// empty episode), as opposed to dangerous text in real work.
func noise(fs []string) bool {
	for _, f := range fs {
		if f == FlagFixture || f == FlagEmpty {
			return true
		}
	}
	return false
}

func sortFlags(fs []string) []string {
	out := []string{}
	for _, f := range flagOrder {
		for _, g := range fs {
			if g == f {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// fixtureMarkers are the words that say "this is test data"; fixtureWords
// are those that may stand beside them in a fixture's id or task without
// making it real work ("Test implementation", "sample episode 3").
var (
	fixtureMarkers = wordSet("test tests testing fixture fixtures sample samples example examples dummy mock mocked placeholder lorem ipsum")
	fixtureWords   = wordSet("implementation task tasks episode episodes session sessions case cases data demo foo bar baz qux the a an of for")
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// EpisodeFlags says whether an episode is a test fixture or nearly empty
// (SPEC §3): its id or task says test, fixture, sample or example and
// nothing else of substance, or it has no content beyond a task of at
// most two words. Real work that mentions tests ("Fix the flaky auth
// test", "…-orphaned-test-hardening") is neither.
func EpisodeFlags(n *note.Note) []string {
	if n.Episode == nil {
		return []string{}
	}
	var fs []string
	if saysFixture(idWords(n.Title)) || saysFixture(letterWords(n.Episode.Task)) {
		fs = append(fs, FlagFixture)
	}
	if !hasContent(n) && len(Words(n.Episode.Task)) <= 2 {
		fs = append(fs, FlagEmpty)
	}
	if OutcomeContradicted(n.Episode) {
		fs = append(fs, FlagOutcomeContradicted)
	}
	return sortFlags(fs)
}

// doneCue is what a last event says when the work was done: merged, ready
// to merge, fixed (or resolved) and committed, pushed or merged, tests or
// checks passing. notCue, in the few words before, takes it back ("not
// merged", "cannot be merged until", "before it is merged").
var (
	doneCue = regexp.MustCompile(`(?i)\b(ready (?:for|to) merge|merged|(?:fixed|resolved) and (?:committed|pushed|merged)|all (?:\d+ )?(?:tests|checks) (?:pass|passed|passing|green))\b`)
	notCue  = regexp.MustCompile(`(?i)\b(not|no|never|cannot|can't|couldn't|won't|isn't|wasn't|aren't|weren't|without|before|until|unless|once|if|when|yet)\b`)
)

// OutcomeContradicted reports whether an episode that says failure or
// partial ends with an event that reports the work done (SPEC §3, "Graph
// health"; issue 31): its last event, in timeline order, has a done cue
// that no negation or condition in the five words before takes back.
func OutcomeContradicted(e *note.Episode) bool {
	if o, _ := note.ParseOutcome(string(e.Outcome)); (o != note.Failure && o != note.Partial) || len(e.Events) == 0 {
		return false
	}
	text := e.Events[len(e.Events)-1].Text
	for _, m := range doneCue.FindAllStringIndex(text, -1) {
		before := strings.Fields(text[:m[0]])
		if !notCue.MatchString(strings.Join(before[max(0, len(before)-5):], " ")) {
			return true
		}
	}
	return false
}

// saysFixture reports whether words are a fixture's: at least one marker,
// and nothing but markers and filler.
func saysFixture(words []string) bool {
	marker := false
	for _, w := range words {
		switch {
		case fixtureMarkers[w]:
			marker = true
		case !fixtureWords[w]:
			return false
		}
	}
	return marker
}

// idWords are the words of an episode id that say what it is about: its
// lower-cased letter runs, less the "episode" and "session" every id has.
// Numbers and dates say nothing.
func idWords(id string) []string {
	var out []string
	for _, w := range letterWords(id) {
		if w != "episode" && w != "session" {
			out = append(out, w)
		}
	}
	return out
}

// letterWords are the lower-cased runs of letters of s.
func letterWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// hasContent reports whether an episode has anything beyond its task.
func hasContent(n *note.Note) bool {
	e := n.Episode
	if len(e.Decisions) > 0 || len(e.Lessons) > 0 || len(n.Observations) > 0 || len(n.Relations) > 0 {
		return true
	}
	for _, ev := range e.Events {
		if hasWords(ev.Text) {
			return true
		}
	}
	for _, s := range n.Sections {
		if hasWords(s.Markdown) {
			return true
		}
	}
	return false
}

// Words are the words of s as a reader counts them: runs of text between
// spaces that hold a letter or a digit, less the identifiers that carry
// no meaning (note.WithoutIdentifiers: dates, timestamps, UUIDs, SHAs).
// "Session 373 - 2026-01-05" is two words; "Task of EP-1" three.
func Words(s string) []string {
	var out []string
	for _, f := range strings.Fields(note.WithoutIdentifiers(s)) {
		if w := word(f); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// hasWords reports whether s has a word, as Words counts them.
func hasWords(s string) bool {
	for _, f := range strings.Fields(note.WithoutIdentifiers(s)) {
		if word(f) != "" {
			return true
		}
	}
	return false
}

// word is f without the punctuation around it: "" when nothing else.
func word(f string) string {
	return strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// placeholderText matches a trigger or action that is a template or a
// placeholder: a letter and digits ("T1", "A"), TODO-like words, a
// template slot ("<trigger>", "{type}"), or ai-agents' extractor template
// "When <decision type> decision needed", which names no situation.
var placeholderText = regexp.MustCompile(`(?i)^(\pL\d*|todo|tbd|fixme|xxx|n/?a|none|null|unknown|placeholder|trigger|action|\.\.\.|…|<[^<>]*>|.*\{\{.*\}\}.*|.*\{\w+\}.*|when \S+ decision needed)$`)

// Placeholder reports whether a pattern's trigger or action is empty, a
// template or a placeholder.
func Placeholder(trigger, action string) bool {
	for _, s := range []string{trigger, action} {
		s = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), ".:"))
		if s == "" || placeholderText.MatchString(s) {
			return true
		}
	}
	return false
}

// episodeFlags flags the fixture, nearly empty and poisoned episodes
// (and the poisoned notes of other kinds), before the statistics leave
// the flagged episodes out of the evidence.
func (b *builder) episodeFlags() {
	b.r.Flags = make([][]string, len(b.notes))
	for i := range b.notes {
		b.r.Flags[i] = EpisodeFlags(&b.notes[i])
		if b.poisoned(i) {
			b.r.Flags[i] = sortFlags(append(b.r.Flags[i], FlagPoisoning))
		}
	}
}

// poisoned reports whether the poisoning stage flagged note i.
func (b *builder) poisoned(i int) bool {
	return i < len(b.opt.Poisoned) && b.opt.Poisoned[i]
}

// contradicted finds a rate that is a default and not a measurement: the
// evidence lines of two or more episodes all give one outcome, and not
// one of those episodes records that outcome itself (ai-agents' 0.0:
// "failure" on every line, "success" in every episode). One line that
// differs from its episode is only a mismatch: a pattern can fail within
// an episode that succeeds.
func (b *builder) contradicted(n *note.Note, s *Stats) {
	sum := 0.0
	lines := map[note.Outcome]bool{}
	for _, e := range s.Evidence {
		lines[e.Outcome] = true
		if v, ok := e.Own.Value(); ok {
			sum += v
			s.EpisodeOutcomes++
		}
	}
	if s.Source != "evidence" || s.EpisodeOutcomes < 2 || len(lines) != 1 {
		return
	}
	s.EpisodeRate = sum / float64(s.EpisodeOutcomes)
	for _, e := range s.Evidence {
		if e.Own == e.Outcome {
			return
		}
	}
	s.Contradicted = true
	ev := n.Pattern.Evidence[0]
	b.r.Diags.Report(n.Path, ev.Line, 1, note.Warning, "pattern-rate-contradicted",
		"every evidence line says %s, but none of the %d evidence episodes records that outcome (their own rate is %.2f); the rate %.2f is a default, not a measurement, and does not classify the pattern",
		s.Evidence[0].Outcome, s.EpisodeOutcomes, s.EpisodeRate, s.SuccessRate)
}

// flagWords names an episode's flags for a message.
func flagWords(fs []string) string {
	var out []string
	for _, f := range fs {
		switch f {
		case FlagFixture:
			out = append(out, "a test fixture")
		case FlagEmpty:
			out = append(out, "nearly empty")
		case FlagPoisoning:
			out = append(out, "flagged for memory poisoning")
		default:
			out = append(out, f)
		}
	}
	return strings.Join(out, " and ")
}
