package lessons

import (
	"runtime"
	"sync"
)

// joiner finds the pairs of vectors related in a tier among a list of
// vectors, through an index (index.go) that it empties after each join, so
// that one joiner serves many small joins.
type joiner struct {
	vs       []vector
	t        tier
	ix       *index
	counters []*counter // one a worker, made when first needed
}

func newJoiner(vs []vector, terms int, t tier) *joiner {
	return &joiner{vs: vs, t: t, ix: newIndex(t, terms)}
}

// found is a pair found by a probe: the earlier position and the
// similarity.
type found struct {
	x int32
	s float64
}

// join calls pair for every pair of ids related in the tier, as positions
// in ids (the earlier first) and their similarity, in order of the later
// position, then of the earlier. Every vector is indexed, then each probes
// the index for the earlier ones, on every processor for a long list.
func (j *joiner) join(ids []int, pair func(a, b int, s float64)) {
	if len(ids) <= smallJoin {
		j.pairwise(ids, pair)
		return
	}
	held := make([]*vector, len(ids))
	for k, g := range ids {
		held[k] = &j.vs[g]
		j.ix.add(held[k])
	}
	defer j.ix.clear(held)
	out := make([][]found, len(ids))
	workers := min(runtime.GOMAXPROCS(0), len(ids)/128+1)
	for len(j.counters) < workers {
		j.counters = append(j.counters, newCounter(j.ix))
	}
	probe := func(w int) {
		c := j.counters[w]
		for k := w; k < len(ids); k += workers {
			for _, x := range c.candidates(held[k], int32(k)) {
				if s, ok := j.t.holds(*held[k], *held[x]); ok {
					out[k] = append(out[k], found{x, s})
				}
			}
		}
	}
	if workers == 1 {
		probe(0)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() { probe(w) })
		}
		wg.Wait()
	}
	for k, fs := range out {
		for _, f := range fs {
			pair(int(f.x), k, f.s)
		}
	}
}

// smallJoin is the longest list joined pair by pair, without the index: a
// day's lessons are usually a handful.
const smallJoin = 8

func (j *joiner) pairwise(ids []int, pair func(a, b int, s float64)) {
	for k := 1; k < len(ids); k++ {
		for x := range k {
			if s, ok := j.t.holds(j.vs[ids[k]], j.vs[ids[x]]); ok {
				pair(x, k, s)
			}
		}
	}
}
