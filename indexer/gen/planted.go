package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/source"
)

// PlantedOptions says what Planted generates: a repository of episodes
// whose decisions carry known situation → action patterns among noise,
// the ground truth pattern mining is measured against (issue 35). It is
// a generator of its own: Generate's repositories are not touched by it.
type PlantedOptions struct {
	// Episodes is the number of episodes (default 400).
	Episodes int
	// Seed selects everything random.
	Seed uint64
	// Noise is the number of noise decisions per episode: random
	// situations from a vocabulary that overlaps the planted ones, and
	// random choices, the generic one among them (default 1).
	Noise int
}

// PlantedPattern is a pattern Planted planted: a situation, the action
// taken in it and how often it succeeds, and the episodes that carry it.
type PlantedPattern struct {
	// Situation are the core words every wording of the situation
	// carries, each in one of the inflections listed here (a wording
	// may add other words).
	Situation   []string
	Action      string
	SuccessRate float64
	// Episodes are the titles of the episodes whose decision in the
	// situation took the action.
	Episodes []string
	// Withheld: the pattern is planted so that mining must not propose
	// it (all its episodes are of one session, or fixtures).
	Withheld string
}

// PlantedCorpus is a planted repository and its truth.
type PlantedCorpus struct {
	// Files are the notes by path.
	Files    map[string][]byte
	Patterns []PlantedPattern
	// Generic is the action taken in every situation, planted nowhere.
	Generic string
}

// Commit is the repository as one commit, for source.WriteRepo.
func (c PlantedCorpus) Commit() source.Commit {
	return source.Commit{Files: c.Files, Message: "planted patterns", Author: "gen", When: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)}
}

// plant is a pattern to plant: its situation's core words, each a list
// of inflections (the first is the one the truth names), extra words its
// wordings may add, the action's wordings (one choice in inflection,
// order and stop words), and its success rate.
type plant struct {
	core     [][]string
	extra    []string
	actions  []string
	rate     float64
	withheld string
}

// plants overlap on purpose: database, deploy and token are the words of
// two situations each.
var plants = []plant{
	{core: [][]string{{"database"}, {"migration", "migrations"}, {"lock", "locked", "locks", "locking"}}, extra: []string{"nightly", "orders table", "long"},
		actions: []string{"run the migration in a maintenance window", "Run migrations in the maintenance window", "runs migration in maintenance windows"}, rate: 0.85},
	{core: [][]string{{"database"}, {"backup", "backups"}, {"corrupted", "corrupt", "corruption"}}, extra: []string{"weekly", "replica", "again"},
		actions: []string{"restore from the latest snapshot", "Restore the latest snapshots", "restoring from latest snapshot"}, rate: 0.8},
	{core: [][]string{{"flaky"}, {"integration"}, {"timeout", "timeouts"}}, extra: []string{"ci", "suite", "intermittent"},
		actions: []string{"quarantine the flaky test and file an issue", "Quarantine flaky tests and file issues", "quarantined the flaky test, filed an issue"}, rate: 0.75},
	{core: [][]string{{"rate"}, {"limit", "limited", "limits", "limiting"}, {"api"}}, extra: []string{"upstream", "burst", "partner"},
		actions: []string{"back off with jitter", "Backing off with jitter", "back off, with jitter"}, rate: 0.9},
	{core: [][]string{{"memory"}, {"leak", "leaks", "leaking"}, {"worker", "workers"}}, extra: []string{"heap", "slowly", "queue"},
		actions: []string{"profile the heap before changing code", "Profile heap before changing the code", "profiled the heap before changing code"}, rate: 0.7},
	{core: [][]string{{"deploy", "deploys", "deploying", "deployed"}, {"canary"}, {"errors", "error"}}, extra: []string{"spike", "production", "region"},
		actions: []string{"roll back the canary release", "Rolled back the canary release", "roll back canary releases"}, rate: 0.8},
	{core: [][]string{{"deploy", "deploys", "deploying", "deployed"}, {"config"}, {"drift", "drifted", "drifting"}}, extra: []string{"staging", "production", "manual"},
		actions: []string{"diff the config against production", "Diffs the config against production", "diff configs against production"}, rate: 0.65},
	{core: [][]string{{"token", "tokens"}, {"expired", "expires", "expiring"}, {"auth"}}, extra: []string{"session", "login", "refresh"},
		actions: []string{"rotate the signing key", "Rotated the signing keys", "rotate signing key"}, rate: 0.85},
	{core: [][]string{{"cache"}, {"cold"}, {"warmup"}}, extra: []string{"start", "slow"},
		actions: []string{"prewarm the cache from the access log", "Prewarm cache from access logs"}, rate: 0.8, withheld: "one-session"},
	{core: [][]string{{"sample"}, {"loader"}, {"fixture"}}, extra: []string{"data"},
		actions: []string{"use the sample loader", "Use sample loaders"}, rate: 0.9, withheld: "fixture"},
}

