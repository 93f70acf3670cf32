package lessons

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/search"
)

var day0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// at makes lessons one day apart, in the order given, each in its own
// episode e0, e1, …
func at(texts ...string) []Lesson {
	ls := make([]Lesson, len(texts))
	for i, s := range texts {
		ls[i] = Lesson{Text: s, Episode: "e" + string(rune('0'+i)), Date: day0.AddDate(0, 0, i)}
	}
	return ls
}

// similarities returns the similarity of ls[0] with each lesson, and the
// terms they share, in the collection ls.
func similarities(ls []Lesson) ([]float64, []int) {
	c := analyse(ls, testReader)
	vs := weigh(c, len(ls))
	sims, shared := make([]float64, len(ls)), make([]int, len(ls))
	for i := range ls {
		sims[i], shared[i] = similarity(vs[c.group[0]], vs[c.group[i]])
	}
	return sims, shared
}

// memberSets is each cluster's members, for comparing groupings.
func memberSets(cs []Cluster) [][]string {
	out := make([][]string, len(cs))
	for i, c := range cs {
		out[i] = c.Members
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestParaphrasesCluster(t *testing.T) {
	ls := at(
		"Run the tests before committing.",
		"Running tests before commit",
		"run the TESTS before you commit!",
	)
	// All three analyse to {run, test, commit}: "the", "before" and "you"
	// are stop words, case and punctuation go, and Porter stems "running"
	// and "committing". Same features, same vector.
	if sims, _ := similarities(ls); !near(sims[1], 1) || !near(sims[2], 1) {
		t.Errorf("similarities %v, want 1", sims)
	}
	got := Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations})
	want := []Cluster{{
		Text:     "run the TESTS before you commit!",
		Count:    3,
		Episodes: []string{"e0", "e1", "e2"},
		Latest:   day0.AddDate(0, 0, 2),
		Members:  []string{"Run the tests before committing.", "Running tests before commit", "run the TESTS before you commit!"},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Clusters = %+v\nwant %+v", got, want)
	}
}

// TestDifferentLessonsStayApart: short lessons that differ in a word are
// not duplicates, because they share fewer than DuplicateMinShared terms,
// or because one is the other's negation.
func TestDifferentLessonsStayApart(t *testing.T) {
	const base = "Run the tests before committing"
	tests := []struct {
		name, other string
		shared      int
		negated     bool
	}{
		{"one verb differs", "Skip the tests before committing", 2, false},
		{"one word more", "Run the tests before committing the code", 3, false},
		{"never", "Never run the tests before committing", 3, true},
		{"don't", "Don't run the tests before committing", 3, true},
		{"typographic don't", "Don’t run the tests before committing", 3, true},
		{"do not", "Do not run the tests before committing", 3, true},
		{"no", "No tests before committing", 2, true},
		{"avoid", "Avoid: running the tests before committing", 3, true},
		{"nothing shared", "Document the cache eviction policy", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ls := at(base, tt.other)
			if _, shared := similarities(ls); shared[1] != tt.shared {
				t.Errorf("shared terms = %d, want %d", shared[1], tt.shared)
			}
			if r := testReader.read(tt.other); r.negated != tt.negated {
				t.Errorf("negated = %v, want %v", r.negated, tt.negated)
			}
			if got := Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations}); len(got) != 2 {
				t.Errorf("got %d clusters, want 2: %+v", len(got), got)
			}
		})
	}
}

// TestRewordingsCluster: longer lessons that say the same thing in other
// words, with the shape of real lessons ("Rule.. Explanation", "Avoid:
// …"), are duplicates; the similarity and shared terms say why.
func TestRewordingsCluster(t *testing.T) {
	tests := []struct{ name, a, b string }{
		{"rule and its explanation",
			"Pin the linter version in the CI image.. An unpinned linter upgrade broke the nightly build twice.",
			"Pin the CI image's linter version: an upgrade of the linter broke the nightly build."},
		{"avoid form",
			"Avoid: trusting a green pipeline when the flaky integration suite was skipped.. Check the integration suite actually ran before merging.",
			"Avoid: merging on a green pipeline before checking that the flaky integration suite ran."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Clusters(at(tt.a, tt.b), Options{Analyze: search.AnalyzeKeepingNegations})
			if len(got) != 1 {
				sims, shared := similarities(at(tt.a, tt.b))
				t.Errorf("got %d clusters, want 1 (similarity %.3f, %d shared terms)", len(got), sims[1], shared[1])
			}
		})
	}
}

