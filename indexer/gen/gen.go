// Package gen generates deterministic memory repositories for tests and
// benchmarks: episode and pattern notes in the formats of SPEC §2.1-2.3,
// some deliberately bad notes (SPEC §6), spread over a sequence of commits,
// together with the ground truth a test compares engram's output against.
//
// The same Options always give the same bytes: text comes from a seeded
// math/rand/v2 PCG and dates from Options.Start, never from the wall clock.
//
// Conventions a test can rely on:
//
//   - Good episodes live at episodes/YYYY/MM/<title>.md, patterns and
//     antipatterns at patterns/<title>.md. Every file name is its note's title
//     plus ".md", so a parser that falls back to the file name finds the same
//     title.
//   - Bad notes are added on top of Episodes, Patterns and Antipatterns. They
//     are episode-shaped (type: episode), live among the good episodes under
//     episodes/YYYY/MM/, carry no usable date (so their Created is always the
//     commit that added them), and no good note links to them.
//   - Created is the front matter date when an episode has one (about 80% do,
//     written in varied RFC 3339 / ISO 8601 forms), otherwise the date of the
//     commit that first added the file. Patterns have no date field, so their
//     Created is always the adding commit's date. Updated is the date of the
//     last commit that touched the file.
//   - Wikilinks in good notes point only at good notes added in the same or
//     an earlier commit, so every link resolves at every commit. Effects
//     links ([[d002]]) point at a decision id of the same episode.
//   - Causal relationships point only from a pattern to an earlier pattern,
//     so the causal graph is acyclic.
//   - Commit c is dated Start + c*Step; the last commit's date is the
//     reference time (Corpus.RefTime).
package gen

import (
	"testing/fstest"
	"time"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/source"
)

// Options says what to generate. The zero value is the small repository the
// tests use: 120 episodes, 20 patterns, 4 antipatterns and 3 bad notes of 3
// different kinds, seed 0, over 15 daily commits from 2026-01-05 09:00 UTC.
type Options struct {
	// Episodes, Patterns and Antipatterns count good notes; BadNotes are
	// generated in addition to them. When all four are zero the defaults
	// above are used; otherwise they are used as given (negative is zero).
	Episodes, Patterns, Antipatterns int
	BadNotes                         int
	// BadKinds is the cycle of kinds the bad notes take, in order; nil
	// means AllBadness(). Only the Badness constants of this package are
	// valid; Generate panics on any other value.
	BadKinds []Badness
	// Seed selects the text, outcomes and links; any value is valid.
	Seed int64
	// Start is the date of the first commit; zero means
	// 2026-01-05T09:00:00Z. It is converted to UTC.
	Start time.Time
	// Step is the time between two commits; zero means 24h.
	Step time.Duration
	// Commits is the number of commits; zero means one per ten notes,
	// between 1 and 100. It is capped so that every commit adds a note.
	Commits int
	// NearDuplicates plants this many pairs of near-duplicate episodes
	// (at most Episodes/2), spread over the episodes: the second of a
	// pair records the same situation as the episode before it, with the
	// same task, tags, context, observations, decisions, events and
	// lessons, and differs only in its title, dates, planted word and
	// links. Later commits never modify either of a pair. Note.Twin names
	// the other of the pair. Zero plants none, and leaves the repository
	// as it was without the option.
	NearDuplicates int
}

// Badness is what is wrong with a bad note.
type Badness string

const (
	// BrokenYAML: a front matter line "tags: [a, b" is never closed. Line is
	// that line; it is the last line before the closing "---".
	BrokenYAML Badness = "broken_yaml"
	// MissingOutcome: an episode without the required outcome field. A
	// missing field has no line of its own: Line is 1, the opening "---".
	MissingOutcome Badness = "missing_outcome"
	// InvalidDate: "date:" holds something that is not a date (such as
	// 2026-02-30). Line is the date line; the rest of the front matter is
	// valid.
	InvalidDate Badness = "invalid_date"
	// UnclosedFrontMatter: the opening "---" is never closed. Line is 1.
	UnclosedFrontMatter Badness = "unclosed_front_matter"
	// ListFrontMatter: the front matter is a YAML list, not a map. Line is
	// 2, the first line of the YAML document.
	ListFrontMatter Badness = "list_front_matter"
)

