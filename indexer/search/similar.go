package search

import (
	"cmp"
	"encoding/gob"
	"fmt"
	"io"
	"maps"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/engramhq/engram/indexer/causal"
)

// Similar episodes (SPEC §3): each episode is a vector of weighted terms
// (similar_weight.go), and the similarity of two episodes is the cosine
// of their vectors. An episode without terms is similar to nothing; an
// episode with flags (a test fixture, nearly empty) is never offered as
// similar, but has its own similar episodes.
//
// Comparing every pair is N² (50 million pairs at 10,000 episodes), and
// an inverted index alone does not help when terms are common: a term in
// half the episodes makes every one of them a candidate. So candidates
// come from a bounded part of the postings, in two ways:
//
//   - the rarest terms first (prefix filtering): the postings of the
//     episode's terms in order of increasing document frequency, all of
//     them, until SimilarPrefix postings have been read (the term that
//     crosses the cap gives the postings nearest the episode's weight, as
//     below). Two episodes that share their rarer terms are found this
//     way, however common their other words.
//   - nearest weights: for each of the episode's SimilarTerms heaviest
//     terms, the SimilarWindow postings whose weight for the term is
//     nearest the episode's (postings are sorted by weight). Episodes with
//     the same words in the same proportions have near-equal weights for
//     every shared term, so they are found through many terms.
//
// Each way ranks its candidates by the part of the dot product it saw;
// the best SimilarShortlist of each are scored by their exact cosine, and
// the best of those are kept: highest score (rounded to four decimals)
// first, then by id. A corpus small enough that no cap is reached gets
// the exact top k. The result is deterministic, and independent of the
// order the episodes come in.
//
// An episode's list stops at SimilarFloor: below it, nothing is close,
// and an episode with no related work lists fewer than k, or none,
// rather than the least unlike. The floor was chosen on hand-judged
// lists of two real snapshots (BENCHMARKS.md, "Issue 31: similar
// episodes"; the judgments are indexer/testdata/similar_judged.txt):
// below 0.08 none of the 15 judged candidates was relevant (9 and 6 on
// the two snapshots), at or above it 44% and 58% were. A text (`engram similar TEXT`)
// has no floor: a few words against a whole record score lower for the
// same relevance, and the caller asked for that text.
const (
	SimilarPrefix    = 4096
	SimilarWindow    = 128
	SimilarTerms     = 64
	SimilarShortlist = 100
	SimilarFloor     = 0.08
	// SimilarQueryBytes caps the text `engram similar TEXT` reads.
	SimilarQueryBytes = 64 << 10
)

// Match is a similar episode and the cosine similarity, with what a
// reader judges it by without opening it: its headline and outcome.
type Match struct {
	ID       string  `json:"id"`
	Score    float64 `json:"score"`
	URL      string  `json:"url"`
	Headline string  `json:"headline"`
	Outcome  string  `json:"outcome"`
}

// Similarity is the TF-IDF model of the episodes. It is built once and
// never changed.
type Similarity struct {
	IDs, URLs []string // of the episodes, sorted by id
	// Headlines and Outcomes of the episodes, in the order of IDs.
	Headlines, Outcomes []string
	Terms               []string // sorted
	IDF                 []float64
	// Postings of term t: PostStart[t] ≤ k < PostStart[t+1], by weight
	// descending, then episode.
	PostStart []int32
	PostDoc   []int32
	PostW     []float64
	// Vector of episode d: VecStart[d] ≤ k < VecStart[d+1], by term, with
	// each entry's place in its term's postings.
	VecStart []int32
	VecTerm  []int32
	VecW     []float64
	VecPos   []int32
}