// TestBagOfWordsLimits pins what the features cannot tell apart, so that
// a change to it is a decision. Bigrams make word order count, but the
// terms outweigh them; and the polarity is the rule's as a whole, not what
// a negation applies to.
func TestBagOfWordsLimits(t *testing.T) {
	tests := []struct{ name, a, b string }{
		{"word order", "Run the parser tests before touching cache code", "Run the cache tests before touching parser code"},
		{"negation scope",
			"Don't run the slow integration tests on the release branch, deploy the nightly build",
			"Run the slow integration tests on the release branch, don't deploy the nightly build"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Clusters(at(tt.a, tt.b), Options{Analyze: search.AnalyzeKeepingNegations}); len(got) != 1 {
				t.Errorf("got %d clusters, want 1: %+v", len(got), got)
			}
		})
	}
}

// TestContractions: an n't contraction has the terms and the polarity of
// its spelled-out form, whatever the apostrophe and the case.
func TestContractions(t *testing.T) {
	tests := []struct{ a, b string }{
		{"Don't run the tests before committing", "Do not run the tests before committing"},
		{"Don’t run the tests before committing", "do not run the tests before committing"},
		{"DON'T RUN THE TESTS BEFORE COMMITTING", "Do not run the tests before committing"},
		{"The cache doesn't survive a restart", "The cache does not survive a restart"},
		{"The index isn't thread-safe", "The index is not thread-safe"},
		{"We can't deploy on Fridays", "We cannot deploy on Fridays"},
		{"We can't deploy on Fridays", "We can not deploy on Fridays"},
		{"The migration won't roll back", "The migration will not roll back"},
		{"You shouldn't skip review", "You should not skip review"},
		{"You needn't pin it", "You need not pin it"},
		{"It ain't broken", "It is not broken"},
	}
	for _, tt := range tests {
		t.Run(tt.a, func(t *testing.T) {
			if got := Clusters(at(tt.a, tt.b), Options{Analyze: search.AnalyzeKeepingNegations}); len(got) != 1 {
				t.Errorf("got %d clusters, want 1: %+v", len(got), got)
			}
		})
	}
}

func TestFreshestWordingWins(t *testing.T) {
	tests := []struct {
		name string
		ls   []Lesson
		want string
	}{
		{"latest date", []Lesson{
			{Text: "Running tests before commit", Date: day0.AddDate(0, 0, 5)},
			{Text: "Run the tests before committing.", Date: day0.AddDate(0, 0, 9)},
			{Text: "run the TESTS before you commit!", Date: day0},
		}, "Run the tests before committing."},
		{"same date: smaller text", []Lesson{
			{Text: "run tests before commit", Date: day0},
			{Text: "Run tests before commit", Date: day0},
			{Text: "Running tests before commit", Date: day0.AddDate(0, 0, -1)},
		}, "Run tests before commit"},
		{"same instant in another zone", []Lesson{
			{Text: "run tests before commit", Date: day0.In(time.FixedZone("CET", 3600))},
			{Text: "Run tests before commit", Date: day0},
		}, "Run tests before commit"},
		{"surrounding space trimmed", []Lesson{
			{Text: "  Run tests before commit\n", Date: day0},
		}, "Run tests before commit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Clusters(tt.ls, Options{Analyze: search.AnalyzeKeepingNegations})
			if len(got) != 1 || got[0].Text != tt.want {
				t.Fatalf("Clusters = %+v, want one cluster with text %q", got, tt.want)
			}
			latest := tt.ls[0].Date
			for _, l := range tt.ls {
				if l.Date.After(latest) {
					latest = l.Date
				}
			}
			if !got[0].Latest.Equal(latest) {
				t.Errorf("Latest = %v, want %v", got[0].Latest, latest)
			}
		})
	}
}

