package search_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/search"
	"github.com/engramhq/engram/indexer/search/searchtest"
)

// TestStaticSearch: on an index whose common words have several tiers,
// StaticSearch reads a common word's later tiers only when they could
// change its best ten, and no more than its budget; when it says they
// are exact, they are the best ten of every posting. Its scores are never
// above a document's whole score, and rank its hits.
func TestStaticSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 300)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx", i)
	}
	word := func() string { // Zipf-like: a few words are in most notes
		return vocab[int(float64(len(vocab))*math.Pow(r.Float64(), 3))]
	}
	var docs []search.StaticDoc
	for i := range 3000 {
		var title, body []string
		for range 1 + r.IntN(4) {
			title = append(title, word())
		}
		for range 5 + r.IntN(40) {
			body = append(body, word())
		}
		docs = append(docs, search.StaticDoc{ID: fmt.Sprintf("N-%04d", i), Type: "episode", URL: fmt.Sprintf("/n/%d/", i), Title: strings.Join(title, " "),
			Fields: []search.StaticField{{"title", strings.Join(title, " "), 4}, {"body", strings.Join(body, " "), 1}}})
	}
	files, err := search.StaticFiles(docs)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]byte{}
	for _, f := range files {
		byPath[strings.TrimPrefix(f.Path, "api/v1/search/")] = f.Data
	}
	fetch := func(path string) ([]byte, error) { return byPath[path], nil }
	_, postings, rows := search.StaticIndex(t, docs)
	if len(postings[vocab[0]]) < 2*(search.FirstTier+search.FirstTier*search.TierGrowth) {
		t.Fatalf("the commonest word has %d postings: too few for a third tier", len(postings[vocab[0]])/2)
	}
	var queries []string
	for q := range 200 {
		var words []string
		for range 1 + q%6 {
			words = append(words, word())
		}
		queries = append(queries, strings.Join(words, " "))
	}
	// With the index's budget, then with a small one (StaticSearch
	// takes the budget from meta.json) that long queries run out of.
	meta := byPath["meta.json"]
	for _, budget := range []int{search.TierBudget, search.FirstTier * search.TierGrowth} {
		var m map[string]any
		if err := json.Unmarshal(meta, &m); err != nil {
			t.Fatal(err)
		}
		m["tier_budget"] = budget
		byPath["meta.json"], _ = json.Marshal(m)
		early, exact := staticSearches(t, fetch, queries, postings, rows, budget)
		switch {
		case early == 0:
			t.Errorf("budget %d: no query stopped before a common word's last tier", budget)
		case budget == search.TierBudget && exact < len(queries)*9/10:
			t.Errorf("budget %d: only %d of %d queries exact", budget, exact, len(queries))
		case budget < search.TierBudget && exact == len(queries):
			t.Errorf("budget %d: every query was exact: the test does not hold a query that runs out of budget", budget)
		}
		t.Logf("budget %d: of %d queries, %d stopped before a common word's last tier, %d were exact", budget, len(queries), early, exact)
	}
}