// AllBadness returns the default cycle of bad-note kinds. Its first three
// are different kinds of problem (syntax, validation, date), so even a
// repository with three bad notes exercises each.
func AllBadness() []Badness {
	return []Badness{BrokenYAML, MissingOutcome, InvalidDate, UnclosedFrontMatter, ListFrontMatter}
}

// DateSource says where a note's expected created date comes from.
type DateSource string

const (
	FromFrontMatter DateSource = "front_matter"
	FromCommit      DateSource = "commit"
)

// Corpus is a generated repository and its ground truth.
type Corpus struct {
	// Commits, oldest first, for source.WriteRepo.
	Commits []source.Commit
	// Notes is every note, good and bad, in the order they were added.
	Notes []Note
	// RefTime is the date of the last commit.
	RefTime time.Time
}

// Note is the ground truth for one generated note.
type Note struct {
	Path  string
	Title string
	// Kind is note.KindEpisode or note.KindPattern; Type is the front
	// matter type (episode, pattern or antipattern).
	Kind note.Kind
	Type string
	// Bad is empty for a good note. For a bad note, Line is the 1-based
	// line, absolute in the file, that the diagnostic should point at.
	// Outcome, Task and Tags of a bad note are set only when its front
	// matter is otherwise valid (MissingOutcome, InvalidDate).
	Bad  Badness
	Line int
	// Created is the expected created date and DateSource where it comes
	// from; Updated is the date of the last commit touching the file.
	Created    time.Time
	DateSource DateSource
	Updated    time.Time
	// AddedIn and UpdatedIn index Corpus.Commits.
	AddedIn, UpdatedIn int
	// Word is a word that occurs in this note and in no other.
	Word string
	// Links are the note titles this note links to, in file order
	// (decision ids of Effects are not included).
	Links []string
	// Outcome and Task are set for episodes; Tags for episodes and
	// patterns, in the order written.
	Outcome string
	Task    string
	Tags    []string
	// Decisions are an episode's decisions, in file order.
	Decisions []Decision
	// Lesson is a planted lesson, one wording of a family of paraphrases
	// (see LessonFamilies); zero for most episodes.
	Lesson LessonPlant
	// Pattern is set for patterns and antipatterns.
	Pattern *Pattern
	// Twin is the other episode of a planted near-duplicate pair
	// (Options.NearDuplicates); "" for most notes.
	Twin string
}

// LessonPlant is a planted lesson: Family names the paraphrases that
// say the same thing, and must form one cluster; Text is this wording.
type LessonPlant struct {
	Family, Text string
}

// LessonFamilies returns, by family, the good episodes whose planted
// lesson belongs to it.
func (c Corpus) LessonFamilies() map[string][]string {
	out := map[string][]string{}
	for _, n := range c.Episodes() {
		if n.Lesson.Family != "" {
			out[n.Lesson.Family] = append(out[n.Lesson.Family], n.Title)
		}
	}
	return out
}

// Decision is the ground truth of one decision of an episode. Options come
// from a small shared vocabulary, so the same option is chosen in several
// episodes (what-if has precedents to weigh).
type Decision struct {
	ID, Type string
	Options  []string
	Chosen   string
	Outcome  string
}

// Pattern is the ground truth of a pattern or antipattern note.
type Pattern struct {
	Trigger, Action string
	// Evidence lists the evidence episodes in file order, each with the
	// outcome that episode declares.
	Evidence []Evidence
	// SuccessRate and Occurrences are the expected published statistics:
	// from the evidence (StatsSource "evidence"; success 1, partial 0.5,
	// failure 0) or, for the patterns without evidence, the declared values
	// (StatsSource "declared").
	SuccessRate float64
	Occurrences int
	StatsSource string
	// Declared values as written in front matter. With evidence they are
	// the computed values rounded to two decimals, so they never differ by
	// more than 0.1.
	DeclaredSuccessRate float64
	DeclaredOccurrences int
	LastValidated       time.Time
	// Antipattern is the expected classification with the default
	// thresholds: type antipattern, or success_rate <= 0.3 with
	// occurrences >= 2.
	Antipattern bool
	// Tautology: the action only restates the trigger (every tenth
	// pattern, from the fifth).
	Tautology bool
	// Edges are the causal relationships, in file order.
	Edges []Edge
}