// NewSimilarity builds the model of the episodes among docs.
func NewSimilarity(docs []Doc) *Similarity {
	var eps []Doc
	for _, d := range docs {
		if kind(d.Type) == KindEpisode {
			eps = append(eps, d)
		}
	}
	slices.SortFunc(eps, func(a, b Doc) int { return cmp.Compare(a.ID, b.ID) })
	counts := make([]terms, len(eps))
	parallel(len(eps), func(i int) { counts[i] = episodeTerms(&eps[i]) })
	s := &Similarity{}
	df := map[string]int{}
	for i, e := range eps {
		s.IDs, s.URLs = append(s.IDs, e.ID), append(s.URLs, e.URL)
		s.Headlines, s.Outcomes = append(s.Headlines, e.Headline), append(s.Outcomes, e.Outcome)
		counts[i].each(func(t string) { df[t]++ })
	}
	for t := range df {
		s.Terms = append(s.Terms, t)
	}
	sort.Strings(s.Terms)
	ids := make(map[string]int32, len(s.Terms))
	for k, t := range s.Terms {
		ids[t] = int32(k)
		s.IDF = append(s.IDF, idf(len(eps), df[t]))
	}
	s.vectors(counts, ids)
	offered := make([]bool, len(eps))
	for i, e := range eps {
		offered[i] = !causal.Excludes(e.Flags)
	}
	s.postings(offered)
	return s
}

// vectors fills the episodes' unit vectors.
func (s *Similarity) vectors(counts []terms, ids map[string]int32) {
	vecs := make([]vec, len(counts))
	parallel(len(counts), func(i int) { vecs[i].term, vecs[i].w = counts[i].vector(ids, s.IDF) })
	s.VecStart = append(s.VecStart, 0)
	for _, v := range vecs {
		s.VecTerm = append(s.VecTerm, v.term...)
		s.VecW = append(s.VecW, v.w...)
		s.VecStart = append(s.VecStart, int32(len(s.VecTerm)))
	}
}

// postings inverts the vectors of the episodes offered, and records each
// entry's place (-1 for the others).
func (s *Similarity) postings(offered []bool) {
	n := len(s.Terms)
	s.PostStart = make([]int32, n+1)
	for d := range len(s.IDs) {
		if offered[d] {
			for _, t := range s.VecTerm[s.VecStart[d]:s.VecStart[d+1]] {
				s.PostStart[t+1]++
			}
		}
	}
	for t := range n {
		s.PostStart[t+1] += s.PostStart[t]
	}
	s.PostDoc = make([]int32, s.PostStart[n])
	s.PostW = make([]float64, s.PostStart[n])
	s.VecPos = make([]int32, len(s.VecTerm))
	for k := range s.VecPos {
		s.VecPos[k] = -1
	}
	next := slices.Clone(s.PostStart[:n])
	for d := range len(s.IDs) {
		if !offered[d] {
			continue
		}
		for k := s.VecStart[d]; k < s.VecStart[d+1]; k++ {
			t := s.VecTerm[k]
			s.PostDoc[next[t]], s.PostW[next[t]] = int32(d), s.VecW[k]
			next[t]++
		}
	}
	parallel(n, func(t int) {
		lo, hi := s.PostStart[t], s.PostStart[t+1]
		sort.Sort(byWeight{s.PostDoc[lo:hi], s.PostW[lo:hi]})
	})
	for t := range n {
		for k := s.PostStart[t]; k < s.PostStart[t+1]; k++ {
			d := s.PostDoc[k]
			v := s.VecStart[d] + int32(sort.Search(int(s.VecStart[d+1]-s.VecStart[d]), func(i int) bool { return s.VecTerm[s.VecStart[d]+int32(i)] >= int32(t) }))
			s.VecPos[v] = k - s.PostStart[t]
		}
	}
}

type byWeight struct {
	doc []int32
	w   []float64
}

func (b byWeight) Len() int { return len(b.doc) }
func (b byWeight) Less(i, j int) bool {
	return b.w[i] > b.w[j] || b.w[i] == b.w[j] && b.doc[i] < b.doc[j]
}
func (b byWeight) Swap(i, j int) {
	b.doc[i], b.doc[j] = b.doc[j], b.doc[i]
	b.w[i], b.w[j] = b.w[j], b.w[i]
}

// vec is a sparse unit vector: terms ascending, with each term's place in
// its postings (-1: find it by weight).
type vec struct {
	term []int32
	w    []float64
	pos  []int32
}