// The choices that are not patterns: contrasts (alternatives tried in
// every situation, that succeed less) and the generic action taken
// everywhere.
var (
	plantedGeneric   = []string{"run the tests", "Run the tests", "ran the tests"}
	plantedContrasts = [][]string{{"ask the user", "Asked the user"}, {"restart the service", "Restarted the service"}, {"revert the last change", "Reverted the last change"}, {"wait and try again", "Waited and tried again"}}
	noiseChoices     = []string{"rewrite it", "patch it", "add a flag", "split the file", "ask for review", "update the docs", "pin the version", "add logging", "raise the limit", "skip it for now", "open a ticket", "pair on it"}
	noiseWords       = []string{"parser", "renderer", "scheduler", "importer", "exporter", "linter", "index", "graph", "search", "build", "queue", "release", "review", "docs", "metrics", "alerts", "latency", "config", "database", "token", "deploy", "cache", "worker", "timeout", "error", "handler", "client", "server", "schema", "report"}
	noiseFillers     = []string{"The", "Again the", "While fixing the", "After the", "Before the"}
)

// Planted generates a planted repository. The same options give the
// same bytes.
func Planted(o PlantedOptions) PlantedCorpus {
	if o.Episodes <= 0 {
		o.Episodes = 400
	}
	if o.Noise <= 0 {
		o.Noise = 1
	}
	p := &planter{r: rand.New(rand.NewPCG(o.Seed, 35)), o: o, c: PlantedCorpus{Files: map[string][]byte{}, Generic: plantedGeneric[0]}}
	for _, pl := range plants {
		p.c.Patterns = append(p.c.Patterns, PlantedPattern{Situation: flat(pl.core), Action: pl.actions[0], SuccessRate: pl.rate, Withheld: pl.withheld})
	}
	for i := range o.Episodes {
		p.episode(i)
	}
	return p.c
}

func flat(core [][]string) []string {
	var out []string
	for _, w := range core {
		out = append(out, w...)
	}
	return out
}

type planter struct {
	r *rand.Rand
	o PlantedOptions
	c PlantedCorpus
	d doc
}

// episode writes episode i: three in four carry a planted situation
// (the last two plants, which must be withheld, are taken by a few
// episodes each: all of one session, or all fixtures), and every one
// has Noise noise decisions.
func (p *planter) episode(i int) {
	title := fmt.Sprintf("EPISODE-2026-02-%02d-planted-%04d", 1+i%28, i)
	session := fmt.Sprintf("session-%03d", p.r.IntN(max(p.o.Episodes/3, 1)))
	k := -1
	switch {
	case i%40 == 7 || i%40 == 23 || i%40 == 31:
		k, session = len(plants)-2, "session-one"
	case i%50 == 11 || i%50 == 29 || i%50 == 41:
		k, title = len(plants)-1, fmt.Sprintf("test-fixture-%04d", i)
	case p.r.IntN(4) > 0:
		k = p.r.IntN(len(plants) - 2)
	}
	task := "Routine maintenance of the " + pick(p.r, noiseWords)
	var decisions []string
	outcome := pick(p.r, []string{"success", "partial", "failure"})
	if k >= 0 {
		var text string
		text, outcome, task = p.planted(title, k, task)
		decisions = append(decisions, text)
	}
	for range p.o.Noise {
		decisions = append(decisions, p.noise())
	}
	p.r.Shuffle(len(decisions), func(a, b int) { decisions[a], decisions[b] = decisions[b], decisions[a] })
	p.write(title, session, outcome, task, decisions)
}

