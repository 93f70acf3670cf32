package lessons

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/search"
)

// BenchmarkClusters20k clusters the lessons of a 10,000-episode repository:
// two lessons an episode, a third of them exact repeats of a few hundred
// common lessons, a fifth paraphrases of those, the rest unique text.
func BenchmarkClusters20k(b *testing.B) {
	ls := generate(20_000, 1)
	b.ReportAllocs()
	for b.Loop() {
		Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations})
	}
}

var (
	benchSubjects = []string{
		"parser", "cache", "build", "index", "graph", "search", "site",
		"deploy", "auth", "config", "migration", "test suite", "renderer",
		"scheduler", "importer", "exporter", "bootstrap", "linter",
	}
	benchTemplates = []string{
		"Run the %s tests before touching %s code",
		"Keep %s changes small so the %s stays reviewable",
		"Measure the %s before optimising the %s",
		"Write down why the %s depends on the %s",
		"Never deploy the %s on a Friday without a %s rollback plan",
		"Check the %s logs first when the %s fails in CI",
		"Pin the %s version; an upgrade broke the %s",
	}
	benchFillers = []string{
		"the", "a", "when", "because", "after", "always", "it", "was",
		"we", "should", "have", "this", "that", "our", "then",
	}
)

// generate makes n lessons, the same ones for the same seed.
func generate(n int, seed uint64) []Lesson {
	r := rand.New(rand.NewPCG(seed, 42))
	var common []string
	for _, t := range benchTemplates {
		for range 40 {
			common = append(common, fmt.Sprintf(t, pick(r, benchSubjects), pick(r, benchSubjects)))
		}
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ls := make([]Lesson, n)
	for i := range ls {
		var text string
		switch p := r.IntN(100); {
		case p < 35:
			text = pick(r, common)
		case p < 55:
			text = paraphrase(r, pick(r, common))
		default:
			text = unique(r, i)
		}
		ep := i / 2
		ls[i] = Lesson{
			Text:    text,
			Episode: fmt.Sprintf("episode-%05d", ep),
			Date:    base.Add(time.Duration(ep) * time.Hour),
		}
	}
	return ls
}

// paraphrase changes case, inflection, punctuation or stop words, or adds
// a word, as a different author would.
func paraphrase(r *rand.Rand, s string) string {
	switch r.IntN(6) {
	case 0:
		return strings.ToLower(s) + "."
	case 1:
		return strings.ToUpper(s[:1]) + s[1:] + "!"
	case 2:
		return strings.Replace(s, " the ", " your ", 1)
	case 3:
		return strings.Replace(strings.Replace(s, "Run ", "Running ", 1), "Keep ", "Keeping ", 1)
	case 4:
		return s + " again"
	default:
		return "Lesson: " + s
	}
}

// unique is free text from a large vocabulary with one word of its own.
func unique(r *rand.Rand, i int) string {
	words := make([]string, 0, 14)
	for range 5 + r.IntN(10) {
		if r.IntN(3) == 0 {
			words = append(words, pick(r, benchFillers))
			continue
		}
		words = append(words, pseudoWord(r.IntN(3000)))
	}
	words = append(words, fmt.Sprintf("ticket%d", i))
	return strings.Join(words, " ")
}

// pseudoWord spells k as a pronounceable word.
func pseudoWord(k int) string {
	const cons, vows = "bcdfgklmnprstvz", "aeiou"
	var b strings.Builder
	for range 3 {
		b.WriteByte(cons[k%len(cons)])
		k /= len(cons)
		b.WriteByte(vows[k%len(vows)])
		k /= len(vows)
	}
	return b.String()
}

func pick(r *rand.Rand, s []string) string { return s[r.IntN(len(s))] }

// BenchmarkClustersIdentical10k: 10,000 lessons of one wording, each with
// its own commit id (meaningless, so left out): one group, compared once.
func BenchmarkClustersIdentical10k(b *testing.B) {
	ls := identical(10_000, func(i int) string { return fmt.Sprintf(" (commit %08x)", 0xa0000000+i) })
	b.ReportAllocs()
	for b.Loop() {
		Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations})
	}
}
