package causal

import (
	"github.com/engramhq/engram/indexer/note"

	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"
)

// pathEdge is a causes edge of weight w.
func pathEdge(source, target string, w float64) note.Edge {
	return note.Edge{Source: source, Target: target, Type: "causes", Weight: w, EvidenceCount: 1}
}

func typedPathEdge(source, target, typ string, w float64) note.Edge {
	return note.Edge{Source: source, Target: target, Type: note.EdgeType(typ), Weight: w, EvidenceCount: 1}
}

func pathTypes(es []note.Edge) []string {
	var ts []string
	for _, e := range es {
		ts = append(ts, string(e.Type))
	}
	return ts
}

func sameStrength(a, b float64) bool {
	return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

func TestStrongest(t *testing.T) {
	tests := []struct {
		name     string
		edges    []note.Edge
		from, to string
		maxDepth int
		want     []string // nil: no path
		strength float64
		types    []string // checked when set
	}{
		{name: "simple chain",
			edges: []note.Edge{pathEdge("a", "b", 0.5), pathEdge("b", "c", 0.8)},
			from:  "a", to: "c", maxDepth: 5, want: []string{"a", "b", "c"}, strength: 0.4},
		{name: "stronger longer path beats weaker shorter",
			edges: []note.Edge{pathEdge("a", "d", 0.3), pathEdge("a", "b", 0.8), pathEdge("b", "c", 0.8), pathEdge("c", "d", 0.8)},
			from:  "a", to: "d", maxDepth: 5, want: []string{"a", "b", "c", "d"}, strength: 0.512},
		{name: "equal strength: fewer edges",
			edges: []note.Edge{pathEdge("a", "b", 0.5), pathEdge("b", "d", 1), pathEdge("a", "d", 0.5)},
			from:  "a", to: "d", maxDepth: 5, want: []string{"a", "d"}, strength: 0.5},
		{name: "equal strength up to rounding: fewer edges",
			// In float64 0.5×0.8×0.9 is 0.36000000000000004, 0.6×0.6 is 0.36.
			edges: []note.Edge{pathEdge("a", "b", 0.5), pathEdge("b", "c", 0.8), pathEdge("c", "z", 0.9),
				pathEdge("a", "y", 0.6), pathEdge("y", "z", 0.6)},
			from: "a", to: "z", maxDepth: 5, want: []string{"a", "y", "z"}, strength: 0.36},
		{name: "equal strength up to rounding: smaller ids",
			// In float64 0.4×0.9 is 0.36000000000000004, 0.6×0.6 is 0.36.
			edges: []note.Edge{pathEdge("a", "c", 0.4), pathEdge("c", "z", 0.9), pathEdge("a", "b", 0.6), pathEdge("b", "z", 0.6)},
			from:  "a", to: "z", maxDepth: 5, want: []string{"a", "b", "z"}, strength: 0.36},
		{name: "equal strength and length: smaller ids",
			edges: []note.Edge{pathEdge("a", "c", 0.5), pathEdge("c", "d", 1), pathEdge("a", "b", 1), pathEdge("b", "d", 0.5)},
			from:  "a", to: "d", maxDepth: 5, want: []string{"a", "b", "d"}, strength: 0.5},
		{name: "smaller ids compared from the first node, not the last",
			edges: []note.Edge{pathEdge("s", "b", 0.5), pathEdge("b", "z", 1), pathEdge("z", "t", 1),
				pathEdge("s", "c", 1), pathEdge("c", "d", 0.5), pathEdge("d", "t", 1)},
			from: "s", to: "t", maxDepth: 5, want: []string{"s", "b", "z", "t"}, strength: 0.5},
		{name: "ids compared as strings, not numbers",
			edges: []note.Edge{pathEdge("s", "9", 0.5), pathEdge("9", "t", 1), pathEdge("s", "10", 1), pathEdge("10", "t", 0.5)},
			from:  "s", to: "t", maxDepth: 5, want: []string{"s", "10", "t"}, strength: 0.5},
		{name: "parallel edges: heaviest, then smaller type",
			edges: []note.Edge{typedPathEdge("a", "b", "prevents", 0.8), typedPathEdge("a", "b", "causes", 0.5),
				typedPathEdge("a", "b", "enables", 0.8), typedPathEdge("b", "c", "correlates", 1), typedPathEdge("b", "c", "causes", 1)},
			from: "a", to: "c", maxDepth: 5, want: []string{"a", "b", "c"}, strength: 0.8, types: []string{"enables", "causes"}},
		{name: "maxDepth cuts the best path off",
			edges: []note.Edge{pathEdge("a", "b", 1), pathEdge("b", "c", 1), pathEdge("c", "d", 1), pathEdge("a", "d", 0.3)},
			from:  "a", to: "d", maxDepth: 2, want: []string{"a", "d"}, strength: 0.3},
		{name: "maxDepth just long enough",
			edges: []note.Edge{pathEdge("a", "b", 1), pathEdge("b", "c", 1), pathEdge("c", "d", 1), pathEdge("a", "d", 0.3)},
			from:  "a", to: "d", maxDepth: 3, want: []string{"a", "b", "c", "d"}, strength: 1},
		{name: "a node reached weakly early is still extended within maxDepth",
			// b is reached strongly at depth 3, but only b at depth 1 can reach t within 2 edges.
			edges: []note.Edge{pathEdge("a", "b", 0.3), pathEdge("a", "x", 1), pathEdge("x", "y", 1), pathEdge("y", "b", 1),
				pathEdge("b", "t", 1)},
			from: "a", to: "t", maxDepth: 2, want: []string{"a", "b", "t"}, strength: 0.3},
		{name: "unreachable",
			edges: []note.Edge{pathEdge("a", "b", 1), pathEdge("c", "d", 1)},
			from:  "a", to: "d", maxDepth: 5},
		{name: "edges are directed",
			edges: []note.Edge{pathEdge("a", "b", 1)},
			from:  "b", to: "a", maxDepth: 5},
		{name: "from == to",
			edges: []note.Edge{pathEdge("a", "b", 1), pathEdge("b", "a", 1)},
			from:  "a", to: "a", maxDepth: 5},
		{name: "unknown from",
			edges: []note.Edge{pathEdge("a", "b", 1)},
			from:  "x", to: "b", maxDepth: 5},
		{name: "unknown to",
			edges: []note.Edge{pathEdge("a", "b", 1)},
			from:  "a", to: "x", maxDepth: 5},
		{name: "no edges",
			from: "a", to: "b", maxDepth: 5},
		{name: "maxDepth 0",
			edges: []note.Edge{pathEdge("a", "b", 1)},
			from:  "a", to: "b", maxDepth: 0},
		{name: "self-loop ignored",
			edges: []note.Edge{pathEdge("a", "a", 1), pathEdge("a", "b", 0.5), pathEdge("b", "b", 1)},
			from:  "a", to: "b", maxDepth: 5, want: []string{"a", "b"}, strength: 0.5},
		{name: "self-loop alone makes no path",
			edges: []note.Edge{pathEdge("a", "a", 1)},
			from:  "a", to: "a", maxDepth: 5},
		{name: "cycle of weight 1 with a huge maxDepth",
			edges: []note.Edge{pathEdge("a", "b", 1), pathEdge("b", "c", 1), pathEdge("c", "a", 1), pathEdge("c", "d", 0.5)},
			from:  "a", to: "d", maxDepth: math.MaxInt, want: []string{"a", "b", "c", "d"}, strength: 0.5},
		{name: "cycle of weight 1, target unreachable",
			edges: []note.Edge{pathEdge("a", "b", 1), pathEdge("b", "c", 1), pathEdge("c", "a", 1), pathEdge("d", "e", 1)},
			from:  "a", to: "e", maxDepth: math.MaxInt},
		{name: "weights 1 everywhere: fewest edges, then ids",
			edges: []note.Edge{pathEdge("a", "c", 1), pathEdge("a", "b", 1), pathEdge("c", "d", 1), pathEdge("b", "d", 1),
				pathEdge("d", "e", 1), pathEdge("a", "x", 1), pathEdge("x", "y", 1), pathEdge("y", "z", 1), pathEdge("z", "e", 1)},
			from: "a", to: "e", maxDepth: 10, want: []string{"a", "b", "d", "e"}, strength: 1},
		{name: "invalid weights skipped",
			edges: []note.Edge{pathEdge("a", "b", 0), pathEdge("a", "b", -1), pathEdge("a", "b", math.NaN()),
				pathEdge("a", "b", 1.5), pathEdge("a", "b", math.Inf(1)), pathEdge("a", "c", 1.5), pathEdge("c", "b", 1)},
			from: "a", to: "b", maxDepth: 5},
		{name: "valid weight chosen over a heavier invalid one",
			edges: []note.Edge{pathEdge("a", "b", 1.5), pathEdge("a", "b", math.NaN()), typedPathEdge("a", "b", "enables", 0.2)},
			from:  "a", to: "b", maxDepth: 5, want: []string{"a", "b"}, strength: 0.2, types: []string{"enables"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := NewPaths(tt.edges).Strongest(tt.from, tt.to, tt.maxDepth)
			if tt.want == nil {
				if ok {
					t.Fatalf("Strongest = %v, want no path", got.Nodes)
				}
				return
			}
			if !ok {
				t.Fatalf("Strongest: no path, want %v", tt.want)
			}
			if !slices.Equal(got.Nodes, tt.want) {
				t.Errorf("Nodes = %v, want %v", got.Nodes, tt.want)
			}
			if !sameStrength(got.Strength, tt.strength) {
				t.Errorf("Strength = %v, want %v", got.Strength, tt.strength)
			}
			checkPathShape(t, got)
			if tt.types != nil && !slices.Equal(pathTypes(got.Edges), tt.types) {
				t.Errorf("edge types = %v, want %v", pathTypes(got.Edges), tt.types)
			}
		})
	}
}

// checkPathShape checks that a path's edges join its nodes and that its
// strength is their product.
func checkPathShape(t *testing.T, p Path) {
	t.Helper()
	if len(p.Edges) != len(p.Nodes)-1 {
		t.Fatalf("%d edges for %d nodes", len(p.Edges), len(p.Nodes))
	}
	product := 1.0
	for i, e := range p.Edges {
		if e.Source != p.Nodes[i] || e.Target != p.Nodes[i+1] {
			t.Errorf("edge %d is %s→%s, want %s→%s", i, e.Source, e.Target, p.Nodes[i], p.Nodes[i+1])
		}
		product *= e.Weight
	}
	if !sameStrength(p.Strength, product) {
		t.Errorf("Strength = %v, product of the edges = %v", p.Strength, product)
	}
}

func TestStrongestKeepsEdgeFields(t *testing.T) {
	e := note.Edge{Source: "a", Target: "b", Type: "enables", Weight: 0.7, EvidenceCount: 4}
	got, ok := NewPaths([]note.Edge{e}).Strongest("a", "b", 1)
	if !ok || len(got.Edges) != 1 || got.Edges[0] != e {
		t.Fatalf("Strongest = %+v, %v; want the one edge %+v", got, ok, e)
	}
}

// pathChain is n nodes n00000→n00001→… with every edge of weight w, given
// last edge first so that NewPaths cannot rely on input order.
func pathChain(n int, w float64) []note.Edge {
	edges := make([]note.Edge, 0, n-1)
	for i := n - 2; i >= 0; i-- {
		edges = append(edges, pathEdge(chainID(i), chainID(i+1), w))
	}
	return edges
}

func chainID(i int) string { return fmt.Sprintf("n%05d", i) }

func TestStrongestChain10k(t *testing.T) {
	const n = 10000
	p := NewPaths(pathChain(n, 0.999))
	first, last := chainID(0), chainID(n-1)
	if got, ok := p.Strongest(first, last, 5); ok {
		t.Fatalf("maxDepth 5: got a path of %d edges, want none", len(got.Edges))
	}
	if _, ok := p.Strongest(first, last, n-2); ok {
		t.Fatalf("maxDepth %d: got a path, want none", n-2)
	}
	for _, depth := range []int{n - 1, n, math.MaxInt} {
		got, ok := p.Strongest(first, last, depth)
		if !ok {
			t.Fatalf("maxDepth %d: no path", depth)
		}
		if len(got.Edges) != n-1 {
			t.Fatalf("maxDepth %d: %d edges, want %d", depth, len(got.Edges), n-1)
		}
		for i, id := range got.Nodes {
			if id != chainID(i) {
				t.Fatalf("maxDepth %d: node %d is %s, want %s", depth, i, id, chainID(i))
			}
		}
		if want := math.Pow(0.999, n-1); math.Abs(got.Strength-want) > 1e-9*want {
			t.Errorf("maxDepth %d: Strength = %v, want %v", depth, got.Strength, want)
		}
	}
}

// TestStrongestUnderflow ranks two paths whose float64 products are both 0:
// the stronger must win although the weaker has the smaller ids.
func TestStrongestUnderflow(t *testing.T) {
	const n = 1200 // 0.5^1200 underflows float64
	var edges []note.Edge
	for _, route := range []string{"a", "b"} {
		prev := "s"
		for i := range n - 1 {
			id := route + strconv.Itoa(i)
			w := 0.5
			if route == "a" && i == n/2 {
				w = 0.25
			}
			edges = append(edges, pathEdge(prev, id, w))
			prev = id
		}
		edges = append(edges, pathEdge(prev, "t", 0.5))
	}
	got, ok := NewPaths(edges).Strongest("s", "t", n)
	if !ok {
		t.Fatal("no path")
	}
	if len(got.Edges) != n || got.Nodes[1] != "b0" {
		t.Errorf("got %d edges through %s, want %d through b0", len(got.Edges), got.Nodes[1], n)
	}
	if got.Strength != 0 {
		t.Errorf("Strength = %v, want 0 (underflow)", got.Strength)
	}
}

func TestPathsConcurrent(t *testing.T) {
	edges := randomPathGraph(rand.New(rand.NewPCG(7, 7)), 2000, 3)
	p := NewPaths(edges)
	want := make([]Path, 50)
	for i := range want {
		want[i], _ = p.Strongest(chainID(0), chainID(i*40), 8)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range want {
				got, _ := p.Strongest(chainID(0), chainID(i*40), 8)
				if !slices.Equal(got.Nodes, want[i].Nodes) || !slices.Equal(got.Edges, want[i].Edges) {
					t.Errorf("query %d: concurrent result %v, want %v", i, got.Nodes, want[i].Nodes)
				}
			}
		})
	}
	wg.Wait()
}

