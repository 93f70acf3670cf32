package search

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/routes"
)

// inFamily fails t unless the first of the static index's families
// (StaticSchemas, in the registry's order) that matches file is the one
// with the schema called schema.
func inFamily(t *testing.T, file, schema string) {
	t.Helper()
	for _, d := range StaticSchemas() {
		if ok, _ := path.Match(d.Path, file); ok {
			if d.Schema != schema {
				t.Errorf("%s is in the family %s (schema %s), want the schema %s", file, d.Path, d.Schema, schema)
			}
			return
		}
	}
	t.Errorf("%s is in no family of the static index", file)
}

// staticIndex builds the static index of docs and reads it back: its
// meta, every term's postings (all tiers, by document, as gaps), and the
// display rows by document.
func staticIndex(t *testing.T, docs []StaticDoc) (StaticMeta, map[string][]int64, [][]string) {
	t.Helper()
	files, err := StaticFiles(docs)
	if err != nil {
		t.Fatal(err)
	}
	var meta StaticMeta
	shards := map[string]StaticTerms{}
	tiers := map[string]map[string][]int64{}
	var rows [][]string
	for _, f := range files {
		path := strings.TrimPrefix(f.Path, routes.SearchDir)
		switch {
		case path == "meta.json":
			inFamily(t, f.Path, "search-meta")
			if err := json.Unmarshal(f.Data, &meta); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(path, "t/") && strings.Contains(path, "-"):
			inFamily(t, f.Path, "search-tier")
			var m map[string][]int64
			if err := json.Unmarshal(f.Data, &m); err != nil {
				t.Fatal(err)
			}
			tiers[path] = m
		case strings.HasPrefix(path, "t/"):
			inFamily(t, f.Path, "search-terms")
			var m StaticTerms
			if err := json.Unmarshal(f.Data, &m); err != nil {
				t.Fatal(err)
			}
			shards[path] = m
		case strings.HasPrefix(path, "d/"):
			inFamily(t, f.Path, "search-docs")
			var r [][]string
			if err := json.Unmarshal(f.Data, &r); err != nil {
				t.Fatal(err)
			}
			var n int
			if _, err := fmt.Sscanf(path, "d/%d.json", &n); err != nil {
				t.Fatal(err)
			}
			for len(rows) < (n+1)*docShard {
				rows = append(rows, nil)
			}
			copy(rows[n*docShard:], r)
		default:
			t.Errorf("unexpected file %s", f.Path)
		}
	}
	postings := map[string][]int64{}
	for path, sh := range shards {
		for term, first := range sh.Postings {
			if want := fmt.Sprintf("t/%x.json", TermShard(term, meta.TermShards)); path != want {
				t.Errorf("%q is in %s, want %s", term, path, want)
			}
			if len(first) > 2*firstTier {
				t.Errorf("%q: first tier of %d postings", term, len(first)/2)
			}
			scores := map[int64]int64{}
			least := addGaps(scores, first)
			for k, bound := range sh.More[term] {
				tier, ok := tiers[TierPath(term, k+1)][term]
				if firstTier*pow(tierGrowth, k+1) > tierBudget {
					if ok {
						t.Errorf("%q: tier %d is written, larger than any query reads", term, k+1)
					}
					continue
				}
				if !ok {
					t.Fatalf("%q: no tier %d in %s", term, k+1, TierPath(term, k+1))
				}
				if len(tier) != 2*min(firstTier*pow(tierGrowth, k+1), len(tier)/2) {
					t.Errorf("%q: tier %d of %d postings", term, k+1, len(tier)/2)
				}
				// A tier's bound is its largest score, and no score of
				// a later tier is above a score of an earlier one.
				most := int64(0)
				for i := 1; i < len(tier); i += 2 {
					most = max(most, tier[i])
				}
				if most != bound || bound > least {
					t.Errorf("%q: tier %d: bound %d, largest score %d, least of the tier before %d", term, k+1, bound, most, least)
				}
				least = addGaps(scores, tier)
			}
			var docs []int64
			for d := range scores {
				docs = append(docs, d)
			}
			slices.Sort(docs)
			prev := int64(0)
			for _, d := range docs {
				postings[term] = append(postings[term], d-prev, scores[d])
				prev = d
			}
		}
	}
	for len(rows) > 0 && rows[len(rows)-1] == nil {
		rows = rows[:len(rows)-1]
	}
	return meta, postings, rows
}

// addGaps adds postings stored as gaps to scores and returns the least
// score among them.
func addGaps(scores map[int64]int64, flat []int64) int64 {
	doc, least := int64(0), int64(math.MaxInt64)
	for i := 0; i+1 < len(flat); i += 2 {
		doc += flat[i]
		if _, dup := scores[doc]; dup {
			panic(fmt.Sprintf("document %d is in two tiers", doc))
		}
		scores[doc] = flat[i+1]
		least = min(least, flat[i+1])
	}
	return least
}

func pow(b, e int) int {
	r := 1
	for range e {
		r *= b
	}
	return r
}

