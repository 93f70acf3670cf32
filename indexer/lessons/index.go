package lessons

import "slices"

// index holds vectors by their keys (tier.keys), at positions 0, 1, …
// Besides each key's positions it keeps each position's other terms (its
// need-1 most common), so that a counter can tell how many terms a
// candidate shares with a probe from the index alone, without reading the
// candidate's vector: most candidates the keys find share a single rare
// term, and reading each one's vector cost more than the rest of the
// search.
type index struct {
	need     int
	terms    int       // how many terms the corpus has
	postings [][]int32 // by term: positions it is a key of, ascending
	others   []int32   // need-1 a position: its terms that are not keys
	size     int32     // positions
}

func newIndex(t tier, terms int) *index {
	return &index{need: t.need(), terms: terms}
}

// add indexes v at the next position.
// A vector with fewer than need terms has no keys, and no candidate ever
// finds it; its others are left zero, never read.
func (ix *index) add(v *vector) {
	if ix.postings == nil {
		ix.postings = make([][]int32, ix.terms)
	}
	pos := ix.size
	ix.size++
	keys := v.terms[:max(len(v.terms)-ix.need+1, 0)]
	for _, f := range keys {
		ix.postings[f] = append(ix.postings[f], pos)
	}
	if len(keys) > 0 {
		ix.others = append(ix.others, v.terms[len(keys):]...)
		return
	}
	for range ix.need - 1 {
		ix.others = append(ix.others, 0)
	}
}

// clear empties the index, keeping its memory, given the vectors it holds.
func (ix *index) clear(vs []*vector) {
	if ix.postings == nil {
		return
	}
	for _, v := range vs {
		for _, f := range v.terms {
			ix.postings[f] = ix.postings[f][:0]
		}
	}
	ix.others, ix.size = ix.others[:0], 0
}

// counter finds candidates in an index for one probe at a time; one a
// goroutine.
type counter struct {
	ix      *index
	mark    []int32 // by term: stamp of the probe that has it
	stamp   int32
	hits    []int32 // by position: keys shared with the probe
	at      []int32 // by position: stamp of the probe that set hits
	touched []int32
	out     []int32
}

func newCounter(ix *index) *counter {
	return &counter{ix: ix, mark: make([]int32, ix.terms)}
}

// candidates returns, ascending, the positions below below that share at
// least need terms with v. A shared term is a key of both (counted as the
// keys' postings are walked), a key of the candidate and not of v (v's
// other terms: is the candidate among that term's positions?), or not a
// key of the candidate (its other terms: does v have it?). Two vectors
// that share need terms share a key of both, so no candidate is missed.
func (c *counter) candidates(v *vector, below int32) []int32 {
	ix := c.ix
	if ix.size == 0 {
		return nil
	}
	for len(c.hits) < int(ix.size) {
		c.hits, c.at = append(c.hits, 0), append(c.at, 0)
	}
	c.stamp++
	for _, f := range v.terms {
		c.mark[f] = c.stamp
	}
	split := max(len(v.terms)-ix.need+1, 0)
	c.touched = c.touched[:0]
	for _, f := range v.terms[:split] {
		for _, x := range ix.postings[f] {
			if x >= below {
				break
			}
			if c.at[x] != c.stamp {
				c.at[x], c.hits[x] = c.stamp, 0
				c.touched = append(c.touched, x)
			}
			c.hits[x]++
		}
	}
	c.out = c.out[:0]
	for _, x := range c.touched {
		if c.count(x, v.terms[split:]) >= ix.need {
			c.out = append(c.out, x)
		}
	}
	slices.Sort(c.out)
	return c.out
}

func (c *counter) count(x int32, others []int32) int {
	n := int(c.hits[x])
	w := c.ix.need - 1
	for _, f := range c.ix.others[int(x)*w : int(x)*w+w] {
		if c.mark[f] == c.stamp {
			n++
		}
	}
	for i, f := range others {
		if n >= c.ix.need || n+len(others)-i < c.ix.need {
			break // enough, or too few left to make it
		}
		if _, ok := slices.BinarySearch(c.ix.postings[f], x); ok {
			n++
		}
	}
	return n
}
