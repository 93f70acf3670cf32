package lessons

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/search"
)

// FuzzClusters: any lessons at any threshold cluster without panicking,
// every lesson lands in exactly one cluster, the related lists are
// well formed, and reversing the input changes nothing.
func FuzzClusters(f *testing.F) {
	for _, s := range []string{
		"",
		"\n\n",
		"Run the tests before committing.\nRunning tests before commit\nSkip the tests",
		"the\nThe\n of the \n!!!\n🎉",
		"先运行测试再提交\nشغّل الاختبارات\nทดสอบ\nDon’t\n\u0301\uFF07s",
		"\xff\xfe\x00\nrun\x00tests\n\u2019\u2019\u2019",
		"Avoid: a b c d.. e f\nNot only a b c d\na b c d e, not just f\n....\n..a..b",
	} {
		f.Add(s, 0.15, 0.1)
	}
	f.Add("a b c d\nb c d e\nc d e f", math.NaN(), math.NaN())
	f.Add("a b c d\nb c d e\nc d e f", math.Inf(-1), math.Inf(-1))
	f.Fuzz(func(t *testing.T, text string, duplicate, related float64) {
		var ls []Lesson
		for i, line := range strings.Split(text, "\n") {
			ls = append(ls, Lesson{Text: line, Episode: line[:min(3, len(line))], Date: day0.Add(time.Duration(i%4) * time.Hour)})
		}
		o := Options{Analyze: search.AnalyzeKeepingNegations, Duplicate: duplicate, Related: related, MaxRelated: 3}
		got := Clusters(ls, o)
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
		checkRelated(t, got, 3)
		checkFamilies(t, got, DefaultMaxFamily)
		slices.Reverse(ls)
		if again := Clusters(ls, o); !reflect.DeepEqual(got, again) {
			t.Errorf("reversed input: %+v, want %+v", again, got)
		}
	})
}
