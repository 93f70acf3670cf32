package search

import (
	"math"
	"slices"

	"github.com/engramhq/engram/indexer/note"
)

// The weight of a term in an episode (SPEC §3, similar episodes) is
//
//	(taskWeight × (1 + ln tf_task) + (1 + ln tf_rest)) × ln((N+1)/df)
//
// where tf_task counts the term in the episode's task and tf_rest in the
// rest of its record (Doc.Similar: context, decisions, events' contents,
// lessons), each part's count only when it is not zero; N is the number
// of episodes and df how many have the term. Then each vector is scaled
// to length 1, and the similarity of two episodes is the cosine of their
// vectors.
//
//   - The task says what the work was; the rest says how it went, in far
//     more words. A word of the task counts taskWeight times a word of the
//     rest, so episodes with the same task come first, and the events
//     still find the same work under different tasks.
//   - 1 + ln tf: an event log that says "hook" 190 times weighs it about
//     6 times one mention, not 190 times: a long episode does not swamp.
//   - ln((N+1)/df): a word in every episode weighs almost nothing (the
//     old ln(N/df) + 1 gave it a third of a rare word's weight), so two
//     episodes are alike by the words that set them apart. The +1 keeps
//     every weight above 0, so two episodes of a corpus of two still
//     compare.
//
// Before analysis, the identifiers that mean nothing (commit SHAs, UUIDs,
// dates, times; see note.WithoutIdentifiers) are taken out. How this was chosen, and
// what it finds on real data: BENCHMARKS.md, "Similar episodes on real
// data" (issue 12).
const taskWeight = 3

// idf is ln((N+1)/df); a term in no episode (only in a query) counts as
// in one.
func idf(n, df int) float64 { return math.Log(float64(n+1) / float64(max(df, 1))) }

// terms are the term counts of an episode's two parts.
type terms struct{ task, rest map[string]int }

// similarTerms is the text as similar episodes see it: without the
// identifiers that mean nothing, analyzed.
func similarTerms(text string) map[string]int {
	counts := map[string]int{}
	for _, t := range Analyze(note.WithoutIdentifiers(text)) {
		counts[t]++
	}
	return counts
}

func episodeTerms(d *Doc) terms {
	return terms{task: similarTerms(d.Task), rest: similarTerms(d.Similar)}
}

// each calls f with each distinct term.
func (c terms) each(f func(string)) {
	for t := range c.task {
		f(t)
	}
	for t := range c.rest {
		if c.task[t] == 0 {
			f(t)
		}
	}
}

// vector returns the unit vector of the counts: term ids ascending, and
// their weights.
func (c terms) vector(ids map[string]int32, idfs []float64) ([]int32, []float64) {
	w := make(map[int32]float64, len(c.task)+len(c.rest))
	for t, n := range c.task {
		w[ids[t]] += taskWeight * (1 + math.Log(float64(n)))
	}
	for t, n := range c.rest {
		w[ids[t]] += 1 + math.Log(float64(n))
	}
	term := make([]int32, 0, len(w))
	for t := range w {
		term = append(term, t)
	}
	slices.Sort(term)
	weight := make([]float64, len(term))
	norm := 0.0
	for i, t := range term {
		weight[i] = w[t] * idfs[t]
		norm += weight[i] * weight[i]
	}
	norm = math.Sqrt(norm)
	for i := range weight {
		weight[i] /= norm
	}
	return term, weight
}