// staticSearches runs queries and checks each against every posting.
func staticSearches(t *testing.T, fetch searchtest.StaticFetch, queries []string, postings map[string][]int64, rows [][]string, budget int) (early, exact int) {
	t.Helper()
	for _, query := range queries {
		res, err := searchtest.StaticSearch(fetch, query, 10)
		if err != nil {
			t.Fatal(err)
		}
		hits, read := res.Hits, res.Read
		// Every posting, scored as the script scores: the sum over the
		// query's terms times the share of them a document has.
		terms := slices.Compact(slices.Sorted(slices.Values(search.Analyze(query))))
		sum, matched := map[int64]int64{}, map[int64]int64{}
		for _, term := range terms {
			addGapsTo(sum, matched, postings[term])
		}
		var all []int64
		for d := range sum {
			all = append(all, d)
		}
		score := func(d int64) int64 { return sum[d] * matched[d] }
		sort.Slice(all, func(a, b int) bool {
			return score(all[a]) > score(all[b]) || score(all[a]) == score(all[b]) && all[a] < all[b]
		})
		want := map[string]bool{}
		for _, d := range all[:min(10, len(all))] {
			want[rows[d][0]] = true
		}
		if len(hits) != len(want) {
			t.Fatalf("%q: %d hits, want %d", query, len(hits), len(want))
		}
		later := 0
		for _, p := range read {
			if strings.Contains(p, "-") {
				var k int
				_, _ = fmt.Sscanf(p[strings.Index(p, "-")+1:], "%d.json", &k)
				later += search.FirstTier * search.Pow(search.TierGrowth, k)
			}
		}
		if later > budget {
			t.Errorf("%q read %d postings of later tiers, over the budget of %d", query, later, budget)
		}
		if res.Exact {
			exact++
		}
		for i, h := range hits {
			if res.Exact && !want[h.ID] {
				t.Errorf("%q: hit %s is not among the best ten", query, h.ID)
			}
			if full := float64(score(int64(h.Doc))) / float64(len(terms)) / 1000; h.Score > full+1e-9 {
				t.Errorf("%q: %s scored %g, above its score %g", query, h.ID, h.Score, full)
			}
			if i > 0 && h.Score > hits[i-1].Score {
				t.Errorf("%q: hits out of order", query)
			}
		}
		if slices.ContainsFunc(terms, func(term string) bool { return len(postings[term]) > 2*search.FirstTier }) &&
			!slices.ContainsFunc(terms, func(term string) bool {
				return len(postings[term]) > 2*search.FirstTier && slices.Contains(read, search.TierPath(term, lastTier(len(postings[term])/2)))
			}) {
			early++
		}
	}
	return early, exact
}

// lastTier is the number of a term's last tier, for n postings.
func lastTier(n int) int {
	k, size, end := 0, search.FirstTier, search.FirstTier
	for end < n {
		k, size = k+1, size*search.TierGrowth
		end += size
	}
	return k
}

func addGapsTo(sum, matched map[int64]int64, flat []int64) {
	scores := map[int]int64{}
	searchtest.AddPostings(scores, flat)
	for d, sc := range scores {
		sum[int64(d)] += sc
		matched[int64(d)]++
	}
}

// TestStaticSearchBadIndex: a missing meta.json or display row is an
// error, a missing shard is no postings, and an empty index answers
// nothing.
func TestStaticSearchBadIndex(t *testing.T) {
	docs := []search.StaticDoc{{ID: "EP-1", Type: "episode", URL: "/e/1/", Title: "EP-1", Fields: []search.StaticField{{"body", "zanzibar payout", 1}}}}
	files, err := search.StaticFiles(docs)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]byte{}
	for _, f := range files {
		byPath[strings.TrimPrefix(f.Path, "api/v1/search/")] = f.Data
	}
	without := func(prefix string) searchtest.StaticFetch {
		return func(p string) ([]byte, error) {
			if strings.HasPrefix(p, prefix) {
				return nil, nil
			}
			return byPath[p], nil
		}
	}
	if res, err := searchtest.StaticSearch(without("none"), "zanzibar", 10); err != nil || len(res.Hits) != 1 || !res.Exact {
		t.Fatalf("the whole index: %+v, %v", res, err)
	}
	if _, err := searchtest.StaticSearch(without("meta.json"), "zanzibar", 10); err == nil {
		t.Error("no meta.json: no error")
	}
	if res, err := searchtest.StaticSearch(without("t/"), "zanzibar", 10); err != nil || len(res.Hits) != 0 {
		t.Errorf("no shards: %+v, %v", res, err)
	}
	if _, err := searchtest.StaticSearch(without("d/"), "zanzibar", 10); err == nil || !strings.Contains(err.Error(), "no row") {
		t.Errorf("no display rows: %v", err)
	}
	empty, err := search.StaticFiles(nil)
	if err != nil {
		t.Fatal(err)
	}
	emptyFetch := func(p string) ([]byte, error) {
		for _, f := range empty {
			if f.Path == "api/v1/search/"+p {
				return f.Data, nil
			}
		}
		return nil, nil
	}
	if res, err := searchtest.StaticSearch(emptyFetch, "zanzibar", 10); err != nil || len(res.Hits) != 0 || !res.Exact {
		t.Errorf("an empty index: %+v, %v", res, err)
	}
}
