package graphlayout

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// memoryGraph makes a graph shaped like a memory's causal graph of n nodes:
// a few pattern hubs, episodes that are evidence for one to three of them
// (a third of the episodes for none), short chains of decisions, and
// links between patterns. Node i's group is its type.
func memoryGraph(n int, seed uint64) (edges [][2]int, group []int) {
	r := rand.New(rand.NewPCG(seed, 7))
	patterns := max(1, n*6/100)
	episodes := n * 32 / 100
	group = make([]int, n)
	for i := range n {
		switch {
		case i < patterns:
			group[i] = 3
		case i < patterns+episodes:
			group[i] = 0
		default:
			group[i] = 1
		}
	}
	for p := 1; p < patterns; p++ {
		if r.IntN(3) > 0 {
			edges = append(edges, [2]int{p, r.IntN(p)})
		}
	}
	for e := patterns; e < patterns+episodes; e++ {
		if r.IntN(3) == 0 {
			continue
		}
		for range 1 + r.IntN(3) {
			edges = append(edges, [2]int{e, r.IntN(patterns)})
		}
	}
	for d := patterns + episodes; d+1 < n; d += 2 + r.IntN(2) {
		edges = append(edges, [2]int{d, d + 1})
	}
	return edges, group
}

func TestLayoutGraph(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 10, 500, 3000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			edges, group := memoryGraph(n, 1)
			p, _ := layoutGraph(n, edges, group)
			if len(p) != n {
				t.Fatalf("%d positions for %d nodes", len(p), n)
			}
			for i, v := range p {
				if math.IsNaN(v.x) || math.IsNaN(v.y) || math.IsInf(v.x, 0) || math.IsInf(v.y, 0) || v.x < -1e-9 || v.y < -1e-9 {
					t.Fatalf("node %d at %v", i, v)
				}
			}
			if q, _ := layoutGraph(n, edges, group); !slices.Equal(p, q) {
				t.Error("two layouts of the same graph differ")
			}
			if n > 1 {
				checkSpread(t, p)
			}
		})
	}
}

// checkSpread: no two nodes share a spot, and neighbours are closer than
// strangers on average.
func checkSpread(t *testing.T, p []vec) {
	t.Helper()
	seen := map[vec]int{}
	for i, v := range p {
		k := vec{math.Round(v.x * 100), math.Round(v.y * 100)}
		if j, ok := seen[k]; ok {
			t.Fatalf("nodes %d and %d both at %v", j, i, v)
		}
		seen[k] = i
	}
}

func TestLayoutEdgeCases(t *testing.T) {
	t.Run("self-loops, repeats and bad indexes", func(t *testing.T) {
		p, _ := layoutGraph(3, [][2]int{{0, 0}, {0, 1}, {1, 0}, {0, 1}, {2, 9}, {-1, 2}}, nil)
		if d := math.Hypot(p[0].x-p[1].x, p[0].y-p[1].y); math.Abs(d-1) > 1e-9 {
			t.Errorf("the pair is %v apart, want 1", d)
		}
	})
	t.Run("a star", func(t *testing.T) {
		var edges [][2]int
		for i := 1; i < 200; i++ {
			edges = append(edges, [2]int{0, i})
		}
		p, _ := layoutGraph(200, edges, nil)
		for i := 1; i < 200; i++ {
			if d := math.Hypot(p[0].x-p[i].x, p[0].y-p[i].y); d > 15 {
				t.Fatalf("leaf %d is %v from the hub", i, d)
			}
		}
	})
	t.Run("isolated nodes grouped", func(t *testing.T) {
		p, _ := layoutGraph(6, nil, []int{1, 0, 1, 0, 2, 0})
		// Group 0 (nodes 1, 3, 5) on the first row, group 1 on another.
		if p[1].y != p[3].y || p[3].y != p[5].y || p[0].y == p[1].y || p[0].y != p[2].y || p[4].y <= p[0].y {
			t.Errorf("rows: %v", p)
		}
	})
}

func TestSkyline(t *testing.T) {
	s := skyline{{x: 0, w: 10}}
	for _, tc := range []struct{ w, h, x, y float64 }{
		{6, 4, 0, 0}, {4, 1, 6, 0}, {4, 1, 6, 1}, {5, 1, 0, 4}, {3, 1, 6, 2}, {10, 1, 0, 5},
	} {
		x, y := s.place(tc.w, tc.h)
		if x != tc.x || y != tc.y {
			t.Errorf("place %v×%v at (%v, %v), want (%v, %v); skyline %v", tc.w, tc.h, x, y, tc.x, tc.y, s)
		}
	}
	if len(s) != 1 || s[0].y != 6 {
		t.Errorf("skyline %v, want one segment at 6", s)
	}
}

// BenchmarkLayout10k lays out a 10,000-node memory-shaped graph.
func BenchmarkLayout10k(b *testing.B) {
	edges, group := memoryGraph(10_000, 1)
	for b.Loop() {
		layoutGraph(10_000, edges, group)
	}
}

