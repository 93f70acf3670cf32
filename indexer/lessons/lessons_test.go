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

// cosines returns the cosine of ls[0] with each lesson, in the collection ls.
func cosines(ls []Lesson) []float64 {
	c := analyse(ls)
	vs := weigh(c, len(ls))
	out := make([]float64, len(ls))
	for i := range ls {
		out[i] = cosine(vs[c.group[0]], vs[c.group[i]])
	}
	return out
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
	// and "committing". Same terms, same vector: cosine 1.
	for i, c := range cosines(ls) {
		if !near(c, 1) {
			t.Errorf("cosine(%q, %q) = %f, want 1", ls[0].Text, ls[i].Text, c)
		}
	}
	got := Clusters(ls, DefaultThreshold)
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

func TestDifferentLessonsStayApart(t *testing.T) {
	tests := []struct {
		name   string
		other  string
		cosine float64
	}{
		// {run, test, commit} vs {skip, test, commit}. Two lessons: N = 2;
		// test and commit are in both, idf = ln(2/2)+1 = 1; run and skip in
		// one, idf = ln(2)+1 = 1.693. cosine = 2 / (2 + 1.693²) = 0.411.
		{"one verb differs", "Skip the tests before committing", 0.410952},
		// {run, test, commit} vs {run, test, commit, code}: cosine =
		// 3 / (√3 · √(3 + 1.693²)) = 0.715. A short lesson needs the same
		// stems to reach 0.85; one more word is too many.
		{"one word more", "Run the tests before committing the code", 0.715092},
		// Negations are terms: {not, run, test, commit} is one word more,
		// like "code". "never" is not in bleve's stop list; "not" and the
		// n't forms are, and are taken out of it.
		{"never", "Never run the tests before committing", 0.715092},
		{"don't", "Don't run the tests before committing", 0.715092},
		{"typographic don't", "Don’t run the tests before committing", 0.715092},
		{"do not", "Do not run the tests before committing", 0.715092},
		// {no, test, commit}: "no" takes the place of "run".
		{"no", "No tests before committing", 0.410952},
		{"nothing shared", "Document the cache eviction policy", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ls := at("Run the tests before committing", tt.other)
			if c := cosines(ls)[1]; !near(c, tt.cosine) {
				t.Errorf("cosine = %f, want %f", c, tt.cosine)
			}
			if got := Clusters(ls, DefaultThreshold); len(got) != 2 {
				t.Errorf("got %d clusters, want 2: %+v", len(got), got)
			}
		})
	}
}

// TestBagOfWordsLimits pins what TF-IDF over the English analyzer cannot
// tell apart, so that a change to it is a decision: word order is lost,
// and with it what a negation applies to.
func TestBagOfWordsLimits(t *testing.T) {
	tests := []struct{ name, a, b string }{
		{"word order", "Run the parser tests before touching cache code", "Run the cache tests before touching parser code"},
		{"negation scope", "Don't run the tests, commit", "Run the tests, don't commit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Clusters(at(tt.a, tt.b), DefaultThreshold); len(got) != 1 {
				t.Errorf("got %d clusters, want 1: %+v", len(got), got)
			}
		})
	}
}

// TestContractions: an n't contraction has the terms of its spelled-out
// form, whatever the apostrophe and the case.
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
			if c := cosines(at(tt.a, tt.b))[1]; !near(c, 1) {
				t.Errorf("cosine(%q, %q) = %f, want 1", tt.a, tt.b, c)
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
			got := Clusters(tt.ls, DefaultThreshold)
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
	got := Clusters(ls, DefaultThreshold)
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
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Clusters =\n%+v\nwant\n%+v", got, want)
	}
}

