package lessons

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
)

// joiner finds the pairs of vectors related in a tier among a list of
// vectors, through an index by keys (tier.keys) that it empties after
// each join, so that one joiner serves many small joins.
type joiner struct {
	vs       []vector
	t        tier
	features int
	postings [][]int32 // positions in the list, ascending, by key
	probes   []*probe  // one a worker, made when first needed
}

func newJoiner(vs []vector, features int, t tier) *joiner {
	return &joiner{vs: vs, t: t, features: features, postings: make([][]int32, features)}
}

// found is a pair found by a probe: the earlier position and the
// similarity.
type found struct {
	x int32
	s float64
}

// join calls pair for every pair of ids related in the tier, as positions
// in ids (the earlier first) and their similarity, in order of the later
// position, then of the earlier. Every vector is indexed by its keys, then
// each probes the index for the earlier ones, on every processor for a
// long list.
func (j *joiner) join(ids []int, pair func(a, b int, s float64)) {
	if len(ids) <= smallJoin {
		j.pairwise(ids, pair)
		return
	}
	for k, g := range ids {
		for _, f := range j.t.keys(j.vs[g]) {
			j.postings[f] = append(j.postings[f], int32(k))
		}
	}
	out := make([][]found, len(ids))
	workers := min(runtime.GOMAXPROCS(0), len(ids)/512+1)
	for len(j.probes) < workers {
		j.probes = append(j.probes, newProbe(j.t, j.features))
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			seen := make([]int32, len(ids)) // by position: last prober, plus one
			for k := w; k < len(ids); k += workers {
				out[k] = j.probe(j.probes[w], ids, k, seen)
			}
		})
	}
	wg.Wait()
	for k, fs := range out {
		for _, f := range fs {
			pair(int(f.x), k, f.s)
		}
	}
	for _, g := range ids {
		for _, f := range j.t.keys(j.vs[g]) {
			j.postings[f] = j.postings[f][:0]
		}
	}
}

// probe finds the earlier positions related to position k.
func (j *joiner) probe(p *probe, ids []int, k int, seen []int32) []found {
	var out []found
	p.load(j.vs[ids[k]])
	for _, f := range j.t.keys(p.v) {
		for _, x := range j.postings[f] {
			if int(x) >= k {
				break // the later ones find k
			}
			if seen[x] == int32(k)+1 {
				continue
			}
			seen[x] = int32(k) + 1
			if s, ok := p.holds(&j.vs[ids[x]]); ok {
				out = append(out, found{x, s})
			}
		}
	}
	slices.SortFunc(out, func(a, b found) int { return cmp.Compare(a.x, b.x) })
	return out
}

// smallJoin is the longest list joined pair by pair, without an index: a
// day's lessons are usually a handful.
const smallJoin = 16

func (j *joiner) pairwise(ids []int, pair func(a, b int, s float64)) {
	if len(j.probes) == 0 {
		j.probes = append(j.probes, newProbe(j.t, j.features))
	}
	p := j.probes[0]
	for k := 1; k < len(ids); k++ {
		p.load(j.vs[ids[k]])
		for x := range k {
			if s, ok := p.holds(&j.vs[ids[x]]); ok {
				pair(x, k, s)
			}
		}
	}
}