// TestCentralWordingLeads: among wordings of the same day, the one related
// to the most others leads, so a lesson stated three ways in one episode
// is one cluster even when the alphabetically first wording is near only
// one of the others.
func TestCentralWordingLeads(t *testing.T) {
	const (
		hub   = "Verify the reviewer's factual claims against the source before acting on them, in both directions"
		left  = "Act on a reviewer's claims only after checking them against the source"
		right = "Verify every factual claim in both directions: a reviewer can be wrong either way"
	)
	ls := []Lesson{{Text: left, Date: day0}, {Text: hub, Date: day0}, {Text: right, Date: day0}}
	got := Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations})
	if len(got) != 1 || got[0].Text != hub {
		t.Errorf("Clusters = %+v, want one cluster led by %q", got, hub)
	}
}

// TestCountsAndEpisodes: Count counts lessons, so an episode that repeats
// a lesson counts twice, but Episodes names each episode once.
func TestCountsAndEpisodes(t *testing.T) {
	ls := []Lesson{
		{Text: "Pin the linter version", Episode: "b", Date: day0},
		{Text: "Pin the linter version", Episode: "b", Date: day0},
		{Text: "pin the linter version!", Episode: "a", Date: day0},
		{Text: "Pin the linter version", Episode: "", Date: day0},
		{Text: "Measure before optimising", Episode: "c", Date: day0},
	}
	got := Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations})
	want := []Cluster{
		{
			Text:     "Pin the linter version",
			Count:    4,
			Episodes: []string{"a", "b"},
			Latest:   day0,
			Members:  []string{"Pin the linter version", "pin the linter version!"},
		},
		{
			Text:     "Measure before optimising",
			Count:    1,
			Episodes: []string{"c"},
			Latest:   day0,
			Members:  []string{"Measure before optimising"},
			Family:   1, // its own: it is related to nothing
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Clusters =\n%+v\nwant\n%+v", got, want)
	}
}

// Three lessons of 8 terms: b has all of a's and c's terms, a and c share
// none, so a~b and b~c are duplicates and a~c are not.
const (
	chainA = "Bisect the nightly scheduler regression with the recorded seed"
	chainB = "Bisect the nightly scheduler regression with the recorded seed, then quarantine the flaky importer fixture before reverting dependency bumps"
	chainC = "Quarantine the flaky importer fixture before reverting dependency bumps"
)

// TestNoChaining: single linkage made one cluster of three lessons where
// a~b and b~c; leader clustering puts in a cluster only what is near its
// leader, the most recent wording, so which lessons go together depends
// on the dates and not on the input order.
func TestNoChaining(t *testing.T) {
	dup := tier{DefaultDuplicate, DuplicateMinShared}
	c := analyse(at(chainA, chainB, chainC), testReader)
	vs := weigh(c, 3)
	_, ab := dup.holds(vs[0], vs[1])
	_, bc := dup.holds(vs[1], vs[2])
	_, ac := dup.holds(vs[0], vs[2])
	if !ab || !bc || ac {
		t.Fatalf("a~b %v, b~c %v, a~c %v: want a~b and b~c without a~c", ab, bc, ac)
	}
	tests := []struct {
		name string
		ls   []Lesson
		want [][]string
	}{
		// c is newest and leads; b is near c and joins it; a is not near
		// c and leads a cluster of its own, though it is near b.
		{"end newest", at(chainA, chainB, chainC), [][]string{{chainB, chainC}, {chainA}}},
		// b is newest and leads; a and c are both near b.
		{"middle newest", at(chainA, chainC, chainB), [][]string{{chainC, chainA, chainB}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, order := range [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
				in := make([]Lesson, 0, 3)
				for _, i := range order {
					in = append(in, tt.ls[i])
				}
				got := Clusters(in, Options{Analyze: search.AnalyzeKeepingNegations})
				if len(got) != len(tt.want) {
					t.Fatalf("order %v: %d clusters, want %d: %+v", order, len(got), len(tt.want), got)
				}
				for i, w := range tt.want {
					// The leader, the most recent, is last in w.
					if got[i].Text != w[len(w)-1] || !slices.Equal(got[i].Members, distinct(slices.Clone(w))) {
						t.Errorf("order %v: cluster %d = %+v, want members %q led by the last", order, i, got[i], w)
					}
				}
			}
		})
	}
}