// TestNoChaining: a~b and b~c are above the threshold, a~c below. Single
// linkage made one cluster of the three; leader clustering puts in a
// cluster only what is near its leader, the most recent wording, so which
// lessons go together depends on the dates and not on the input order.
func TestNoChaining(t *testing.T) {
	const (
		a = "When the nightly integration build fails on the release branch, read the full scheduler log, reproduce it locally with the same seed, and bisect the dependency updates before reverting anything"
		b = "When the nightly integration build fails on the release branch, read the full importer log, reproduce it locally with the same seed, and bisect the dependency updates before reverting anything"
		c = "When the nightly integration build fails on the release branch, read the full importer log, reproduce it locally with the same config, and bisect the dependency updates before reverting anything"
	)
	// Each lesson has 18 stems. Neighbours differ in one: a~b = b~c =
	// 0.8507, above 0.85; a and c differ in two: 0.7149, below.
	if cs := cosines(at(a, b, c)); !near(cs[1], 0.850693) || !near(cs[2], 0.714940) {
		t.Fatalf("cosines %v: a~b and b~c are not above 0.85 with a~c below", cs)
	}
	tests := []struct {
		name string
		ls   []Lesson
		want [][]string
	}{
		// c is newest and leads; b is near c and joins it; a is not near
		// c and leads a cluster of its own, though it is near b.
		{"end newest", at(a, b, c), [][]string{{b, c}, {a}}},
		// b is newest and leads; a and c are both near b.
		{"middle newest", at(a, c, b), [][]string{{c, a, b}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, order := range [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
				in := make([]Lesson, 0, 3)
				for _, i := range order {
					in = append(in, tt.ls[i])
				}
				got := Clusters(in, DefaultThreshold)
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

// TestTemplateFamily: in a repository whose lessons come from templates
// over the same components, "Run the X tests before touching Y code" for
// every X and Y was one cluster under single linkage ("Run the auth tests
// before touching auth code" ~ "… touching cache code" ~ "Run the cache
// tests …"), published under one wording far from most of them. Now it
// splits, and every member is near its cluster's wording.
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
	family := len(subjects) * len(subjects)
	if !strings.HasPrefix(ls[0].Text, "Run the parser tests") {
		t.Fatalf("the family is %q…, want the Run template", ls[0].Text)
	}

	c := analyse(ls)
	vs := weigh(c, len(ls))
	comp := singleLinkage(vs, DefaultThreshold)
	for i := range family {
		if comp[c.group[i]] != comp[c.group[0]] {
			t.Fatalf("single linkage does not chain %q to %q; this test shows nothing", ls[i].Text, ls[0].Text)
		}
	}

	got := Clusters(ls, DefaultThreshold)
	checkNearLeader(t, ls, got, DefaultThreshold)
	clusters, largest := 0, 0
	for _, cl := range got {
		if n := len(slices.DeleteFunc(slices.Clone(cl.Members), func(m string) bool { return !strings.HasPrefix(m, "Run the ") })); n > 0 {
			clusters++
			largest = max(largest, n)
		}
	}
	if largest > family/4 {
		t.Errorf("the family is in %d clusters, the largest with %d of its %d lessons: it still collapses", clusters, largest, family)
	}
}

// TestNearLeader: in a mixed corpus, every wording of a cluster has cosine
// above the threshold with the cluster's wording.
func TestNearLeader(t *testing.T) {
	ls := generate(3000, 7)
	checkNearLeader(t, ls, Clusters(ls, DefaultThreshold), DefaultThreshold)
}

func checkNearLeader(t *testing.T, ls []Lesson, cs []Cluster, threshold float64) {
	t.Helper()
	c := analyse(ls)
	vs := weigh(c, len(ls))
	byWording := map[string]vector{}
	for i, l := range ls {
		byWording[wording(l.Text)] = vs[c.group[i]]
	}
	for _, cl := range cs {
		for _, m := range cl.Members {
			if cos := cosine(byWording[m], byWording[cl.Text]); m != cl.Text && !(cos > threshold) {
				t.Errorf("%q is in the cluster of %q with cosine %f", m, cl.Text, cos)
			}
		}
	}
}

// singleLinkage returns the connected components of similar, as clusters
// were made before: a representative of each vector's component.
func singleLinkage(vs []vector, threshold float64) []int {
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
			if ri, rj := root(i), root(j); ri != rj && similar(vs[i], vs[j], threshold) {
				comp[ri] = rj
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
	want, _ := json.Marshal(Clusters(ls, DefaultThreshold))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 5 {
		shuffled := slices.Clone(ls)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, _ := json.Marshal(Clusters(shuffled, DefaultThreshold))
		if string(got) != string(want) {
			t.Fatalf("shuffle %d: output differs", i)
		}
	}
}

func TestEmptyInput(t *testing.T) {
	if got := Clusters(nil, DefaultThreshold); got != nil {
		t.Errorf("Clusters(nil) = %+v, want nil", got)
	}
	if got := Clusters([]Lesson{}, DefaultThreshold); got != nil {
		t.Errorf("Clusters([]) = %+v, want nil", got)
	}
}

// TestLessonsWithoutTerms: empty, stop-word-only, punctuation and emoji
// lessons have no terms; each clusters only with the same normalised text.
func TestLessonsWithoutTerms(t *testing.T) {
	ls := at("", "   ", "The", "the ", "THE", "of the", "!!!", "🎉", "🎉", "Run the tests")
	got := memberSets(Clusters(ls, DefaultThreshold))
	want := [][]string{
		{"THE", "The", "the"},
		{"🎉"},
		{""},
		{"Run the tests"},
		{"!!!"},
		{"of the"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("members = %q, want %q", got, want)
	}
}

// TestNonLatin: the analyzer makes one term per Han character and one per
// word of Arabic, so such lessons cluster by TF-IDF like English ones.
// Thai gives no terms and falls back to the same normalised text.
func TestNonLatin(t *testing.T) {
	tests := []struct {
		name  string
		texts []string
		want  int // clusters
	}{
		{"Chinese punctuation", []string{"先运行测试再提交", "先运行测试再提交。"}, 1},
		// Unigrams lose order: "commit, then run the tests" is the same
		// bag of characters as "run the tests, then commit".
		{"Chinese order", []string{"先运行测试再提交", "先提交再运行测试"}, 1},
		{"Chinese different", []string{"先运行测试再提交", "不要在周五部署"}, 2},
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
			if got := Clusters(at(tt.texts...), DefaultThreshold); len(got) != tt.want {
				t.Errorf("got %d clusters, want %d: %+v", len(got), tt.want, got)
			}
		})
	}
	if c := cosines(at("先运行测试再提交", "先运行测试再提交。"))[1]; !near(c, 1) {
		t.Errorf("Chinese cosine = %f, want 1", c)
	}
}

func TestThresholdIsStrict(t *testing.T) {
	// Two unit vectors whose cosine is the float64 0.85 exactly:
	// (0.85, √(1−0.85²)) · (1, 0) = 0.85 × 1.
	a := vector{rank: []int32{0, 1}, w: []float64{0.85, math.Sqrt(1 - 0.85*0.85)}}
	b := vector{rank: []int32{0}, w: []float64{1}}
	if c := cosine(a, b); c != 0.85 {
		t.Fatalf("cosine = %v, want 0.85 exactly", c)
	}
	if similar(a, b, DefaultThreshold) {
		t.Error("cosine 0.85 clusters at threshold 0.85")
	}
	if !similar(a, b, math.Nextafter(DefaultThreshold, 0)) {
		t.Error("cosine 0.85 does not cluster just below 0.85")
	}

	// The same through Clusters, at the real cosine of two lessons, so the
	// candidate search is tested at the edge too.
	ls := at("Run the auth tests before touching auth code", "Run the auth tests before touching cache code")
	c := cosines(ls)[1]
	if got := Clusters(ls, c); len(got) != 2 {
		t.Errorf("at threshold = cosine %v: %d clusters, want 2", c, len(got))
	}
	if got := Clusters(ls, math.Nextafter(c, 0)); len(got) != 1 {
		t.Errorf("just below cosine %v: %d clusters, want 1", c, len(got))
	}
}

func TestThresholdExtremes(t *testing.T) {
	ls := at("Run the tests", "Running tests!", "Run the build", "Document the cache", "", "the")
	tests := []struct {
		name      string
		threshold float64
		want      [][]string
	}{
		// Nothing has cosine above 1, but the same terms are one vector.
		{"1", 1, [][]string{{"Run the tests", "Running tests!"}, {"the"}, {""}, {"Document the cache"}, {"Run the build"}}},
		{"NaN", math.NaN(), [][]string{{"Run the tests", "Running tests!"}, {"the"}, {""}, {"Document the cache"}, {"Run the build"}}},
		// Sharing a term is enough; sharing none is never enough.
		{"negative", -1, [][]string{{"Run the build", "Run the tests", "Running tests!"}, {"the"}, {""}, {"Document the cache"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := memberSets(Clusters(ls, tt.threshold)); !reflect.DeepEqual(got, tt.want) {
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
	for _, c := range Clusters(ls, DefaultThreshold) {
		got = append(got, c.Text)
	}
	// Count first, then the most recent, then the text.
	if want := []string{"d lesson", "c lesson", "a lesson", "b lesson"}; !slices.Equal(got, want) {
		t.Errorf("order = %q, want %q", got, want)
	}
}

// TestCandidatesMatchBruteForce checks the prefix-filtered search against
// comparing each group with every leader, on small vocabularies where many
// pairs sit near every threshold.
func TestCandidatesMatchBruteForce(t *testing.T) {
	words := []string{"cache", "build", "graph", "index", "parser", "deploy", "query", "merge", "retry", "schema", "token", "not", "shard"}
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 40 {
		ls := make([]Lesson, 60+r.IntN(100))
		for i := range ls {
			n := 1 + r.IntN(8)
			text := ""
			for range n {
				text += words[r.IntN(len(words)-round%6)] + " "
			}
			ls[i] = Lesson{Text: text, Date: day0.AddDate(0, 0, r.IntN(10))}
		}
		c := analyse(ls)
		vs := weigh(c, len(ls))
		order := byRecency(ls, winners(ls, c.group, len(c.groups)))
		for _, th := range []float64{-1, 0, 0.3, 0.5, 0.7, DefaultThreshold, 0.95, 0.999999} {
			got, gotLeaders := lead(vs, c.negated(), order, len(c.terms), th)
			want, wantLeaders := bruteLead(vs, c.negated(), order, th)
			if !slices.Equal(got, want) || !slices.Equal(gotLeaders, wantLeaders) {
				t.Fatalf("round %d, threshold %v: clusters %v, leaders %v; want %v, %v", round, th, got, gotLeaders, want, wantLeaders)
			}
		}
	}
}

func bruteLead(vs []vector, negated []bool, order []int, threshold float64) (cluster, leader []int) {
	cluster = make([]int, len(vs))
	for _, g := range order {
		k := slices.IndexFunc(leader, func(l int) bool { return negated[g] == negated[l] && similar(vs[g], vs[l], threshold) })
		if k < 0 {
			k = len(leader)
			leader = append(leader, g)
		}
		cluster[g] = k
	}
	return cluster, leader
}

// TestNegationNeverMerges: where "not" is a common word, TF-IDF weighs it
// little and "Do not rotate the signing keys" comes within the threshold
// of "Rotate the signing keys"; they still never share a cluster.
func TestNegationNeverMerges(t *testing.T) {
	ls := []Lesson{
		{Text: "Rotate the signing keys every quarter.", Episode: "E1", Date: day0},
		{Text: "Do not rotate the signing keys every quarter.", Episode: "E2", Date: day0.AddDate(0, 0, 1)},
		{Text: "Don't rotate signing keys each quarter", Episode: "E3", Date: day0.AddDate(0, 0, 2)},
	}
	for i := range 30 { // make "not" common
		ls = append(ls, Lesson{Text: fmt.Sprintf("Do not forget step %d", i), Episode: fmt.Sprintf("F%d", i), Date: day0})
	}
	var got []string
	for _, c := range Clusters(ls, DefaultThreshold) {
		if strings.Contains(strings.ToLower(c.Text), "rotat") {
			got = append(got, fmt.Sprintf("%s %v", c.Text, c.Episodes))
		}
	}
	want := []string{"Don't rotate signing keys each quarter [E2 E3]", "Rotate the signing keys every quarter. [E1]"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("clusters %q, want %q", got, want)
	}
}