// BenchmarkLayout26k is the size of the graph of a 10,000-note repository
// made by indexer/gen (about 26,000 nodes, decisions included).
func BenchmarkLayout26k(b *testing.B) {
	edges, group := memoryGraph(26_000, 1)
	for b.Loop() {
		layoutGraph(26_000, edges, group)
	}
}

func TestSmallLayout(t *testing.T) {
	for _, tc := range []struct {
		nbr  [][]int32
		want []vec
	}{
		{[][]int32{{1}, {0}}, []vec{{0, 0}, {1, 0}}},
		{[][]int32{{1}, {0, 2}, {1}}, []vec{{0, 0}, {1, 0}, {2, 0}}},
		{[][]int32{{2}, {2}, {0, 1}}, []vec{{0, 0}, {2, 0}, {1, 0}}},
		{[][]int32{{1, 2}, {0, 2}, {0, 1}}, []vec{{0, 0}, {1, 0}, {0.5, math.Sqrt(3) / 2}}},
		{[][]int32{{1}, {0, 2}, {1, 3}, {2}}, nil},
	} {
		if got := smallLayout(tc.nbr); !slices.Equal(got, tc.want) {
			t.Errorf("%v: %v, want %v", tc.nbr, got, tc.want)
		}
	}
}

func TestParts(t *testing.T) {
	for _, tc := range []struct {
		sizes []int
		want  []Part
	}{
		{nil, []Part{}},
		{[]int{3, 2, 1}, []Part{Core, Core, Core}}, // all small: all shown
		{[]int{41, 4, 4, 3, 2, 1}, []Part{Core, Minor, Minor, Small, Small, Small}},
		{[]int{100, 10, 9}, []Part{Core, Core, Minor}}, // a tenth of the largest is core
		{[]int{4, 4, 1}, []Part{Core, Core, Small}},
	} {
		comps := make([][]int, len(tc.sizes))
		for i, n := range tc.sizes {
			comps[i] = make([]int, n)
		}
		if got := Parts(comps); !slices.Equal(got, tc.want) {
			t.Errorf("sizes %v: %v, want %v", tc.sizes, got, tc.want)
		}
	}
}

// TestLayoutBands: the core is a band at the top, the minor components
// below it, the small ones at the bottom; Core is the box of the core's
// nodes.
func TestLayoutBands(t *testing.T) {
	// A star of 50 nodes and a path of 6 (core: 6·10 ≥ 50), a star of 4
	// (minor: 4·10 < 50), a pair, a triangle and lone nodes (small).
	var edges [][2]int
	for i := 1; i < 50; i++ {
		edges = append(edges, [2]int{0, i})
	}
	edges = append(edges, [2]int{50, 51}, [2]int{51, 52}, [2]int{52, 53}, [2]int{53, 54}, [2]int{54, 55}) // 6 nodes: core
	edges = append(edges, [2]int{56, 57}, [2]int{56, 58}, [2]int{56, 59})                                 // 4 nodes: minor
	edges = append(edges, [2]int{60, 61}, [2]int{62, 63}, [2]int{63, 64}, [2]int{64, 62})                 // small
	n := 68                                                                                               // 65, 66, 67 alone
	pic := Layout(n, edges, nil)
	want := map[Part][]int{Core: {0, 49, 50, 55}, Minor: {56, 59}, Small: {60, 61, 62, 64, 65, 67}}
	for part, nodes := range want {
		for _, v := range nodes {
			if pic.Parts[v] != part {
				t.Errorf("node %d is part %d, want %d", v, pic.Parts[v], part)
			}
		}
	}
	top := map[Part]float64{Core: math.Inf(1), Minor: math.Inf(1), Small: math.Inf(1)}
	bottom := map[Part]float64{}
	for i, p := range pic.Points {
		top[pic.Parts[i]] = min(top[pic.Parts[i]], p.Y)
		bottom[pic.Parts[i]] = max(bottom[pic.Parts[i]], p.Y)
		if pic.Parts[i] == Core && (p.X < pic.Core.X || p.X > pic.Core.X+pic.Core.W || p.Y < pic.Core.Y || p.Y > pic.Core.Y+pic.Core.H) {
			t.Errorf("core node %d at %v, outside the core's box %v", i, p, pic.Core)
		}
	}
	if !(bottom[Core] < top[Minor] && bottom[Minor] < top[Small]) {
		t.Errorf("bands overlap: core %v–%v, minor %v–%v, small %v–%v", top[Core], bottom[Core], top[Minor], bottom[Minor], top[Small], bottom[Small])
	}
	if pic.Core.X != 0 || pic.Core.Y != 0 || pic.Core.W < 1 || pic.Core.H < 1 {
		t.Errorf("core box %v, want one at the origin", pic.Core)
	}
	checkSpread(t, toVec(pic.Points))
}

func toVec(ps []Point) []vec {
	out := make([]vec, len(ps))
	for i, p := range ps {
		out[i] = vec{p.X, p.Y}
	}
	return out
}
