package indexer_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/search"
)

// judgedPair is one candidate of a judged list: an episode offered as
// similar to the query before the floor, judged relevant or not by hand.
type judgedPair struct {
	query, candidate string
	relevant         bool
}

// readJudged reads testdata/similar_judged.txt: the judged lists of each
// snapshot, in file order.
func readJudged(t *testing.T) map[string][]judgedPair {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "similar_judged.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]judgedPair{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 || f[3] != "R" && f[3] != "N" {
			t.Fatalf("similar_judged.txt: bad line %q", line)
		}
		out[f[0]] = append(out[f[0]], judgedPair{f[1], f[2], f[3] == "R"})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// judgedScore is precision@5 of a set of lists over the judged pairs,
// with how many relevant pairs they keep, and how many lists shrink
// below five or empty.
type judgedScore struct {
	kept, relevant, shrunk, empty int
}

func (s judgedScore) precision() float64 { return float64(s.relevant) / float64(max(s.kept, 1)) }

func (s judgedScore) String() string {
	return fmt.Sprintf("precision@5 %.3f (%d of %d), %d lists shorter than 5, %d empty", s.precision(), s.relevant, s.kept, s.shrunk, s.empty)
}

// TestSimilarJudged holds the score floor (search.SimilarFloor) to the
// lists judged by hand on two real snapshots: the judged lists are still
// what the model ranks first (or the judgments are stale: judge the new
// lists again), the published lists are the judged ones cut at the
// floor, precision@5 rises on each snapshot, and the floor drops no
// judged relevant episode. The floor is one number for both snapshots.
func TestSimilarJudged(t *testing.T) {
	dirs := map[string]string{
		"316ed2f2d41c": "../../shared/corpus/real/ai-agents@316ed2f2d41c/.agents/memory",
		"newest":       "../../shared/corpus/real/ai-agents/.agents/memory",
	}
	judged := readJudged(t)
	for _, name := range []string{"316ed2f2d41c", "newest"} {
		t.Run(name, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(dirs[name], "episodes")); err != nil {
				t.Skipf("the real-data corpus (%s) is not here; skipping", dirs[name])
			}
			sim := search.NewSimilarity(search.DocsFromSite(loadSite(t, dirs[name])))
			published := sim.All(indexer.SimilarEpisodes)
			before, after := judgedScore{}, judgedScore{}
			for _, q := range queries(judged[name]) {
				var pairs []judgedPair
				for _, p := range judged[name] {
					if p.query == q {
						pairs = append(pairs, p)
					}
				}
				checkJudgedList(t, sim, q, pairs, published[q], &before, &after)
			}
			short, none := 0, 0
			for _, ms := range published {
				short += min(len(ms), 1) * boolInt(len(ms) < indexer.SimilarEpisodes)
				none += boolInt(len(ms) == 0)
			}
			t.Logf("all %d episodes: %d list fewer than %d, %d none", len(published), short, indexer.SimilarEpisodes, none)
			t.Logf("before the floor: %v", before)
			t.Logf("at floor %.2f:    %v", search.SimilarFloor, after)
			if after.precision() <= before.precision() {
				t.Errorf("the floor does not raise precision@5: %v, before %v", after, before)
			}
			if after.relevant != before.relevant {
				t.Errorf("the floor drops %d judged relevant episodes", before.relevant-after.relevant)
			}
		})
	}
}

// checkJudgedList scores one judged list before and after the floor, and
// checks that the list published is the judged one cut at the floor.
func checkJudgedList(t *testing.T, sim *search.Similarity, q string, pairs []judgedPair, published []search.Match, before, after *judgedScore) {
	t.Helper()
	var want []string
	for _, p := range pairs {
		score, ok := sim.Score(q, p.candidate)
		if !ok {
			t.Errorf("%s or %s is not an episode: the judgments are stale, judge the lists again", q, p.candidate)
			continue
		}
		count(before, p.relevant)
		if score >= search.SimilarFloor {
			count(after, p.relevant)
			want = append(want, p.candidate)
		}
	}
	var got []string
	for _, m := range published {
		got = append(got, m.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s lists %q, judged %q above the floor: the judgments are stale, judge the lists again", q, got, want)
	}
	if len(want) < len(pairs) {
		after.shrunk++
	}
	if len(want) == 0 {
		after.empty++
	}
}

func count(s *judgedScore, relevant bool) {
	s.kept++
	if relevant {
		s.relevant++
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// queries are the judged episodes, in file order.
func queries(pairs []judgedPair) []string {
	var out []string
	for _, p := range pairs {
		if !slices.Contains(out, p.query) {
			out = append(out, p.query)
		}
	}
	return out
}