// randomPathGraph is n nodes n00000… each with out edges to `out` distinct
// other nodes chosen uniformly, weights uniform in (0.05, 1], one of four
// types.
func randomPathGraph(rng *rand.Rand, n, out int) []note.Edge {
	types := []string{"causes", "correlates", "enables", "prevents"}
	edges := make([]note.Edge, 0, n*out)
	for u := range n {
		targets := map[int]bool{u: true}
		for len(targets) <= out {
			v := rng.IntN(n)
			if targets[v] {
				continue
			}
			targets[v] = true
			edges = append(edges, typedPathEdge(chainID(u), chainID(v), types[rng.IntN(len(types))], 1-0.95*rng.Float64()))
		}
	}
	return edges
}

// brutePath is a path found by bruteStrongest.
type brutePath struct {
	nodes    []string
	edges    []note.Edge
	strength float64
}

// bruteTies counts the decisions bruteStrongest made on each tie rule, so
// the property test can check that its graphs exercise them.
type bruteTies struct{ edges, ids, types int }

// bruteStrongest enumerates every simple path from→to of at most maxDepth
// edges, every parallel edge separately, and keeps the best by SPEC §3:
// strength, then fewer edges, then node ids, then per edge the heavier,
// then the smaller type.
func bruteStrongest(edges []note.Edge, from, to string, maxDepth int, ties *bruteTies) (brutePath, bool) {
	out := map[string][]note.Edge{}
	for _, e := range edges {
		if e.Source != e.Target && e.Weight > 0 && e.Weight <= 1 {
			out[e.Source] = append(out[e.Source], e)
		}
	}
	var best brutePath
	found := false
	cur := brutePath{nodes: []string{from}, strength: 1}
	visited := map[string]bool{from: true}
	var walk func(u string)
	walk = func(u string) {
		if u == to {
			if !found || bruteBetter(cur, best, ties) {
				best = brutePath{slices.Clone(cur.nodes), slices.Clone(cur.edges), cur.strength}
				found = true
			}
			return
		}
		if len(cur.edges) == maxDepth {
			return
		}
		for _, e := range out[u] {
			if visited[e.Target] {
				continue
			}
			visited[e.Target] = true
			saved := cur
			cur.nodes = append(cur.nodes, e.Target)
			cur.edges = append(cur.edges, e)
			cur.strength *= e.Weight
			walk(e.Target)
			cur = brutePath{cur.nodes[:len(saved.nodes)], cur.edges[:len(saved.edges)], saved.strength}
			visited[e.Target] = false
		}
	}
	if from != to && maxDepth >= 1 {
		walk(from)
	}
	return best, found
}