// TestTemplateFamily: in a repository whose lessons are all stamped from
// templates over the same components, "Run the X tests before touching Y
// code" for every X and Y was one cluster under single linkage, published
// under one wording far from most of them. Any two of them share the
// template's four words and differ in the components, and at the
// duplicates threshold chosen on real lessons (which restate a rule with
// a long explanation, sharing far less) that is enough to merge them: the
// family is one cluster again (docs/lessons.md, limits). What leader
// clustering still guarantees is that nothing chains: every member is a
// duplicate of the cluster's wording, sharing its four words.
func TestTemplateFamily(t *testing.T) {
	subjects := []string{"parser", "cache", "build", "index", "graph", "search", "deploy", "auth", "config", "importer"}
	var ls []Lesson
	for _, tmpl := range benchTemplates { // benchTemplates[0] is the family
		for _, x := range subjects {
			for _, y := range subjects {
				i := len(ls)
				ls = append(ls, Lesson{Text: fmt.Sprintf(tmpl, x, y), Episode: fmt.Sprintf("e%03d", i), Date: day0.Add(time.Duration(i) * time.Hour)})
			}
		}
	}
	if !strings.HasPrefix(ls[0].Text, "Run the parser tests") {
		t.Fatalf("the family is %q…, want the Run template", ls[0].Text)
	}
	c := analyse(ls, testReader)
	vs := weigh(c, len(ls))
	comp := singleLinkage(vs, tier{DefaultDuplicate, DuplicateMinShared})
	family := len(subjects) * len(subjects)
	for i := range family {
		if comp[c.group[i]] != comp[c.group[0]] {
			t.Fatalf("single linkage does not chain %q to %q; this test shows nothing", ls[i].Text, ls[0].Text)
		}
	}
	checkNearLeader(t, ls, Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations}))
}

// TestNearLeader: in a mixed corpus, every wording of a cluster is a
// duplicate of the cluster's wording.
func TestNearLeader(t *testing.T) {
	ls := generate(3000, 7)
	checkNearLeader(t, ls, Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations}))
}

func checkNearLeader(t *testing.T, ls []Lesson, cs []Cluster) {
	t.Helper()
	c := analyse(ls, testReader)
	vs := weigh(c, len(ls))
	dup := tier{DefaultDuplicate, DuplicateMinShared}
	byWording := map[string]int{}
	for i, l := range ls {
		byWording[wording(l.Text)] = c.group[i]
	}
	for _, cl := range cs {
		lead := byWording[cl.Text]
		for _, m := range cl.Members {
			g := byWording[m]
			if s, ok := dup.holds(vs[g], vs[lead]); g != lead && (!ok || c.negated[g] != c.negated[lead]) {
				t.Errorf("%q is in the cluster of %q with similarity %f", m, cl.Text, s)
			}
		}
	}
}

// singleLinkage returns the connected components of the tier's relation,
// as clusters were made before: a representative of each vector's
// component.
func singleLinkage(vs []vector, t tier) []int {
	comp := make([]int, len(vs))
	for i := range comp {
		comp[i] = i
	}
	var root func(int) int
	root = func(i int) int {
		if comp[i] != i {
			comp[i] = root(comp[i])
		}
		return comp[i]
	}
	for i := range vs {
		for j := range i {
			if _, ok := t.holds(vs[i], vs[j]); ok && root(i) != root(j) {
				comp[root(i)] = root(j)
			}
		}
	}
	for i := range comp {
		comp[i] = root(i)
	}
	return comp
}

func TestOrderIndependence(t *testing.T) {
	ls := generate(3000, 7)
	want, _ := json.Marshal(Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations}))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 5 {
		shuffled := slices.Clone(ls)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, _ := json.Marshal(Clusters(shuffled, Options{Analyze: search.AnalyzeKeepingNegations}))
		if string(got) != string(want) {
			t.Fatalf("shuffle %d: output differs", i)
		}
	}
}

func TestEmptyInput(t *testing.T) {
	if got := Clusters(nil, Options{Analyze: search.AnalyzeKeepingNegations}); got != nil {
		t.Errorf("Clusters(nil) = %+v, want nil", got)
	}
	if got := Clusters([]Lesson{}, Options{Analyze: search.AnalyzeKeepingNegations}); got != nil {
		t.Errorf("Clusters([]) = %+v, want nil", got)
	}
}

