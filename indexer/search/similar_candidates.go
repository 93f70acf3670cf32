package search

import (
	"cmp"
	"slices"
	"sort"
)

// accumulator sums partial dot products, remembering what it touched.
type accumulator struct {
	sum     []float64
	touched []int32
}

func newAccumulator(n int) *accumulator { return &accumulator{sum: make([]float64, n)} }

func (a *accumulator) add(d int32, x float64) {
	if a.sum[d] == 0 {
		a.touched = append(a.touched, d)
	}
	a.sum[d] += x
}

func (a *accumulator) reset() {
	for _, d := range a.touched {
		a.sum[d] = 0
	}
	a.touched = a.touched[:0]
}

// best returns the n episodes with the greatest sums (ties: the smaller
// index), in no order.
func (a *accumulator) best(n int) []int32 {
	// A min-heap of the best so far, the worst at the root.
	worse := func(x, y int32) bool { return a.sum[x] < a.sum[y] || a.sum[x] == a.sum[y] && x > y }
	h := make([]int32, 0, n)
	for _, d := range a.touched {
		switch {
		case len(h) < n:
			h = append(h, d)
			for i := len(h) - 1; i > 0 && worse(h[i], h[(i-1)/2]); i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
		case worse(h[0], d):
			h[0] = d
			for i := 0; ; {
				m, l, r := i, 2*i+1, 2*i+2
				if l < len(h) && worse(h[l], h[m]) {
					m = l
				}
				if r < len(h) && worse(h[r], h[m]) {
					m = r
				}
				if m == i {
					break
				}
				h[i], h[m] = h[m], h[i]
				i = m
			}
		}
	}
	return h
}

// rarest returns the indexes of v's terms by increasing document
// frequency (ties: the smaller term id).
func (s *Similarity) rarest(v vec) []int {
	idx := make([]int, len(v.term))
	for i := range idx {
		idx[i] = i
	}
	df := func(i int) int32 { return s.PostStart[v.term[i]+1] - s.PostStart[v.term[i]] }
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(df(a), df(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return idx
}

// heaviest returns the indexes of v's n heaviest terms (ties: the
// smaller term id).
func heaviest(v vec, n int) []int {
	idx := make([]int, len(v.term))
	for i := range idx {
		idx[i] = i
	}
	if len(idx) <= n {
		return idx
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(v.w[b], v.w[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return idx[:n]
}

// window is the part of term t's postings that a vector with weight w
// (at place pos, or -1) takes candidates from: all of them, or the size
// nearest in weight.
func (s *Similarity) window(t int32, w float64, pos, size int32) (lo, hi int32) {
	lo, hi = s.PostStart[t], s.PostStart[t+1]
	if hi-lo <= size {
		return lo, hi
	}
	if pos < 0 {
		ws := s.PostW[lo:hi]
		pos = int32(sort.Search(len(ws), func(i int) bool { return ws[i] <= w }))
	}
	start := min(max(lo+pos-size/2, lo), hi-size)
	return start, start + size
}