func bruteBetter(a, b brutePath, ties *bruteTies) bool {
	if !sameStrength(a.strength, b.strength) {
		return a.strength > b.strength
	}
	if len(a.edges) != len(b.edges) {
		ties.edges++
		return len(a.edges) < len(b.edges)
	}
	for i := range a.nodes {
		if a.nodes[i] != b.nodes[i] {
			ties.ids++
			return a.nodes[i] < b.nodes[i]
		}
	}
	for i := range a.edges {
		ea, eb := a.edges[i], b.edges[i]
		if ea.Weight != eb.Weight {
			return ea.Weight > eb.Weight
		}
		if ea.Type != eb.Type {
			ties.types++
			return ea.Type < eb.Type
		}
	}
	return false
}

// TestStrongestMatchesBruteForce compares Strongest with bruteStrongest on
// random small graphs whose weights come from a small set, so that equal
// strengths, lengths and parallel edges are common. Some edges are
// self-loops or have invalid weights, and some queries name unknown nodes.
func TestStrongestMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	weights := []float64{0.3, 0.4, 0.5, 0.6, 0.8, 0.9, 1} // 0.4×0.9 > 0.6×0.6 in float64
	invalid := []float64{0, -0.5, math.NaN(), 1.5}
	types := []string{"causes", "enables", "prevents"}
	var ties bruteTies
	queries := 0
	for g := range 500 {
		n := 2 + rng.IntN(11)
		ids := make([]string, n)
		for i := range ids {
			ids[i] = "n" + strconv.Itoa(i) // n10 < n2: ids compare as strings
		}
		edges := make([]note.Edge, rng.IntN(3*n+1))
		for i := range edges {
			w := weights[rng.IntN(len(weights))]
			if rng.IntN(20) == 0 {
				w = invalid[rng.IntN(len(invalid))]
			}
			edges[i] = typedPathEdge(ids[rng.IntN(n)], ids[rng.IntN(n)], types[rng.IntN(len(types))], w)
		}
		p := NewPaths(edges)
		shuffled := slices.Clone(edges)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		q := NewPaths(shuffled)
		for _, from := range append(ids, "zz") {
			for _, to := range append(ids, "zz") {
				maxDepth := 1 + rng.IntN(5)
				queries++
				want, wantOK := bruteStrongest(edges, from, to, maxDepth, &ties)
				got, ok := p.Strongest(from, to, maxDepth)
				where := fmt.Sprintf("graph %d %v: %s→%s maxDepth %d", g, edges, from, to, maxDepth)
				checkAgainstBrute(t, where, got, ok, want, wantOK)
				if again, ok2 := q.Strongest(from, to, maxDepth); ok2 != ok || !slices.Equal(again.Edges, got.Edges) {
					t.Fatalf("%s: edges given in another order give %v, want %v", where, again.Nodes, got.Nodes)
				}
			}
		}
	}
	t.Logf("%d queries; ties settled by edges %d, ids %d, types %d times", queries, ties.edges, ties.ids, ties.types)
	if ties.edges == 0 || ties.ids == 0 || ties.types == 0 {
		t.Errorf("the random graphs did not exercise every tie rule: %+v", ties)
	}
}

func checkAgainstBrute(t *testing.T, where string, got Path, ok bool, want brutePath, wantOK bool) {
	t.Helper()
	if ok != wantOK {
		t.Fatalf("%s: ok = %v (%v), brute force %v (%v)", where, ok, got.Nodes, wantOK, want.nodes)
	}
	if !ok {
		return
	}
	if !slices.Equal(got.Nodes, want.nodes) || !slices.Equal(got.Edges, want.edges) {
		t.Fatalf("%s:\n got %v %v\nwant %v %v", where, got.Nodes, got.Edges, want.nodes, want.edges)
	}
	if !sameStrength(got.Strength, want.strength) {
		t.Fatalf("%s: Strength = %v, brute force %v", where, got.Strength, want.strength)
	}
}