// Evidence is one line of "## Evidence Episodes".
type Evidence struct {
	Episode string
	Outcome string
}

// Edge is one line of "## Causal Relationships". Weight is the explicit
// "(weight w)", or 0 when the line gives none.
type Edge struct {
	Source, Target, Type string
	Weight               float64
}

// Episodes returns the good episodes.
func (c Corpus) Episodes() []Note {
	return c.filter(func(n *Note) bool { return n.Bad == "" && n.Kind == note.KindEpisode })
}

// Patterns returns the good patterns and antipatterns.
func (c Corpus) Patterns() []Note {
	return c.filter(func(n *Note) bool { return n.Bad == "" && n.Kind == note.KindPattern })
}

// Bad returns the bad notes.
func (c Corpus) Bad() []Note {
	return c.filter(func(n *Note) bool { return n.Bad != "" })
}

func (c Corpus) filter(keep func(*Note) bool) []Note {
	var out []Note
	for i := range c.Notes {
		if keep(&c.Notes[i]) {
			out = append(out, c.Notes[i])
		}
	}
	return out
}

// FS returns the files of the last commit, for tests that need no git
// history. File modes and times are zero.
func (c Corpus) FS() fstest.MapFS {
	fsys := fstest.MapFS{}
	for _, cm := range c.Commits {
		for path, data := range cm.Files {
			if data == nil {
				delete(fsys, path)
				continue
			}
			fsys[path] = &fstest.MapFile{Data: data}
		}
	}
	return fsys
}

// Sized returns options for a repository of exactly n notes (n >= 1; 0
// gives the zero Options and so the default repository), in
// the proportions of a real one: 1/6 patterns (a sixth of them
// antipatterns), 2% bad notes, the rest episodes.
func Sized(n int) Options {
	patterns := n / 6
	anti := patterns / 6
	bad := n / 50
	return Options{
		Episodes:     n - patterns - bad,
		Patterns:     patterns - anti,
		Antipatterns: anti,
		BadNotes:     bad,
	}
}

// withDefaults fills in the documented defaults.
func (o Options) withDefaults() Options {
	if o.Episodes == 0 && o.Patterns == 0 && o.Antipatterns == 0 && o.BadNotes == 0 {
		o.Episodes, o.Patterns, o.Antipatterns, o.BadNotes = 120, 20, 4, 3
	}
	o.Episodes, o.Patterns = max(o.Episodes, 0), max(o.Patterns, 0)
	o.Antipatterns, o.BadNotes = max(o.Antipatterns, 0), max(o.BadNotes, 0)
	if len(o.BadKinds) == 0 {
		o.BadKinds = AllBadness()
	}
	if o.Start.IsZero() {
		o.Start = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	}
	o.Start = o.Start.UTC()
	if o.Step <= 0 {
		o.Step = 24 * time.Hour
	}
	o.NearDuplicates = min(max(o.NearDuplicates, 0), o.Episodes/2)
	if o.Commits <= 0 {
		o.Commits = min(max((o.total()+9)/10, 1), 100)
	}
	// Every commit must add a note: the largest group spreads over at most
	// as many commits as it has notes.
	o.Commits = min(o.Commits, max(o.Episodes, o.Patterns+o.Antipatterns, o.BadNotes, 1))
	return o
}

func (o Options) total() int {
	return o.Episodes + o.Patterns + o.Antipatterns + o.BadNotes
}

// Generate builds the corpus that o describes.
func Generate(o Options) Corpus {
	o = o.withDefaults()
	g := newGenerator(o)
	g.planEpisodes()
	g.planPatterns()
	g.planBad()
	return g.commit()
}