// TestLessonsWithoutTerms: empty, stop-word-only, punctuation, emoji and
// identifier-only lessons have no terms; each clusters only with the same
// normalised text, and is related to nothing.
func TestLessonsWithoutTerms(t *testing.T) {
	ls := at("", "   ", "The", "the ", "THE", "of the", "!!!", "🎉", "🎉", "Run the tests",
		"4f2a9c1e8b7d", "#2334", "4F2A9C1E8B7D")
	got := Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations})
	want := [][]string{
		{"THE", "The", "the"},
		{"4F2A9C1E8B7D", "4f2a9c1e8b7d"},
		{"🎉"},
		{""},
		{"#2334"},
		{"Run the tests"},
		{"!!!"},
		{"of the"},
	}
	if m := memberSets(got); !reflect.DeepEqual(m, want) {
		t.Errorf("members = %q, want %q", m, want)
	}
	for _, c := range got {
		if c.Related != nil {
			t.Errorf("%q has related %+v, want none", c.Text, c.Related)
		}
	}
}

// TestNonLatin: the analyzer makes one term per Han character and one per
// word of Arabic, so such lessons are compared like English ones, the
// bigrams of characters standing for words. Thai gives no terms and falls
// back to the same normalised text.
func TestNonLatin(t *testing.T) {
	tests := []struct {
		name  string
		texts []string
		want  int // clusters
	}{
		{"Chinese punctuation", []string{"先运行测试再提交", "先运行测试再提交。"}, 1},
		// The same characters in another order share every term and few
		// bigrams: still one lesson.
		{"Chinese order", []string{"先运行测试再提交", "先提交再运行测试"}, 1},
		{"Chinese different", []string{"先运行测试再提交", "不要在周五部署"}, 2},
		{"Chinese reworded", []string{"提交代码之前一定要运行全部测试", "运行全部测试以后再提交代码"}, 1},
		{"Japanese", []string{"テストを実行してからコミットする", "テストを実行してからコミットする！"}, 1},
		{"Arabic punctuation", []string{"شغّل الاختبارات قبل الالتزام", "شغّل الاختبارات قبل الالتزام!"}, 1},
		{"Arabic different", []string{"شغّل الاختبارات قبل الالتزام", "لا تنشر يوم الجمعة"}, 2},
		{"Thai same", []string{"ทดสอบก่อนคอมมิต", " ทดสอบก่อนคอมมิต "}, 1},
		{"Thai different", []string{"ทดสอบก่อนคอมมิต", "ทดสอบ"}, 2},
		{"Thai is not empty", []string{"ทดสอบ", ""}, 2},
		{"combining accent", []string{"Cache the café menu", "Cache the cafe\u0301 menu"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Clusters(at(tt.texts...), Options{Analyze: search.AnalyzeKeepingNegations}); len(got) != tt.want {
				t.Errorf("got %d clusters, want %d: %+v", len(got), tt.want, got)
			}
		})
	}
}

func TestThresholdIsStrict(t *testing.T) {
	ls := at(chainA, chainB)
	s, _ := similarities(ls)
	if got := Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations, Duplicate: s[1]}); len(got) != 2 {
		t.Errorf("at threshold = similarity %v: %d clusters, want 2", s[1], len(got))
	}
	if got := Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations, Duplicate: math.Nextafter(s[1], 0)}); len(got) != 1 {
		t.Errorf("just below similarity %v: %d clusters, want 1", s[1], len(got))
	}
}