func (s *Similarity) vec(d int) vec {
	lo, hi := s.VecStart[d], s.VecStart[d+1]
	return vec{s.VecTerm[lo:hi], s.VecW[lo:hi], s.VecPos[lo:hi]}
}

// All returns the k most similar other episodes of every episode, by id.
func (s *Similarity) All(k int) map[string][]Match {
	out := make([][]Match, len(s.IDs))
	workers := max(min(runtime.GOMAXPROCS(0), len(s.IDs)), 1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			sc := s.newScratch()
			for d := w; d < len(s.IDs); d += workers {
				out[d] = s.top(s.vec(d), d, k, SimilarFloor, sc)
			}
		})
	}
	wg.Wait()
	m := make(map[string][]Match, len(s.IDs))
	for d, id := range s.IDs {
		m[id] = out[d]
	}
	return m
}

// Episode returns the k episodes most similar to the episode id, and
// false when there is no such episode.
func (s *Similarity) Episode(id string, k int) ([]Match, bool) {
	d, ok := slices.BinarySearch(s.IDs, id)
	if !ok {
		return nil, false
	}
	return s.top(s.vec(d), d, k, SimilarFloor, s.newScratch()), true
}

// Score returns the cosine similarity of two episodes (rounded as in
// their lists), whether or not either lists the other, and false when
// either is not an episode of the model. It is how a judged pair is
// scored against the floor.
func (s *Similarity) Score(a, b string) (float64, bool) {
	i, okA := slices.BinarySearch(s.IDs, a)
	j, okB := slices.BinarySearch(s.IDs, b)
	if !okA || !okB {
		return 0, false
	}
	return round4(dot(s.vec(i), s.vec(j))), true
}

// dot is the dot product of two sparse vectors, summed in the order of
// their terms, as exact sums it.
func dot(a, b vec) float64 {
	sum := 0.0
	for i, j := 0, 0; i < len(a.term) && j < len(b.term); {
		switch {
		case a.term[i] < b.term[j]:
			i++
		case a.term[i] > b.term[j]:
			j++
		default:
			sum += a.w[i] * b.w[j]
			i, j = i+1, j+1
		}
	}
	return sum
}

// Text returns the k episodes most similar to a text (its first
// SimilarQueryBytes), weighted by the episodes' IDF. The text is one
// part, so whether it counts as a task or as the rest makes no
// difference to its own vector; in the episodes' vectors their tasks
// weigh most, so a text that says what an episode's task says finds that
// episode first. A text without terms is similar to nothing.
func (s *Similarity) Text(text string, k int) []Match {
	var v vec
	norm := 0.0
	counts := similarTerms(capText(text, SimilarQueryBytes))
	// In the order of the terms, not the map's: the norm is a float sum,
	// and the same text must score the same every time.
	for _, t := range slices.Sorted(maps.Keys(counts)) {
		w := 1 + math.Log(float64(counts[t]))
		id, ok := slices.BinarySearch(s.Terms, t)
		if !ok {
			// In no episode: it cannot match, but counts in the text's
			// length, as it would in an episode's.
			w *= idf(len(s.IDs), 0)
			norm += w * w
			continue
		}
		w *= s.IDF[id]
		norm += w * w
		v.term, v.w, v.pos = append(v.term, int32(id)), append(v.w, w), append(v.pos, -1)
	}
	if len(v.term) == 0 {
		return []Match{}
	}
	norm = math.Sqrt(norm)
	for i := range v.w {
		v.w[i] /= norm
	}
	sort.Sort(v)
	return s.top(v, -1, k, 0, s.newScratch())
}

func (v vec) Len() int           { return len(v.term) }
func (v vec) Less(i, j int) bool { return v.term[i] < v.term[j] }
func (v vec) Swap(i, j int) {
	v.term[i], v.term[j] = v.term[j], v.term[i]
	v.w[i], v.w[j] = v.w[j], v.w[i]
	v.pos[i], v.pos[j] = v.pos[j], v.pos[i]
}

// scratch is what finding the similar episodes of one episode needs,
// reused for the next.
type scratch struct {
	prefix, near *accumulator
	// dense holds the query's weights by term, for exact cosines.
	dense []float64
	seen  []bool
	cands []scored
}