func TestStaticFiles(t *testing.T) {
	var docs []StaticDoc
	for i := range 300 {
		text := fmt.Sprintf("retry the payout %d times with backoff", i%7)
		if i == 42 {
			text += " zanzibar"
		}
		docs = append(docs, StaticDoc{ID: fmt.Sprintf("EP-%03d", i), Type: "episode", Outcome: "success", URL: fmt.Sprintf("/e/%d/", i),
			Title: fmt.Sprintf("EP-%03d", i), Snippet: text, Fields: []StaticField{{"body", text, 1}}})
	}
	docs = append(docs, StaticDoc{ID: "EMPTY", Type: "note", Title: "EMPTY"}) // a note with no text
	meta, postings, rows := staticIndex(t, docs)
	if meta.Docs != 301 || len(rows) != 301 || meta.DocShard != docShard || meta.TermShards&(meta.TermShards-1) != 0 {
		t.Fatalf("meta %+v, %d rows", meta, len(rows))
	}
	// Documents are numbered by id; a planted word's only posting is its
	// document.
	if p := postings["zanzibar"]; len(p) != 2 || rows[p[0]][0] != "EP-042" {
		t.Errorf("zanzibar postings %v", p)
	}
	// A common word has a posting for every document that has it, by
	// document, stored as gaps.
	if p := postings["payout"]; len(p) != 2*300 {
		t.Errorf("payout has %d postings, want 300", len(p)/2)
	} else {
		doc := int64(0)
		for i := 0; i < len(p); i += 2 {
			if p[i] < 0 || i > 0 && p[i] == 0 {
				t.Fatalf("gap %d at %d", p[i], i)
			}
			doc += p[i]
		}
		if rows[doc][0] != "EP-299" {
			t.Errorf("last payout document %s", rows[doc][0])
		}
	}
	if _, ok := postings["the"]; ok {
		t.Error("a stop word has postings")
	}
	if !slices.Contains(meta.StopWords, "the") || slices.Contains(meta.StopWords, "payout") {
		t.Error("stop words")
	}
	// Deterministic, whatever the order of the input.
	a, _ := StaticFiles(docs)
	slices.Reverse(docs)
	b, _ := StaticFiles(docs)
	if len(a) != len(b) {
		t.Fatal("file count differs")
	}
	for i := range a {
		if a[i].Path != b[i].Path || string(a[i].Data) != string(b[i].Data) {
			t.Fatalf("%s differs with the input reversed", a[i].Path)
		}
	}
}

// TestStaticFilesTies: documents whose scores tie exactly must tie in
// every build. Three hundred equal documents, each with a common word in
// every field, make one term's first tier choose 256 of 300 by score,
// then by document; a score summed over the fields in a map's order
// differed in its last bit from one document to the next, and each
// build chose other documents (issue 29: three builds of one commit,
// three different t/2e.json).
func TestStaticFilesTies(t *testing.T) {
	var docs []StaticDoc
	for i := range 300 {
		docs = append(docs, StaticDoc{ID: fmt.Sprintf("EP-%03d", i), Fields: []StaticField{
			{"title", "payout retry", 4}, {"task", "payout of the retry again and again", 3},
			{"lessons", "payout lessons learned here, in more words", 2},
			{"body", "payout body text, longer than the others by far, in many words", 1}}})
	}
	first, err := StaticFiles(docs)
	if err != nil {
		t.Fatal(err)
	}
	for run := range 20 {
		again, _ := StaticFiles(docs)
		for i := range first {
			if first[i].Path != again[i].Path || string(first[i].Data) != string(again[i].Data) {
				t.Fatalf("run %d: %s differs from the first run's", run, first[i].Path)
			}
		}
	}
	// The tie is broken by document: the first tier is the first 256.
	meta, _, _ := staticIndex(t, docs)
	var shard StaticTerms
	for _, f := range first {
		if f.Path == fmt.Sprintf("api/v1/search/t/%x.json", TermShard("payout", meta.TermShards)) {
			if err := json.Unmarshal(f.Data, &shard); err != nil {
				t.Fatal(err)
			}
		}
	}
	p := shard.Postings["payout"]
	doc := int64(0)
	for i := 0; i < len(p); i += 2 {
		doc += p[i]
	}
	if len(p) != 2*firstTier || doc != firstTier-1 {
		t.Errorf("payout's first tier: %d postings ending at document %d, want %d ending at %d", len(p)/2, doc, firstTier, firstTier-1)
	}
}

func TestStaticFilesEmpty(t *testing.T) {
	meta, postings, rows := staticIndex(t, nil)
	if meta.Docs != 0 || len(postings) != 0 || len(rows) != 0 || meta.TermShards != 1 {
		t.Errorf("meta %+v postings %d rows %d", meta, len(postings), len(rows))
	}
}

