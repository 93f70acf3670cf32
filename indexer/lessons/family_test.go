package lessons

import (
	"fmt"
	"slices"
	"testing"

	"github.com/engramhq/engram/indexer/search"
)

// chained makes n clusters, each related to the next with a score that
// falls along the chain (0.5, 0.49, …), plus the links given.
func chained(n int, extra ...[3]float64) []Cluster {
	cs := make([]Cluster, n)
	add := func(a, b int, s float64) {
		cs[a].Related = append(cs[a].Related, Related{Cluster: b, Score: s})
		cs[b].Related = append(cs[b].Related, Related{Cluster: a, Score: s})
	}
	for i := range n - 1 {
		add(i, i+1, 0.5-float64(i)/100)
	}
	for _, e := range extra {
		add(int(e[0]), int(e[1]), e[2])
	}
	return cs
}

func familyOf(cs []Cluster) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = c.Family
	}
	return out
}

// TestFamilies: the capped single linkage over related links, on chains
// (the bad input: a chain must not merge everything) and on isolated
// clusters.
func TestFamilies(t *testing.T) {
	tests := []struct {
		name string
		cs   []Cluster
		max  int
		want []int
	}{
		{"alone", make([]Cluster, 3), 4, []int{0, 1, 2}},
		{"no families", chained(3), 1, []int{0, 1, 2}},
		{"a short chain is one family", chained(3), 4, []int{0, 0, 0}},
		// Strongest links first: 0-1 (0.5), 1-2, 2-3 make a family of 4;
		// 3-4 would make 5; 4-5, 5-6, 6-7 make the next.
		{"a long chain is cut at the cap", chained(9), 4, []int{0, 0, 0, 0, 4, 4, 4, 4, 8}},
		// The strong 5-6 link is taken before the weaker chain links.
		{"strongest link first", chained(7, [3]float64{5, 0, 0.9}), 3, []int{0, 0, 2, 2, 2, 0, 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			families(tt.cs, tt.max)
			if got := familyOf(tt.cs); !slices.Equal(got, tt.want) {
				t.Errorf("families %v, want %v", got, tt.want)
			}
		})
	}
}

// TestFamiliesOfChains: lessons related in a chain make families of at most
// MaxFamily clusters, each joined through related links; and lessons that
// share nothing are each their own family.
func TestFamiliesOfChains(t *testing.T) {
	// Lesson i shares three common terms with all and one word with the
	// next: neighbours are related (four shared terms, overlap between
	// the tiers' thresholds), the rest are not, so the related links make
	// one long chain.
	word := func(i, k int) string { return fmt.Sprintf("kx%c%c", 'a'+rune(i%26), 'a'+rune(k)) }
	var ls []Lesson
	for i := range 26 {
		text := "Verify the deploy pipeline"
		for k := range 6 {
			text += " " + word(i, k)
		}
		text += " " + word(i+1, 9) + " " + word(i, 9)
		ls = append(ls, Lesson{Text: text, Episode: fmt.Sprintf("E%d", i), Date: day0.AddDate(0, 0, i)})
	}
	ls = append(ls, at("Pin the linter version", "Rotate the signing keys every quarter")...)
	for _, m := range []int{-1, 2, 4, 8} {
		cs := Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations, MaxFamily: m})
		if len(cs) != 28 {
			t.Fatalf("max %d: %d clusters, want 28: the chain's lessons are related, not duplicates", m, len(cs))
		}
		size := checkFamilies(t, cs, m)
		largest := 0
		for _, n := range size {
			largest = max(largest, n)
		}
		if m > 1 && largest != m {
			t.Errorf("max %d: the largest family has %d clusters of %d, want %d: the lessons are related in a chain", m, largest, len(cs), m)
		}
	}
}

// checkFamilies: each family is named by its first cluster, holds at
// most max clusters (1 when max is negative), and each of its clusters is
// joined to it through a related link inside it. It returns the size of
// each family.
func checkFamilies(t *testing.T, cs []Cluster, m int) map[int]int {
	t.Helper()
	size := map[int]int{}
	for i, c := range cs {
		size[c.Family]++
		if c.Family > i || c.Family < 0 || cs[c.Family].Family != c.Family {
			t.Fatalf("max %d: cluster %d in family %d, whose first is not itself", m, i, c.Family)
		}
		if c.Family != i && !linkedWithin(cs, i) {
			t.Errorf("max %d: cluster %d is in family %d without a related link in it", m, i, c.Family)
		}
	}
	for f, n := range size {
		if n > max(m, 1) {
			t.Errorf("max %d: family %d has %d clusters", m, f, n)
		}
	}
	return size
}

func linkedWithin(cs []Cluster, i int) bool {
	return slices.ContainsFunc(cs[i].Related, func(r Related) bool { return cs[r.Cluster].Family == cs[i].Family })
}
