package gen

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/note"
)

// outcome is the i-th outcome, in the order the evidence bias tables
// below index them (note.Outcomes: success, partial, failure).
func outcome(i int) string { return string(note.Outcomes()[i]) }

// item is a note being generated: its ground truth plus what is needed to
// render it again when a later commit modifies it.
type item struct {
	Note
	seed     uint64    // seeds the body text, so every revision repeats it
	rev      int       // number of times a later commit modified the note
	session  time.Time // episodes: when the session happened
	dateText string    // episodes: front matter date as written; "" when omitted
	rels     []string  // episodes: relation type of each of Links
	variant  int       // bad notes: which bad value to write
}

// generator holds the state of one Generate call; it is never shared.
type generator struct {
	o        Options
	r        *rand.Rand
	eps      []*item
	pats     []*item
	bad      []*item
	pools    [3][]int       // episode indexes by outcome, increasing
	sessions map[string]int // sessions numbered so far, per day
	words    int            // planted words handed out so far
	doc      doc            // scratch buffer for rendering
}

func newGenerator(o Options) *generator {
	return &generator{
		o:        o,
		r:        rand.New(rand.NewPCG(uint64(o.Seed), 0x656e6772616d)),
		sessions: map[string]int{},
	}
}

// spread assigns the i-th of n notes to one of c commits, evenly and in
// order.
func spread(i, n, c int) int { return i * c / n }

// when is the date of commit c.
func (g *generator) when(c int) time.Time {
	return g.o.Start.Add(time.Duration(c) * g.o.Step)
}

func (g *generator) nextWord() string {
	w := uniqueWord(g.words)
	g.words++
	return w
}

// newSession starts an episode-shaped item added in commit c: the session
// happened between one hour and one step before the commit.
func (g *generator) newSession(c int) *item {
	back := time.Hour + time.Duration(g.r.Int64N(int64(g.o.Step)))
	session := g.when(c).Add(-back).Truncate(time.Minute)
	day := session.Format(time.DateOnly)
	g.sessions[day]++
	it := &item{seed: g.r.Uint64(), session: session}
	it.Title = fmt.Sprintf("EPISODE-%s-session-%02d", day, g.sessions[day])
	it.Path = "episodes/" + session.Format("2006/01/") + it.Title + ".md"
	it.Kind, it.Type = note.KindEpisode, "episode"
	it.AddedIn, it.UpdatedIn = c, c
	it.Created, it.DateSource = g.when(c), FromCommit
	it.Word = g.nextWord()
	return it
}

func (g *generator) planEpisodes() {
	// Near-duplicate pair k of n ends at episode k×E/n + 1.
	seconds := map[int]bool{}
	for k := range g.o.NearDuplicates {
		seconds[k*g.o.Episodes/g.o.NearDuplicates+1] = true
	}
	for i := range g.o.Episodes {
		it := g.newSession(spread(i, g.o.Episodes, g.o.Commits))
		it.Outcome = pickOutcome(g.r, [3]int{60, 25, 15})
		it.Task = newTask(g.r)
		it.Tags = pickN(g.r, tagWords, 1+g.r.IntN(3))
		if g.r.IntN(5) > 0 {
			it.dateText, it.Created = formatDate(g.r, it.session)
			it.DateSource = FromFrontMatter
		}
		g.linkEarlier(it)
		if i%7 == 3 {
			// Every seventh episode, from the fourth, also records one
			// wording of a planted lesson family, in turn.
			k := i / 7
			f := lessonFamilies[k%len(lessonFamilies)]
			it.Lesson = LessonPlant{Family: f.name, Text: f.wordings[(k/len(lessonFamilies))%len(f.wordings)]}
		}
		if seconds[i] {
			g.twin(g.eps[i-1], it)
		}
		g.pools[outcomeIndex(it.Outcome)] = append(g.pools[outcomeIndex(it.Outcome)], len(g.eps))
		g.eps = append(g.eps, it)
	}
}

// twin makes it a near-duplicate of first: the same body text (the text
// stream is seeded by the item), task, tags and planted lesson.
func (g *generator) twin(first, it *item) {
	it.seed, it.Task, it.Tags, it.Lesson = first.seed, first.Task, first.Tags, first.Lesson
	it.Twin, first.Twin = first.Title, it.Title
}