// TestTermShard pins FNV-1a: the script computes the same numbers.
func TestTermShard(t *testing.T) {
	for term, want := range map[string]int{"": 0x811c9dc5 & 255, "a": 0xe40c292c & 255} {
		if got := TermShard(term, 256); got != want {
			t.Errorf("TermShard(%q) = %x, want %x", term, got, want)
		}
	}
}

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
	var docs []StaticDoc
	for i := range 3000 {
		var title, body []string
		for range 1 + r.IntN(4) {
			title = append(title, word())
		}
		for range 5 + r.IntN(40) {
			body = append(body, word())
		}
		docs = append(docs, StaticDoc{ID: fmt.Sprintf("N-%04d", i), Type: "episode", URL: fmt.Sprintf("/n/%d/", i), Title: strings.Join(title, " "),
			Fields: []StaticField{{"title", strings.Join(title, " "), 4}, {"body", strings.Join(body, " "), 1}}})
	}
	files, err := StaticFiles(docs)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]byte{}
	for _, f := range files {
		byPath[strings.TrimPrefix(f.Path, "api/v1/search/")] = f.Data
	}
	fetch := func(path string) ([]byte, error) { return byPath[path], nil }
	_, postings, rows := staticIndex(t, docs)
	if len(postings[vocab[0]]) < 2*(firstTier+firstTier*tierGrowth) {
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
	for _, budget := range []int{tierBudget, firstTier * tierGrowth} {
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
		case budget == tierBudget && exact < len(queries)*9/10:
			t.Errorf("budget %d: only %d of %d queries exact", budget, exact, len(queries))
		case budget < tierBudget && exact == len(queries):
			t.Errorf("budget %d: every query was exact: the test does not hold a query that runs out of budget", budget)
		}
		t.Logf("budget %d: of %d queries, %d stopped before a common word's last tier, %d were exact", budget, len(queries), early, exact)
	}
}

// staticSearches runs queries and checks each against every posting.
func staticSearches(t *testing.T, fetch StaticFetch, queries []string, postings map[string][]int64, rows [][]string, budget int) (early, exact int) {
	t.Helper()
	for _, query := range queries {
		res, err := StaticSearch(fetch, query, 10)
		if err != nil {
			t.Fatal(err)
		}
		hits, read := res.Hits, res.Read
		// Every posting, scored as the script scores: the sum over the
		// query's terms times the share of them a document has.
		terms := slices.Compact(slices.Sorted(slices.Values(Analyze(query))))
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
				later += firstTier * pow(tierGrowth, k)
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
		if slices.ContainsFunc(terms, func(term string) bool { return len(postings[term]) > 2*firstTier }) &&
			!slices.ContainsFunc(terms, func(term string) bool {
				return len(postings[term]) > 2*firstTier && slices.Contains(read, TierPath(term, lastTier(len(postings[term])/2)))
			}) {
			early++
		}
	}
	return early, exact
}

// lastTier is the number of a term's last tier, for n postings.
func lastTier(n int) int {
	k, size, end := 0, firstTier, firstTier
	for end < n {
		k, size = k+1, size*tierGrowth
		end += size
	}
	return k
}

func addGapsTo(sum, matched map[int64]int64, flat []int64) {
	scores := map[int]int64{}
	addPostings(scores, flat)
	for d, sc := range scores {
		sum[int64(d)] += sc
		matched[int64(d)]++
	}
}

// TestStaticSearchBadIndex: a missing meta.json or display row is an
// error, a missing shard is no postings, and an empty index answers
// nothing.
func TestStaticSearchBadIndex(t *testing.T) {
	docs := []StaticDoc{{ID: "EP-1", Type: "episode", URL: "/e/1/", Title: "EP-1", Fields: []StaticField{{"body", "zanzibar payout", 1}}}}
	files, err := StaticFiles(docs)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]byte{}
	for _, f := range files {
		byPath[strings.TrimPrefix(f.Path, "api/v1/search/")] = f.Data
	}
	without := func(prefix string) StaticFetch {
		return func(p string) ([]byte, error) {
			if strings.HasPrefix(p, prefix) {
				return nil, nil
			}
			return byPath[p], nil
		}
	}
	if res, err := StaticSearch(without("none"), "zanzibar", 10); err != nil || len(res.Hits) != 1 || !res.Exact {
		t.Fatalf("the whole index: %+v, %v", res, err)
	}
	if _, err := StaticSearch(without("meta.json"), "zanzibar", 10); err == nil {
		t.Error("no meta.json: no error")
	}
	if res, err := StaticSearch(without("t/"), "zanzibar", 10); err != nil || len(res.Hits) != 0 {
		t.Errorf("no shards: %+v, %v", res, err)
	}
	if _, err := StaticSearch(without("d/"), "zanzibar", 10); err == nil || !strings.Contains(err.Error(), "no row") {
		t.Errorf("no display rows: %v", err)
	}
	empty, err := StaticFiles(nil)
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
	if res, err := StaticSearch(emptyFetch, "zanzibar", 10); err != nil || len(res.Hits) != 0 || !res.Exact {
		t.Errorf("an empty index: %+v, %v", res, err)
	}
}
