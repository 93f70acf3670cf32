package search

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
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
