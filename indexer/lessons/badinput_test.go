package lessons

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/search"
)

// identical makes n lessons of one wording (with a meaningless id where
// idOf says), each in its own episode and day.
func identical(n int, idOf func(i int) string) []Lesson {
	ls := make([]Lesson, n)
	for i := range ls {
		ls[i] = Lesson{Text: "Run the full test suite before pushing" + idOf(i),
			Episode: fmt.Sprintf("e%05d", i), Date: day0.Add(time.Duration(i) * time.Hour)}
	}
	return ls
}

// TestManyIdenticalLessons: 10,000 lessons that say one thing (the same
// text, or the same text with a different commit id or number, which carry
// no meaning) are one cluster of 10,000 from 10,000 episodes. Repeats are
// compared once (one group), so this is linear, not 10,000².
func TestManyIdenticalLessons(t *testing.T) {
	tests := []struct {
		name    string
		idOf    func(int) string
		members int
	}{
		{"same text", func(int) string { return "" }, 1},
		{"a commit id each", func(i int) string { return fmt.Sprintf(" (commit %08x)", 0xa0000000+i) }, 10_000},
		{"a number each", func(i int) string { return fmt.Sprintf(", run %d", i) }, 10_000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Clusters(identical(10_000, tt.idOf), Options{Analyze: search.AnalyzeKeepingNegations})
			if len(got) != 1 {
				t.Fatalf("got %d clusters, want 1", len(got))
			}
			c := got[0]
			if c.Count != 10_000 || len(c.Episodes) != 10_000 || len(c.Members) != tt.members || c.Related != nil {
				t.Errorf("count %d, episodes %d, members %d, related %v; want 10000, 10000, %d, none",
					c.Count, len(c.Episodes), len(c.Members), c.Related, tt.members)
			}
			if !slices.IsSorted(c.Episodes) {
				t.Errorf("episodes not sorted")
			}
		})
	}
}

// TestShortLessons: one-word lessons share at most one term, fewer than
// either tier needs, so they merge only with the same word (stemmed) and
// are related to nothing; an empty lesson stays on its own.
func TestShortLessons(t *testing.T) {
	tests := []struct {
		name  string
		texts []string
		want  [][]string
	}{
		{"one word twice", []string{"Test", "test"}, [][]string{{"Test", "test"}}},
		{"one word stemmed", []string{"Testing", "tests"}, [][]string{{"Testing", "tests"}}},
		{"two words", []string{"Test", "Deploy"}, [][]string{{"Deploy"}, {"Test"}}},
		{"word and empty", []string{"Test", ""}, [][]string{{""}, {"Test"}}},
		{"word in a sentence", []string{"Test", "Test the parser before the release"},
			[][]string{{"Test the parser before the release"}, {"Test"}}},
		{"negated word", []string{"Deploy", "Never deploy"}, [][]string{{"Never deploy"}, {"Deploy"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Clusters(at(tt.texts...), Options{Analyze: search.AnalyzeKeepingNegations})
			if m := memberSets(got); !slices.EqualFunc(m, tt.want, slices.Equal) {
				t.Errorf("members = %q, want %q", m, tt.want)
			}
			for _, c := range got {
				if c.Related != nil {
					t.Errorf("%q has related %+v, want none", c.Text, c.Related)
				}
			}
		})
	}
}

// TestChineseLessons: Chinese lessons give a term per character and the
// bigrams of characters, never a crash; the same lesson reworded merges,
// a different one stays apart, and a Chinese lesson is never a duplicate
// of an English one.
func TestChineseLessons(t *testing.T) {
	rd := newReader(search.AnalyzeKeepingNegations)
	if r := rd.read("提交代码之前运行测试"); len(r.title) == 0 {
		t.Errorf("no terms for a Chinese lesson")
	}
	ls := at("提交代码之前一定要运行全部测试", "运行全部测试以后再提交代码", "不要在周五部署生产环境",
		"Run all the tests before committing code", "。，！？")
	got := Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations})
	want := [][]string{
		{"提交代码之前一定要运行全部测试", "运行全部测试以后再提交代码"},
		{"。，！？"},
		{"Run all the tests before committing code"},
		{"不要在周五部署生产环境"},
	}
	if m := memberSets(got); !slices.EqualFunc(m, want, slices.Equal) {
		t.Errorf("members = %q, want %q", m, want)
	}
}