// planted writes the decision of plant k in episode title: the planted
// action (two in three), a contrast or the generic action, and the
// outcome drawn from the choice's rate. One in ten has no context: the
// situation is then the task.
func (p *planter) planted(title string, k int, task string) (text, outcome, newTask string) {
	pl := plants[k]
	situation := p.situation(pl)
	choice, rate := pick(p.r, pl.actions), pl.rate
	switch n := p.r.IntN(6); {
	case n == 4:
		choice, rate = pick(p.r, pick(p.r, plantedContrasts)), 0.35
	case n == 5:
		choice, rate = pick(p.r, plantedGeneric), 0.55
	default:
		p.c.Patterns[k].Episodes = append(p.c.Patterns[k].Episodes, title)
	}
	context := situation
	if p.r.IntN(10) == 0 {
		context, task = "", situation
	}
	return decision(context, choice), p.outcome(rate), task
}

// situation words plant pl's situation: its core words in one of their
// inflections, in any order, with one of its extra words or a noise
// word sometimes, after a filler.
func (p *planter) situation(pl plant) string {
	words := make([]string, 0, len(pl.core)+2)
	for _, w := range pl.core {
		words = append(words, pick(p.r, w))
	}
	if p.r.IntN(2) == 0 {
		words = append(words, pick(p.r, pl.extra))
	}
	if p.r.IntN(4) == 0 {
		words = append(words, pick(p.r, noiseWords))
	}
	p.r.Shuffle(len(words), func(a, b int) { words[a], words[b] = words[b], words[a] })
	return pick(p.r, noiseFillers) + " " + strings.Join(words, " ") + " " + pick(p.r, []string{"showed up", "again", "in staging", "during the release", "this morning"})
}

// noise is a decision in a random situation, with a random choice (the
// generic action one time in four).
func (p *planter) noise() string {
	words := pickN(p.r, noiseWords, 3+p.r.IntN(3))
	p.r.Shuffle(len(words), func(a, b int) { words[a], words[b] = words[b], words[a] })
	choice := pick(p.r, noiseChoices)
	if p.r.IntN(4) == 0 {
		choice = pick(p.r, plantedGeneric)
	}
	return decision(pick(p.r, noiseFillers)+" "+strings.Join(words, " ")+" needed attention", choice)
}

// outcome draws success with probability rate, else partial or failure
// (one in four partial).
func (p *planter) outcome(rate float64) string {
	switch {
	case p.r.Float64() < rate:
		return "success"
	case p.r.IntN(4) == 0:
		return "partial"
	}
	return "failure"
}

// decision is a decision's lines after its heading.
func decision(context, choice string) string {
	var b strings.Builder
	b.WriteString("- **Type**: implementation\n")
	if context != "" {
		b.WriteString("- **Context**: " + context + "\n")
	}
	b.WriteString("- **Chosen**: " + choice + "\n")
	return b.String()
}

func (p *planter) write(title, session, outcome, task string, decisions []string) {
	d := &p.d
	d.reset()
	d.line("---")
	d.line("title: ", title)
	d.line("type: episode")
	d.line("outcome: ", outcome)
	d.line("task: ", task)
	d.line("session: ", session)
	d.line("---")
	d.section("Decisions")
	for k, text := range decisions {
		if k > 0 {
			d.line()
		}
		d.line("### ", decisionID(k+1), ": Decide what to do")
		d.line()
		d.b = append(d.b, text...)
	}
	p.c.Files["episodes/planted/"+title+".md"] = append([]byte(nil), d.b...)
}
