package lessons

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/search"
)

// checkRelated: each list is sorted best first, at most max long, names
// other clusters, and is symmetric with the same score and opposition.
func checkRelated(t *testing.T, cs []Cluster, max int) {
	t.Helper()
	for i, c := range cs {
		if len(c.Related) > max {
			t.Errorf("cluster %d has %d related, want at most %d", i, len(c.Related), max)
		}
		if !slices.IsSortedFunc(c.Related, func(a, b Related) int {
			if d := cmp.Compare(b.Score, a.Score); d != 0 {
				return d
			}
			return cmp.Compare(a.Cluster, b.Cluster)
		}) {
			t.Errorf("cluster %d: related %+v not sorted best first", i, c.Related)
		}
		for _, r := range c.Related {
			if r.Cluster == i || r.Cluster < 0 || r.Cluster >= len(cs) {
				t.Fatalf("cluster %d: related %+v names no other cluster", i, r)
			}
			back := slices.IndexFunc(cs[r.Cluster].Related, func(x Related) bool { return x.Cluster == i })
			if back < 0 || cs[r.Cluster].Related[back].Score != r.Score || cs[r.Cluster].Related[back].Opposite != r.Opposite {
				t.Errorf("cluster %d lists %+v, which does not list it back the same", i, r)
			}
		}
	}
}

func TestRelated(t *testing.T) {
	ls := at(
		"Pin the linter version in the CI image",
		"Upgrade the linter in the CI image monthly",
		"Never pin the linter version in the CI image",
		"Document the cache eviction policy",
		"Pin the compiler version in the release image",
	)
	cs := Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations})
	checkRelated(t, cs, DefaultMaxRelated)
	related := func(a, b string) (Related, bool) {
		for _, c := range cs {
			if c.Text == a {
				for _, r := range c.Related {
					if cs[r.Cluster].Text == b {
						return r, true
					}
				}
			}
		}
		return Related{}, false
	}
	tests := []struct {
		a, b     string
		want     bool
		opposite bool
	}{
		{ls[0].Text, ls[1].Text, true, false},
		{ls[0].Text, ls[2].Text, true, true},
		{ls[0].Text, ls[4].Text, true, false},
		{ls[1].Text, ls[4].Text, false, false},
		{ls[0].Text, ls[3].Text, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.a+" ~ "+tt.b, func(t *testing.T) {
			r, ok := related(tt.a, tt.b)
			if ok != tt.want || r.Opposite != tt.opposite {
				t.Errorf("related %v %+v, want %v, opposite %v", ok, r, tt.want, tt.opposite)
			}
		})
	}
	if cs := Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations, MaxRelated: -1}); slices.ContainsFunc(cs, func(c Cluster) bool { return c.Related != nil }) {
		t.Errorf("MaxRelated -1: related lists %+v, want none", cs)
	}
}

// TestRelatedIsMutual: a pair is listed when each is among the other's
// MaxRelated nearest. Eight lessons equally near each other: with room for
// three, the ties go to the earlier clusters, which list each other, and
// the rest list nothing; with room for seven, each lists all the others.
func TestRelatedIsMutual(t *testing.T) {
	var texts []string
	for _, tool := range []string{"linter", "formatter", "compiler", "bundler", "tester", "packager", "profiler", "debugger"} {
		texts = append(texts, fmt.Sprintf("Pin the %s version in CI", tool))
	}
	for _, tt := range []struct{ max, listing, each int }{{3, 4, 3}, {7, 8, 7}} {
		t.Run(fmt.Sprint(tt.max), func(t *testing.T) {
			cs := Clusters(at(texts...), Options{Analyze: search.AnalyzeKeepingNegations, MaxRelated: tt.max})
			checkRelated(t, cs, tt.max)
			listing := 0
			for _, c := range cs {
				if len(c.Related) > 0 {
					listing++
					if len(c.Related) != tt.each {
						t.Errorf("%q has %d related, want %d", c.Text, len(c.Related), tt.each)
					}
				}
			}
			if listing != tt.listing {
				t.Errorf("%d clusters list related, want %d", listing, tt.listing)
			}
		})
	}
}

// TestBadInput: inputs no real repository has, but a tool must survive.
func TestBadInput(t *testing.T) {
	long := strings.Repeat("Measure the scheduler latency under load before tuning the worker pool. ", 5000)
	tests := []struct {
		name string
		ls   []Lesson
		want []int // the clusters' counts
	}{
		{"10,000 identical lessons", repeat("Run the tests before committing", 10_000), []int{10_000}},
		{"empty lessons", at("", "", " \t\n"), []int{3}},
		{"only an id", at("4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a3f", "#1234", "PR-5678"), []int{1, 1, 1}},
		{"only punctuation", at("...", "--", "!!!"), []int{1, 1, 1}},
		{"Chinese", at("先运行测试再提交", "先运行测试再提交。", "不要在周五部署"), []int{2, 1}},
		{"a lesson and its negation", at("Rotate the signing keys every quarter", "Never rotate the signing keys every quarter"), []int{1, 1}},
		{"very long lessons", at(long, long+" Then profile.", "Document the cache"), []int{2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := Clusters(tt.ls, Options{Analyze: search.AnalyzeKeepingNegations})
			var got []int
			for _, c := range cs {
				got = append(got, c.Count)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("counts %v, want %v", got, tt.want)
			}
			checkRelated(t, cs, DefaultMaxRelated)
		})
	}
}

func repeat(text string, n int) []Lesson {
	ls := make([]Lesson, n)
	for i := range ls {
		ls[i] = Lesson{Text: text, Episode: fmt.Sprintf("e%05d", i), Date: day0.Add(time.Duration(i) * time.Minute)}
	}
	return ls
}