// TestThresholdExtremes: whatever the threshold, duplicates share
// DuplicateMinShared terms; NaN relates nothing.
func TestThresholdExtremes(t *testing.T) {
	const (
		tests4  = "Run the slow integration tests before merging"
		tests4b = "Running slow integration tests, then merging"
		tests3  = "Run the integration tests"
		other   = "Document the cache"
	)
	ls := at(tests4, tests4b, tests3, other, "", "the")
	tests := []struct {
		name      string
		threshold float64
		want      [][]string
	}{
		// Nothing has similarity above 1, but the same features are one
		// group.
		{"1", 1, [][]string{{tests4, tests4b}, {"the"}, {""}, {other}, {tests3}}},
		{"NaN", math.NaN(), [][]string{{tests4, tests4b}, {"the"}, {""}, {other}, {tests3}}},
		{"negative", -1, [][]string{{tests4, tests4b}, {"the"}, {""}, {other}, {tests3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := memberSets(Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations, Duplicate: tt.threshold})); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("members = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSortOrder(t *testing.T) {
	ls := []Lesson{
		{Text: "b lesson", Date: day0},
		{Text: "c lesson", Date: day0.AddDate(0, 0, 1)},
		{Text: "a lesson", Date: day0},
		{Text: "d lesson", Date: day0},
		{Text: "d lesson", Date: day0},
	}
	var got []string
	for _, c := range Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations}) {
		got = append(got, c.Text)
	}
	// Count first, then the most recent, then the text.
	if want := []string{"d lesson", "c lesson", "a lesson", "b lesson"}; !slices.Equal(got, want) {
		t.Errorf("order = %q, want %q", got, want)
	}
}

// TestCandidatesMatchBruteForce checks the search by keys against
// comparing each group with every leader, and the joins against comparing
// every pair, on small vocabularies where many pairs share many terms.
func TestCandidatesMatchBruteForce(t *testing.T) {
	words := []string{"cache", "build", "graph", "index", "parser", "deploy", "query", "merge", "retry", "schema", "token", "not", "shard"}
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 40 {
		ls := make([]Lesson, 60+r.IntN(100))
		for i := range ls {
			text := ""
			for range 1 + r.IntN(10) {
				text += words[r.IntN(len(words)-round%6)] + " "
			}
			ls[i] = Lesson{Text: text, Date: day0.AddDate(0, 0, r.IntN(10))}
		}
		c := analyse(ls, testReader)
		vs := weigh(c, len(ls))
		win := winners(ls, c.group, len(c.groups))
		for _, th := range []float64{-1, 0, 0.1, 0.3, 0.5, 0.7, 0.95, 0.999999} {
			for _, k := range []int{1, 2, 4} {
				tr := tier{th, k}
				order := byRecency(ls, win, c.negated, newJoiner(vs, len(c.terms), tr))
				got, gotLeaders := lead(vs, c.negated, order, len(c.terms), tr)
				want, wantLeaders := bruteLead(vs, c.negated, order, tr)
				if !slices.Equal(got, want) || !slices.Equal(gotLeaders, wantLeaders) {
					t.Fatalf("round %d, %+v: clusters %v, leaders %v; want %v, %v", round, tr, got, gotLeaders, want, wantLeaders)
				}
				ids := slices.Clone(order)
				if got, want := joined(vs, len(c.terms), tr, ids), bruteJoin(vs, tr, ids); !slices.Equal(got, want) {
					t.Fatalf("round %d, %+v: join found %d pairs, want %d", round, tr, len(got), len(want))
				}
			}
		}
	}
}

func bruteLead(vs []vector, negated []bool, order []int, t tier) (cluster, leader []int) {
	cluster = make([]int, len(vs))
	for _, g := range order {
		k := slices.IndexFunc(leader, func(l int) bool {
			_, ok := t.holds(vs[g], vs[l])
			return ok && negated[g] == negated[l]
		})
		if k < 0 {
			k = len(leader)
			leader = append(leader, g)
		}
		cluster[g] = k
	}
	return cluster, leader
}

// link is a pair a join found: positions and similarity.
type link struct {
	a, b  int
	score float64
}

// joined returns the pairs a joiner finds among ids (taken as groups).
func joined(vs []vector, features int, t tier, ids []int) []link {
	var out []link
	newJoiner(vs, features, t).join(ids, func(a, b int, s float64) { out = append(out, link{a, b, s}) })
	return out
}

func bruteJoin(vs []vector, t tier, ids []int) []link {
	var out []link
	for b := range ids {
		for a := range b {
			if s, ok := t.holds(vs[ids[b]], vs[ids[a]]); ok {
				out = append(out, link{a, b, s})
			}
		}
	}
	return out
}

// TestNegationNeverMerges: a lesson and its negation share every term and
// are never duplicates; they are related, marked Opposite.
func TestNegationNeverMerges(t *testing.T) {
	ls := []Lesson{
		{Text: "Rotate the signing keys every quarter.", Episode: "E1", Date: day0},
		{Text: "Do not rotate the signing keys every quarter.", Episode: "E2", Date: day0.AddDate(0, 0, 1)},
		{Text: "Don't rotate signing keys each quarter", Episode: "E3", Date: day0.AddDate(0, 0, 2)},
		{Text: "Avoid rotating the signing keys every quarter.", Episode: "E4", Date: day0.AddDate(0, 0, 3)},
	}
	for i := range 30 { // make "not" common
		ls = append(ls, Lesson{Text: fmt.Sprintf("Do not forget step %d", i), Episode: fmt.Sprintf("F%d", i), Date: day0})
	}
	cs := Clusters(ls, Options{Analyze: search.AnalyzeKeepingNegations})
	var got []string
	for _, c := range cs {
		if strings.Contains(strings.ToLower(c.Text), "rotat") {
			got = append(got, fmt.Sprintf("%s %v", c.Text, c.Episodes))
		}
	}
	want := []string{"Avoid rotating the signing keys every quarter. [E2 E3 E4]", "Rotate the signing keys every quarter. [E1]"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("clusters %q, want %q", got, want)
	}
	for i, c := range cs {
		if c.Text == "Rotate the signing keys every quarter." {
			if len(c.Related) != 1 || !c.Related[0].Opposite || !strings.HasPrefix(cs[c.Related[0].Cluster].Text, "Avoid") {
				t.Errorf("cluster %d related %+v, want its negation, opposite", i, c.Related)
			}
		}
	}
}

// TestRuleNegated: the rule's polarity, from the negations in it.
func TestRuleNegated(t *testing.T) {
	tests := []struct {
		text    string
		negated bool
	}{
		{"Rotate the keys", false},
		{"Never rotate the keys", true},
		{"Avoid: rotating the keys.. Rotation broke the signing twice.", true},
		{"Avoid rotating the keys", true},
		{"avoid: rotating the keys", true},
		{"Avoidance of rotation is a smell", false},
		{"To avoid outages, rotate the keys", false},
		{"Rotate the keys.. Never skip a quarter.", false},
		{"Rotate the keys. Never skip a quarter.", false},
		{"Avoid: claiming the rotation ran when it did not", false},
		{"Rotate the keys without waiting for an incident", true},
		{"Check the keys, not only the certificates", false},
		{"Check the keys, not just the certificates", false},
		{"Not only the keys: rotate the certificates", false},
		{"Nor the certificates", true},
		{"No manual rotation", true},
		{"Don't rotate by hand", true},
		{"先运行测试再提交", false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := testReader.read(tt.text).negated; got != tt.negated {
				t.Errorf("negated = %v, want %v", got, tt.negated)
			}
		})
	}
}

