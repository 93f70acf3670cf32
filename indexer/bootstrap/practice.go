package bootstrap

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
)

// The practice section (SPEC §4.1) is what many episodes do or check,
// found without a model: the phrases of their events and decisions (runs
// of two or three words with the stop words left out, or one word that is
// an identifier such as build_all.py), counted by episode, not by
// mention, so that an episode that says one line a hundred times counts
// once.
const (
	// practiceFloor and practiceShare: a phrase is practice when at
	// least a tenth of the episodes say it, and never fewer than
	// practiceFloor; practiceEnough episodes are enough in a large
	// repository.
	practiceFloor  = 3
	practiceEnough = 10
	// boilerplateShare: a phrase said by more than this share of the
	// episodes is the template every episode is written from ("commit
	// pushed"), and tells a new session nothing.
	boilerplateShare = 0.6
	// maxGram is the longest phrase, in words.
	maxGram = 3
	// exampleText caps the example quoted with a practice item.
	exampleText = 90
)

// phrases are the phrases of each episode, found once for the whole
// bootstrap and its slices.
type phrases struct {
	index map[string]int // episode id → its row in grams
	grams [][]string     // each episode's distinct phrases, sorted
}

// newPhrases finds the phrases of every episode.
func newPhrases(eps []export.Episode) *phrases {
	ph := &phrases{index: make(map[string]int, len(eps)), grams: make([][]string, len(eps))}
	for i := range eps {
		ph.index[eps[i].ID] = i
		seen := map[string]bool{}
		for _, t := range practiceTexts(&eps[i]) {
			for _, run := range runs(t) {
				grams(run, seen)
			}
		}
		keys := make([]string, 0, len(seen))
		for k := range seen {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		ph.grams[i] = keys
	}
	return ph
}

// practiceTexts are where an episode says what it did: its events and its
// decisions.
func practiceTexts(e *export.Episode) []string {
	out := make([]string, 0, len(e.Events)+len(e.Decisions))
	for _, ev := range e.Events {
		out = append(out, ev.Content)
	}
	for _, d := range e.Decisions {
		out = append(out, d.Title, d.Context, d.Chosen, d.Rationale, string(d.Outcome))
	}
	return out
}

// practice lists the phrases that many of eps say, most episodes first
// (then longer, then by text), each with its count and an example: the
// newest episode that says it and is not listed elsewhere. A phrase inside a listed one, or said by mostly
// the same episodes as a listed one (another wording of it), is left out.
func (ph *phrases) practice(eps []export.Episode, listed map[string]bool) []Item {
	var rows, at []int // each episode's row in ph.grams, and its place in eps
	for i := range eps {
		if r, ok := ph.index[eps[i].ID]; ok && !causal.Excludes(eps[i].Flags) {
			rows, at = append(rows, r), append(at, i)
		}
	}
	holders := map[string][]int{} // phrase → positions in rows
	for pos, r := range rows {
		for _, g := range ph.grams[r] {
			holders[g] = append(holders[g], pos)
		}
	}
	n := len(rows)
	least := max(practiceFloor, min(practiceEnough, (n+9)/10))
	var cands []string
	for g, h := range holders {
		if len(h) >= least && float64(len(h)) <= boilerplateShare*float64(n) {
			cands = append(cands, g)
		}
	}
	slices.SortFunc(cands, func(a, b string) int {
		if c := cmp.Compare(len(holders[b]), len(holders[a])); c != 0 {
			return c
		}
		if c := cmp.Compare(strings.Count(b, " "), strings.Count(a, " ")); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var kept []string
	for _, g := range cands {
		if len(kept) == MaxItems {
			break
		}
		if !repeats(g, kept, holders) {
			kept = append(kept, g)
		}
	}
	out := make([]Item, 0, len(kept))
	for rank, g := range kept {
		h := holders[g]
		e, ex := examples(eps, at, h, g, listed)
		listed[e.URL] = true
		out = append(out, Item{ID: e.ID, URL: e.URL, Score: practiceScore(rank, len(kept)),
			Text: Cut(fmt.Sprintf("“%s” in %d episodes, e.g. %s", g, len(h), ex))})
	}
	return out
}

// practiceScore orders the practice for the budget: by rank, from 1 for
// the first of n down to 0.75, as the warnings are (below). The budget
// drops the lowest score relative to its section's best, and the other
// sections' scores (recency, decayed) are all near their best: on a
// scale of episode counts every practice but the first would go before
// any week-old episode.
func practiceScore(rank, n int) float64 {
	return 1 - 0.25*float64(rank)/float64(n)
}

// repeats: g says again what a kept phrase says: it is inside one, holds
// one, or half of the episodes of the rarer of the two say both.
func repeats(g string, kept []string, holders map[string][]int) bool {
	for _, k := range kept {
		if strings.Contains(" "+k+" ", " "+g+" ") || strings.Contains(" "+g+" ", " "+k+" ") {
			return true
		}
		a, b := holders[g], holders[k]
		if 2*common(a, b) >= min(len(a), len(b)) {
			return true
		}
	}
	return false
}

// common counts the elements two sorted lists share.
func common(a, b []int) int {
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// examples picks the example of a phrase: among the newest episodes that
// say it and that listed does not hold, the first whose sentence saying
// it is short enough to quote whole, else the first one's, cut.
func examples(eps []export.Episode, at, holders []int, g string, listed map[string]bool) (*export.Episode, string) {
	var first *export.Episode
	firstText, tried := "", 0
	for _, h := range holders {
		e := &eps[at[h]]
		if listed[e.URL] {
			continue
		}
		t := example(e, g)
		if first == nil {
			first, firstText = e, cutTo(t, exampleText)
		}
		if t != "" && len([]rune(t)) <= exampleText {
			return e, t
		}
		if tried++; tried == exampleTries {
			break
		}
	}
	if first == nil { // every episode that says it is listed: the newest
		e := &eps[at[holders[0]]]
		return e, cutTo(example(e, g), exampleText)
	}
	return first, firstText
}

// exampleTries is how many episodes examples looks at.
const exampleTries = 5

// example is the shortest sentence of e's that says the phrase.
func example(e *export.Episode, g string) string {
	best := ""
	for _, t := range practiceTexts(e) {
		for _, s := range sentences(plain(t)) {
			seen := map[string]bool{}
			for _, run := range runs(s) {
				grams(run, seen)
			}
			if seen[g] && (best == "" || len(s) < len(best)) {
				best = s
			}
		}
	}
	return best
}

// grams adds the phrases of one run of words to seen: every two and three
// words in a row, and every word that is an identifier.
func grams(run []string, seen map[string]bool) {
	for i := range run {
		if identifier(run[i]) {
			seen[run[i]] = true
		}
		for n := 2; n <= maxGram && i+n <= len(run); n++ {
			seen[strings.Join(run[i:i+n], " ")] = true
		}
	}
}

// runs splits text into runs of words that may form a phrase: lower
// case, plural "s" dropped; a stop word, a number, a hash, a URL or the
// punctuation that ends a clause ends a run.
func runs(text string) [][]string {
	var out [][]string
	var run []string
	flush := func() {
		if len(run) > 0 {
			out = append(out, run)
			run = nil
		}
	}
	for _, f := range strings.Fields(text) {
		w := strings.TrimLeft(f, "([{\"'“‘`*")
		trimmed := strings.TrimRight(w, ".,;:!?)]}\"'”’`*")
		if w = normal(strings.ToLower(trimmed)); w == "" {
			flush()
		} else {
			run = append(run, w)
		}
		if len(trimmed) < len(strings.TrimLeft(f, "([{\"'“‘`*")) {
			flush() // punctuation after the word ends the clause
		}
	}
	flush()
	return out
}

// normal is a word as a phrase holds it, or "" when it ends a run: a stop
// word, a word without a letter (numbers, "#2811"), a commit hash, a URL.
func normal(w string) string {
	if len([]rune(w)) < 2 || stopWords[w] || strings.Contains(w, "://") || !strings.ContainsFunc(w, unicode.IsLetter) || hexLike(w) {
		return ""
	}
	if strings.HasPrefix(w, "#") {
		return ""
	}
	if i := strings.LastIndex(w, "/"); i >= 0 && i < len(w)-1 && strings.Contains(w[i:], ".") {
		w = w[i+1:] // scripts/build_all.py is build_all.py wherever it is
	}
	if !identifier(w) && len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") {
		w = w[:len(w)-1]
	}
	return w
}

// identifier: a word with a dot, an underscore, a slash or a digit in it,
// as the names of files, commands and settings are.
func identifier(w string) bool {
	return strings.ContainsAny(w, "._/0123456789")
}

// hexLike: seven or more hex digits with a digit among them (a commit).
func hexLike(w string) bool {
	if len(w) < 7 || !strings.ContainsAny(w, "0123456789") {
		return false
	}
	return strings.Trim(w, "0123456789abcdef") == ""
}

// stopWords say nothing on their own. English function words, and verbs
// every record uses.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all also am an and any are as at be because been
		before being below between both but by can could did do does doing done down during each either every few for
		from further had has have having he her here hers him his how i if in into is it its itself just me more most my
		no nor not now of off on once one only or other our ours out over own per same she should so some such than that
		the their theirs them then there these they this those through to too two three under until up upon very via was
		we were what when where which while who whom why will with within without would you your yours new still using
		used use uses get got gets make made makes run ran runs e.g i.e etc vs`) {
		m[w] = true
	}
	return m
}()