// linkEarlier relates an episode to the one before it and sometimes to
// another earlier one; earlier episodes are never in a later commit.
func (g *generator) linkEarlier(it *item) {
	n := len(g.eps)
	if n == 0 {
		return
	}
	it.Links, it.rels = []string{g.eps[n-1].Title}, []string{"follows"}
	if n > 1 && g.r.IntN(2) == 0 {
		it.Links = append(it.Links, g.eps[g.r.IntN(n-1)].Title)
		it.rels = append(it.rels, "relates_to")
	}
}

// pickOutcome draws an outcome with the given weights in percent.
func pickOutcome(r *rand.Rand, weights [3]int) string {
	x := r.IntN(100)
	for i, w := range weights {
		if x < w {
			return outcome(i)
		}
		x -= w
	}
	return outcome(2)
}

func outcomeIndex(o string) int {
	for i, s := range note.Outcomes() {
		if string(s) == o {
			return i
		}
	}
	return -1
}

func newTask(r *rand.Rand) string {
	verb := pick(r, verbs)
	return strings.ToUpper(verb[:1]) + verb[1:] + " " + pick(r, problems) + " in the " + pick(r, subjects)
}

// dateLayouts are the forms a front matter date is written in, weighted by
// repetition; SPEC §2 requires all of them to be understood.
var dateLayouts = []string{
	time.RFC3339, time.RFC3339, time.RFC3339, time.RFC3339,
	"zone", time.DateTime, time.DateOnly, "2006-01-02T15:04:05.0000000Z07:00",
}

// formatDate writes the session date in a random layout and returns the
// text and the instant a parser must read from it.
func formatDate(r *rand.Rand, t time.Time) (string, time.Time) {
	switch layout := dateLayouts[r.IntN(len(dateLayouts))]; layout {
	case "zone":
		return t.In(time.FixedZone("", 2*3600)).Format(time.RFC3339), t
	case time.DateOnly:
		return t.Format(layout), t.Truncate(24 * time.Hour)
	case "2006-01-02T15:04:05.0000000Z07:00":
		t = t.Add(time.Duration(r.IntN(1e7)) * 100)
		return t.Format(layout), t
	default:
		return t.Format(layout), t
	}
}

func (g *generator) planPatterns() {
	total := g.o.Patterns + g.o.Antipatterns
	for j := range total {
		c := spread(j, total, g.o.Commits)
		anti := spread(j+1, total, g.o.Antipatterns) > spread(j, total, g.o.Antipatterns)
		it := g.newPattern(j, c, anti)
		g.planEdges(it, j)
		g.planEvidence(it, j, c)
		for _, e := range it.Pattern.Evidence {
			it.Links = append(it.Links, e.Episode)
		}
		g.pats = append(g.pats, it)
	}
}

func (g *generator) newPattern(j, c int, anti bool) *item {
	prefix, typ := "PATTERN", "pattern"
	if anti {
		prefix, typ = "ANTIPATTERN", "antipattern"
	}
	name := pickN(g.r, nameWords, 2)
	it := &item{seed: g.r.Uint64()}
	it.Title = fmt.Sprintf("%s-%s-%s-%04d", prefix, name[0], name[1], j)
	it.Path = "patterns/" + it.Title + ".md"
	it.Kind, it.Type = note.KindPattern, typ
	it.AddedIn, it.UpdatedIn = c, c
	it.Created, it.DateSource = g.when(c), FromCommit
	it.Word = g.nextWord()
	it.Tags = pickN(g.r, tagWords, 1+g.r.IntN(2))
	it.Pattern = &Pattern{
		Trigger:       "when the " + pick(g.r, subjects) + " shows " + pick(g.r, problems),
		Action:        pick(g.r, verbs) + " the " + pick(g.r, subjects) + " first",
		LastValidated: g.when(c).Truncate(24 * time.Hour),
	}
	if j%10 == 4 {
		// A tautology, as ai-agents' extractor wrote them: the action is
		// the trigger again.
		it.Pattern.Action = it.Pattern.Trigger
		it.Pattern.Tautology = true
	}
	return it
}