func TestParts(t *testing.T) {
	tests := []struct{ text, title, body string }{
		{"Rule.. Explanation. More.", "Rule", " Explanation. More."},
		{"Rule. Explanation", "Rule.", " Explanation"},
		{"One sentence only", "One sentence only", ""},
		{"Wait... then go. Really", "Wait... then go.", " Really"},
		{"Use e.g. a mutex. Or not", "Use e.g. a mutex.", " Or not"},
		{"Compare 0.85 and 0.9 first", "Compare 0.85 and 0.9 first", ""},
		{"First line\nsecond line", "First line\n", "second line"},
		{"先运行测试。再提交", "先运行测试。", "再提交"},
		{"..", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if title, body := parts(tt.text); title != tt.title || body != tt.body {
				t.Errorf("parts = %q, %q; want %q, %q", title, body, tt.title, tt.body)
			}
		})
	}
}

func TestMeaningless(t *testing.T) {
	tests := []struct {
		term string
		want bool
	}{
		{"2334", true}, {"4f2a9c1", true}, {"deadbeef", false}, {"c1", false},
		{"u2014", false}, {"abc123", false}, {"a0387bc21", true}, {"test", false}, {"", false},
	}
	for _, tt := range tests {
		if got := meaningless(tt.term); got != tt.want {
			t.Errorf("meaningless(%q) = %v, want %v", tt.term, got, tt.want)
		}
	}
}

// testReader reads lessons as Clusters does in a build.
var testReader = newReader(search.AnalyzeKeepingNegations)