// scored is a candidate and its exact cosine.
type scored struct {
	d     int32
	score float64
}

func (s *Similarity) newScratch() *scratch {
	return &scratch{prefix: newAccumulator(len(s.IDs)), near: newAccumulator(len(s.IDs)),
		dense: make([]float64, len(s.Terms)), seen: make([]bool, len(s.IDs))}
}

// top finds the k episodes most similar to v, leaving out self, that
// score above 0 and at least floor.
func (s *Similarity) top(v vec, self, k int, floor float64, sc *scratch) []Match {
	if k <= 0 || len(v.term) == 0 {
		return []Match{}
	}
	defer sc.prefix.reset()
	defer sc.near.reset()
	collect := func(acc *accumulator, i int, lo, hi int32) {
		for p := lo; p < hi; p++ {
			if d := s.PostDoc[p]; int(d) != self {
				acc.add(d, v.w[i]*s.PostW[p])
			}
		}
	}
	budget := int32(SimilarPrefix)
	for _, i := range s.rarest(v) {
		if budget <= 0 {
			break
		}
		lo, hi := s.window(v.term[i], v.w[i], v.pos[i], budget)
		collect(sc.prefix, i, lo, hi)
		budget -= hi - lo
	}
	for _, i := range heaviest(v, SimilarTerms) {
		lo, hi := s.window(v.term[i], v.w[i], v.pos[i], SimilarWindow)
		collect(sc.near, i, lo, hi)
	}
	n := max(SimilarShortlist, k)
	return s.exact(v, k, floor, append(sc.prefix.best(n), sc.near.best(n)...), sc)
}

// exact scores the candidates by their exact cosine with v, and returns
// the k best above 0 and at least floor: highest score (rounded to four
// decimals) first, then by id (episodes are numbered in the order of
// their ids).
func (s *Similarity) exact(v vec, k int, floor float64, cands []int32, sc *scratch) []Match {
	for i, t := range v.term {
		sc.dense[t] = v.w[i]
	}
	scores := sc.cands[:0]
	for _, d := range cands {
		if !sc.seen[d] {
			sc.seen[d] = true
			sum := 0.0
			for j := s.VecStart[d]; j < s.VecStart[d+1]; j++ {
				sum += sc.dense[s.VecTerm[j]] * s.VecW[j]
			}
			scores = append(scores, scored{d, round4(sum)})
		}
	}
	for _, t := range v.term {
		sc.dense[t] = 0
	}
	for _, c := range scores {
		sc.seen[c.d] = false
	}
	sc.cands = scores
	slices.SortFunc(scores, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.d, b.d)
	})
	out := []Match{}
	for _, c := range scores[:min(len(scores), k)] {
		if c.score <= 0 || c.score < floor {
			break
		}
		out = append(out, s.match(c))
	}
	return out
}

func (s *Similarity) match(c scored) Match {
	return Match{ID: s.IDs[c.d], Score: c.score, URL: s.URLs[c.d], Headline: s.Headlines[c.d], Outcome: s.Outcomes[c.d]}
}

func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// parallel runs f(0) … f(n-1) on every CPU.
func parallel(n int, f func(int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int, workers)
	for range workers {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// WriteTo writes the model (encoding/gob).
func (s *Similarity) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	if err := gob.NewEncoder(cw).Encode(s); err != nil {
		return cw.n, fmt.Errorf("write similarity model: %w", err)
	}
	return cw.n, nil
}

// ReadSimilarity reads a model that WriteTo wrote.
func ReadSimilarity(r io.Reader) (*Similarity, error) {
	s := &Similarity{}
	if err := gob.NewDecoder(r).Decode(s); err != nil {
		return nil, fmt.Errorf("read similarity model: %w", err)
	}
	if len(s.VecStart) != len(s.IDs)+1 || len(s.PostStart) != len(s.Terms)+1 ||
		len(s.Headlines) != len(s.IDs) || len(s.Outcomes) != len(s.IDs) {
		return nil, fmt.Errorf("read similarity model: inconsistent")
	}
	return s, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