// planEdges links pattern j to up to three earlier patterns, so the causal
// graph stays acyclic and every target exists by the commit adding j.
func (g *generator) planEdges(it *item, j int) {
	n := min(g.r.IntN(4), j)
	seen := map[int]bool{}
	for len(seen) < n {
		t := g.r.IntN(j)
		if seen[t] {
			continue
		}
		seen[t] = true
		e := Edge{Source: it.Title, Target: g.pats[t].Title, Type: string(pick(g.r, note.CausalTypes()))}
		if g.r.IntN(5) < 3 {
			e.Weight = float64(3+g.r.IntN(7)) / 10
		}
		it.Pattern.Edges = append(it.Pattern.Edges, e)
		it.Links = append(it.Links, e.Target)
	}
}

// planEvidence gives a pattern 2 to 6 evidence episodes added no later than
// the pattern itself, biased towards success (patterns) or failure
// (antipatterns). Every eighth pattern, and any pattern without earlier
// episodes, has no evidence and only declared statistics.
func (g *generator) planEvidence(it *item, j, c int) {
	p := it.Pattern
	anti := it.Type == "antipattern"
	limit := g.episodesUpTo(c)
	if j%8 == 7 || limit == 0 {
		g.declareStats(p, anti)
		return
	}
	bias := [3]int{70, 20, 10}
	if anti {
		bias = [3]int{10, 30, 60}
	}
	chosen := map[int]bool{}
	for k := min(2+g.r.IntN(5), limit); len(chosen) < k; {
		i := g.pickEpisode(pickOutcome(g.r, bias), limit)
		if !chosen[i] {
			chosen[i] = true
			p.Evidence = append(p.Evidence, Evidence{Episode: g.eps[i].Title, Outcome: g.eps[i].Outcome})
		}
	}
	sum := 0.0
	for _, e := range p.Evidence {
		v, _ := note.Outcome(e.Outcome).Value()
		sum += v
	}
	p.SuccessRate, p.Occurrences, p.StatsSource = sum/float64(len(p.Evidence)), len(p.Evidence), "evidence"
	p.DeclaredSuccessRate, p.DeclaredOccurrences = round2(p.SuccessRate), p.Occurrences
	p.Antipattern = anti || (p.SuccessRate <= 0.3 && p.Occurrences >= 2)
}

func (g *generator) declareStats(p *Pattern, anti bool) {
	rate := 0.5 + 0.05*float64(g.r.IntN(10))
	if anti {
		rate = 0.05 * float64(1+g.r.IntN(6))
	}
	p.DeclaredSuccessRate, p.DeclaredOccurrences = round2(rate), 1+g.r.IntN(8)
	p.SuccessRate, p.Occurrences, p.StatsSource = p.DeclaredSuccessRate, p.DeclaredOccurrences, "declared"
	p.Antipattern = anti || (p.SuccessRate <= 0.3 && p.Occurrences >= 2)
}

// round2 is the value a reader gets back from the two-decimal text
// written into front matter.
func round2(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 2, 64), 64)
	return v
}

// episodesUpTo counts the episodes added in commits 0..c: those i with
// i*C/E <= c.
func (g *generator) episodesUpTo(c int) int {
	e, cs := g.o.Episodes, g.o.Commits
	return min(((c+1)*e+cs-1)/cs, e)
}

// pickEpisode returns a random episode below limit with the wanted
// outcome, or any episode below limit when none has it.
func (g *generator) pickEpisode(outcome string, limit int) int {
	pool := g.pools[outcomeIndex(outcome)]
	n := countBelow(pool, limit)
	if n == 0 {
		return g.r.IntN(limit)
	}
	return pool[g.r.IntN(n)]
}

// countBelow counts the entries of the increasing slice s that are < x.
func countBelow(s []int, x int) int {
	lo, hi := 0, len(s)
	for lo < hi {
		m := (lo + hi) / 2
		if s[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func (g *generator) planBad() {
	kinds := g.o.BadKinds
	for k := range g.o.BadNotes {
		it := g.newSession(spread(k, g.o.BadNotes, g.o.Commits))
		it.Bad, it.variant = kinds[k%len(kinds)], k/len(kinds)
		if it.Bad == MissingOutcome || it.Bad == InvalidDate {
			it.Task = newTask(g.r)
			it.Tags = pickN(g.r, tagWords, 1+g.r.IntN(3))
		}
		if it.Bad == InvalidDate {
			it.Outcome = pickOutcome(g.r, [3]int{60, 25, 15})
		}
		g.bad = append(g.bad, it)
	}
}
