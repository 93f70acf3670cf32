package causal

import (
	"github.com/engramhq/engram/indexer/note"

	"math/rand/v2"
	"testing"
)

// benchGraph10k is the random graph of the benchmarks: 10,000 nodes
// n00000…n09999, each with 3 out-edges to distinct other nodes chosen
// uniformly (30,000 edges, so about 3 in-edges per node too), weights
// uniform in (0.05, 1], one of four types. From n00000 about 3^k nodes lie
// k edges away, so a query with maxDepth 5 visits a few hundred states.
func benchGraph10k() []note.Edge {
	return randomPathGraph(rand.New(rand.NewPCG(2024, 10)), 10000, 3)
}

// hopsAway returns the smallest id exactly d edges from `from` (by
// breadth-first search), so that a query with maxDepth d must search its
// full depth.
func hopsAway(b *testing.B, edges []note.Edge, from string, d int) string {
	out := map[string][]string{}
	for _, e := range edges {
		out[e.Source] = append(out[e.Source], e.Target)
	}
	dist := map[string]int{from: 0}
	layer := []string{from}
	for k := 1; k <= d; k++ {
		var next []string
		for _, u := range layer {
			for _, v := range out[u] {
				if _, seen := dist[v]; !seen {
					dist[v] = k
					next = append(next, v)
				}
			}
		}
		layer = next
	}
	if len(layer) == 0 {
		b.Fatalf("no node is %d edges from %s", d, from)
	}
	best := layer[0]
	for _, id := range layer {
		best = min(best, id)
	}
	return best
}

func benchStrongest(b *testing.B, edges []note.Edge, from, to string, maxDepth int) {
	p := NewPaths(edges)
	if _, ok := p.Strongest(from, to, maxDepth); !ok {
		b.Fatalf("no path %s→%s within %d edges", from, to, maxDepth)
	}
	for b.Loop() {
		p.Strongest(from, to, maxDepth)
	}
}

// BenchmarkStrongestPath10k queries a pair 5 edges apart with maxDepth 5.
func BenchmarkStrongestPath10k(b *testing.B) {
	edges := benchGraph10k()
	from := chainID(0)
	benchStrongest(b, edges, from, hopsAway(b, edges, from, 5), 5)
}

// BenchmarkStrongestPath10kUnbounded is the same query with no practical
// depth bound: the label-correcting search then runs over much of the graph.
func BenchmarkStrongestPath10kUnbounded(b *testing.B) {
	edges := benchGraph10k()
	from := chainID(0)
	benchStrongest(b, edges, from, hopsAway(b, edges, from, 5), 10000)
}

// BenchmarkStrongestPathChain10k walks a 10,000-node chain end to end:
// 9,999 layers of one state each.
func BenchmarkStrongestPathChain10k(b *testing.B) {
	const n = 10000
	benchStrongest(b, pathChain(n, 0.999), chainID(0), chainID(n-1), n)
}

func BenchmarkNewPaths10k(b *testing.B) {
	edges := benchGraph10k()
	for b.Loop() {
		NewPaths(edges)
	}
}
