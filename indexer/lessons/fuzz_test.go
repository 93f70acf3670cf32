package lessons

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzClusters: any lessons at any threshold cluster without panicking,
// every lesson lands in exactly one cluster, and reversing the input
// changes nothing.
func FuzzClusters(f *testing.F) {
	for _, s := range []string{
		"",
		"\n\n",
		"Run the tests before committing.\nRunning tests before commit\nSkip the tests",
		"the\nThe\n of the \n!!!\n🎉",
		"先运行测试再提交\nشغّل الاختبارات\nทดสอบ\nDon’t\n\u0301\uFF07s",
		"\xff\xfe\x00\nrun\x00tests\n\u2019\u2019\u2019",
	} {
		f.Add(s, 0.85)
	}
	f.Add("a b\nb c\nc d", math.NaN())
	f.Add("a b\nb c\nc d", math.Inf(-1))
	f.Fuzz(func(t *testing.T, text string, threshold float64) {
		var ls []Lesson
		for i, line := range strings.Split(text, "\n") {
			ls = append(ls, Lesson{Text: line, Episode: line[:min(3, len(line))], Date: day0.Add(time.Duration(i%4) * time.Hour)})
		}
		got := Clusters(ls, threshold)
		count := 0
		var members []string
		for _, c := range got {
			count += c.Count
			members = append(members, c.Members...)
		}
		if count != len(ls) {
			t.Errorf("counts add up to %d, want %d", count, len(ls))
		}
		slices.Sort(members)
		if len(slices.Compact(slices.Clone(members))) != len(members) {
			t.Errorf("a wording is in two clusters: %q", members)
		}
		slices.Reverse(ls)
		if again := Clusters(ls, threshold); !slices.EqualFunc(got, again, sameCluster) {
			t.Errorf("reversed input: %+v, want %+v", again, got)
		}
	})
}

func sameCluster(a, b Cluster) bool {
	return a.Text == b.Text && a.Count == b.Count && a.Latest.Equal(b.Latest) &&
		slices.Equal(a.Episodes, b.Episodes) && slices.Equal(a.Members, b.Members)
}
