package mine_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/mine"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/search"
)

// parseFiles parses a generated repository's notes in path order, as the
// indexer does, and builds their graph.
func parseFiles(t testing.TB, files map[string][]byte) ([]note.Note, causal.Result) {
	t.Helper()
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	pr := parse.New(parse.Roots{})
	notes := make([]note.Note, 0, len(paths))
	for _, p := range paths {
		n, diags, err := pr.Parse(p, files[p])
		if err != nil || note.CountErrors(diags) > 0 {
			t.Fatalf("%s: %v %v", p, err, diags)
		}
		notes = append(notes, n)
	}
	return notes, causal.Build(notes, causal.DefaultOptions())
}

func mineOf(notes []note.Note, g causal.Result) mine.Result {
	return mine.Mine(notes, g, mine.Options{Analyze: search.Analyze})
}

// TestPlantedPatterns measures the miner against the patterns gen.Planted
// plants, on 3 seeds and 2 noise levels: precision ≥ 0.9 and recall ≥ 0.8
// on each.
//
// The match rule: a candidate matches a planted pattern when (1) its
// action is the planted action as the miner reads choices (the same
// terms: "Run migrations in the maintenance window" is "run the migration
// in a maintenance window"), (2) every term of its trigger is a term of
// the planted situation's words (a trigger may be fewer of them: "database
// migration" names the situation as well as "database migration lock",
// when its evidence says so; a term from an extra or a noise word is a
// wrong trigger), and (3) more than half of its evidence is episodes that
// took the planted action in the planted situation. (1) and (2) say the
// candidate states the planted rule; (3) that it was found from the
// planted episodes, not from noise that happens to share the words.
// Precision is the share of candidates that match a planted pattern
// (a candidate of a pattern planted to be withheld, one session or
// fixtures, is false); recall the share of the patterns not planted to
// be withheld that some candidate matches.
func TestPlantedPatterns(t *testing.T) {
	for _, noise := range []int{1, 3} {
		for _, seed := range []uint64{1, 2, 3} {
			c := gen.Planted(gen.PlantedOptions{Seed: seed, Noise: noise, Episodes: 200})
			notes, g := parseFiles(t, c.Files)
			res := mineOf(notes, g)
			precision, recall := measure(t, c, res)
			t.Logf("seed %d noise %d: %d candidates, precision %.3f, recall %.3f, withheld %v", seed, noise, len(res.Candidates), precision, recall, res.Withheld)
			if precision < 0.9 || recall < 0.8 {
				t.Errorf("seed %d noise %d: precision %.3f (want ≥ 0.9), recall %.3f (want ≥ 0.8)", seed, noise, precision, recall)
			}
		}
	}
}

// measure is the precision and recall of res against c's planted
// patterns (TestPlantedPatterns says how).
func measure(t *testing.T, c gen.PlantedCorpus, res mine.Result) (precision, recall float64) {
	found := map[int]bool{}
	right := 0
	for _, cand := range res.Candidates {
		k := match(c, cand)
		if k < 0 || c.Patterns[k].Withheld != "" {
			t.Logf("  unmatched: %s [%s] → %q (%d episodes, rate %.2f)", cand.Trigger, strings.Join(cand.Terms, " "), cand.Action, cand.Choice.Occurrences, cand.Choice.SuccessRate)
			continue
		}
		right++
		found[k] = true
	}
	planted := 0
	for _, p := range c.Patterns {
		if p.Withheld == "" {
			planted++
		}
	}
	if len(res.Candidates) > 0 {
		precision = float64(right) / float64(len(res.Candidates))
	}
	return precision, float64(len(found)) / float64(planted)
}

// match is the planted pattern cand matches, -1 for none.
func match(c gen.PlantedCorpus, cand mine.Candidate) int {
	for k, p := range c.Patterns {
		if choiceKey(cand.Action) != choiceKey(p.Action) || !within(cand.Terms, p.Situation) {
			continue
		}
		in := 0
		for _, e := range cand.Choice.Evidence {
			if slices.Contains(p.Episodes, e.Episode) {
				in++
			}
		}
		if 2*in > len(cand.Choice.Evidence) {
			return k
		}
	}
	return -1
}

func choiceKey(s string) string {
	ts := search.Analyze(s)
	slices.Sort(ts)
	return strings.Join(slices.Compact(ts), " ")
}

// within reports whether every term of words is a term of situation.
func within(words, situation []string) bool {
	var terms []string
	for _, w := range situation {
		terms = append(terms, search.Analyze(w)...)
	}
	for _, w := range words {
		for _, t := range search.Analyze(w) {
			if !slices.Contains(terms, t) {
				return false
			}
		}
	}
	return true
}
