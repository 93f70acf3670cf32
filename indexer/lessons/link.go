package lessons

import "math"

// slack widens the indexed prefixes against rounding: indexing more terms
// than needed only adds candidates, never loses a pair.
const slack = 1e-9

// link returns, for each group, a representative of its connected
// component under similar. Only pairs that can pass are compared, found
// with an inverted index of prefixes (Bayardo, Ma and Srikant's all-pairs
// prefix filter): a vector indexes its terms in rank order until the rest
// of it has norm at most threshold. If a and b share no indexed term of a,
// then by Cauchy–Schwarz cosine(a, b) <= |rest of a| · |b| <= threshold, so
// a pair above threshold always shares a term that one of them indexed,
// and probing the index with all of a later vector's terms finds it. The
// rare terms come first, so the long posting lists of common words stay
// mostly unindexed.
func link(vs []vector, terms int, threshold float64) []int {
	parent := make([]int, len(vs))
	seen := make([]int, len(vs)) // last group that compared with this one, plus one
	for i := range parent {
		parent[i] = i
	}
	postings := make([][]int, terms)
	bound := threshold - slack
	for i, v := range vs {
		for _, r := range v.rank {
			for _, j := range postings[r] {
				if seen[j] == i+1 {
					continue
				}
				seen[j] = i + 1
				if find(parent, i) != find(parent, j) && similar(v, vs[j], threshold) {
					union(parent, i, j)
				}
			}
		}
		for k, rest := range suffixNorms(v) {
			if !(rest > bound) {
				break
			}
			postings[v.rank[k]] = append(postings[v.rank[k]], i)
		}
	}
	for i := range parent {
		parent[i] = find(parent, i)
	}
	return parent
}

// suffixNorms yields, for each k, the norm of v's terms from k on.
func suffixNorms(v vector) []float64 {
	rest := make([]float64, len(v.w))
	var sum float64
	for k := len(v.w) - 1; k >= 0; k-- {
		sum += v.w[k] * v.w[k]
		rest[k] = math.Sqrt(sum)
	}
	return rest
}

func find(parent []int, i int) int {
	for parent[i] != i {
		parent[i] = parent[parent[i]]
		i = parent[i]
	}
	return i
}

func union(parent []int, a, b int) {
	ra, rb := find(parent, a), find(parent, b)
	if ra < rb {
		parent[rb] = ra
	} else {
		parent[ra] = rb
	}
}
