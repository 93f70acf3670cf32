package search

import (
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/routes"
)

// The static index of the published site (issue 5): the site has no
// server, so the browser scores queries itself from precomputed postings
// and fetches only what a query needs.
//
//	api/v1/search/meta.json       counts, shard counts, the stop words
//	api/v1/search/t/<h>.json      the terms whose hash is h (StaticTerms):
//	                              {"p": {"term": [gap, score, gap, score, ...]},
//	                               "more": {"term": [bound1, bound2, ...]}}
//	                              (documents ascending, each the gap from
//	                              the previous one; scores × 1000)
//	api/v1/search/t/<f>-<k>.json  tier k of the terms whose full FNV-1a hash
//	                              is f (8 hex digits): {"term": [gap, score, ...]}
//	api/v1/search/d/<n>.json      hit display for docs n×docShard ... :
//	                              [[id, type, outcome, url, title, snippet], ...]
//
// A term's postings are in tiers by score, best first: the first
// firstTier in its shard file, then tiers tierGrowth times larger, each
// in a file of its own, with the largest score of each listed in "more".
// A query reads the first tier of each of its terms and further tiers
// only while a document outside its best ten could still overtake one
// inside, up to a budget of postings (StaticSearch, and the script that
// mirrors it): a common word's postings grow with the corpus, and a cold
// query must not.
//
// Terms are made by Analyze, the analysis of the bleve index; the script
// (templates/static/js/search.js) repeats it in the browser: Unicode word
// segmentation, possessive, lower case, the same stop words (shipped in
// meta.json), and the Porter stemmer. Scores follow the bleve index's
// (BM25 per field, the same boosts, the same coordination), so both rank
// alike. Every posting a query can read is kept: all but those of tiers
// larger than the budget, which only a term in more than 21,760
// documents has.

// StaticVersion is the version of the static index's format.
const staticVersion = 2

// BM25 parameters and field weights of the static index.
const (
	bm25K1   = 1.2
	bm25B    = 0.75
	docShard = 8
	// firstTier is the size of a term's first tier of postings, in its
	// shard file; each further tier is tierGrowth times the one before.
	// A query reads at most tierBudget postings of later tiers.
	firstTier  = 256
	tierGrowth = 4
	tierBudget = 16 * firstTier * tierGrowth
	// termsPerShard is the aim for the number of terms per postings file.
	termsPerShard = 24
	snippetRunes  = 160
)

// StaticField is a field's text and its boost: as in the bleve index,
// each field has its own BM25 statistics (document frequencies, average
// length), and a term's score in a document is the boosted sum over the
// fields that have it.
type StaticField struct {
	Name   string
	Text   string
	Weight float64
}

// StaticDoc is what the static index knows of a note. Title is what a
// result shows first, the note's headline; the id follows it.
type StaticDoc struct {
	ID, Type, Outcome, URL, Title, Snippet string
	Fields                                 []StaticField
}

// StaticMeta is api/v1/search/meta.json.
type StaticMeta struct {
	Version    int `json:"version"`
	Docs       int `json:"docs"`
	TermShards int `json:"term_shards"`
	DocShard   int `json:"doc_shard"`
	// FirstTier is the number of postings in a term's first tier, in its
	// shard file; tier k has FirstTier × TierGrowth^k (the last fewer).
	FirstTier  int `json:"first_tier"`
	TierGrowth int `json:"tier_growth"`
	// TierBudget is how many postings of later tiers a query reads at
	// most, whether or not its best ten are settled.
	TierBudget int      `json:"tier_budget"`
	StopWords  []string `json:"stop_words"`
}

// StaticTerms is a shard file, api/v1/search/t/<h>.json: the first tier
// of the postings of each of its terms, and for a term with more tiers,
// the largest score in each of them (the first of More[term] is tier 1's,
// in TierPath(term, 1)).
type StaticTerms struct {
	Postings map[string][]int64 `json:"p"`
	More     map[string][]int64 `json:"more,omitempty"`
}

// posting is a document's score for a term, as StaticFiles builds them.
type posting struct {
	doc   int
	score float64
}

// StaticSchemas are the families of the static index's files, for the
// registry of what a build publishes (export.Docs names where): a tier
// (t/<prefix>-<n>.json) is matched before the terms files.
func StaticSchemas() []export.Doc {
	return []export.Doc{
		{Path: routes.Search("meta.json"), Schema: "search-meta", Title: "engram static search index: counts and stop words", Type: StaticMeta{}},
		{Path: routes.Search("t/*-*.json"), Schema: "search-tier", Title: "engram static search index: a later tier of postings [doc gap, score×1000, ...] by term", Type: map[string][]int64{}},
		{Path: routes.Search("t/*.json"), Schema: "search-terms", Title: "engram static search index: a shard's terms, their first tier of postings [doc gap, score×1000, ...] and the largest score of each later tier", Type: StaticTerms{}},
		{Path: routes.Search("d/*.json"), Schema: "search-docs", Title: "engram static search index: [id, type, outcome, url, title, snippet] by document", Type: [][]string{}},
	}
}

// StaticFiles builds the static index of docs. The same documents, in
// any order, give the same bytes: every float is summed in one order
// (fields by name), and every sort has a tie-breaker.
func StaticFiles(docs []StaticDoc) ([]export.File, error) {
	docs = slices.Clone(docs)
	slices.SortStableFunc(docs, func(a, b StaticDoc) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.URL, b.URL), cmp.Compare(a.Type, b.Type))
	})
	postings := staticPostings(docs)
	shards := 1
	for shards*termsPerShard < len(postings) && shards < 4096 {
		shards *= 2
	}
	byShard, tierFiles := staticTiers(postings, shards)
	var files []export.File
	add := func(path string, v any) error {
		data, err := json.Marshal(v) // compact: every byte is downloaded
		if err != nil {
			return fmt.Errorf("search index %s: %w", path, err)
		}
		files = append(files, export.File{Path: routes.Search(path), Data: append(data, '\n')})
		return nil
	}
	for h, m := range byShard {
		if m == nil {
			continue // the script treats a missing shard as no postings
		}
		if err := add(fmt.Sprintf("t/%x.json", h), m); err != nil {
			return nil, err
		}
	}
	for path, m := range tierFiles {
		if err := add(path, m); err != nil {
			return nil, err
		}
	}
	for s := 0; s*docShard < len(docs); s++ {
		var rows [][]string
		for _, d := range docs[s*docShard : min(len(docs), (s+1)*docShard)] {
			rows = append(rows, []string{d.ID, d.Type, d.Outcome, d.URL, d.Title, snippet(d.Snippet)})
		}
		if err := add(fmt.Sprintf("d/%d.json", s), rows); err != nil {
			return nil, err
		}
	}
	meta := StaticMeta{Version: staticVersion, Docs: len(docs), TermShards: shards, DocShard: docShard,
		FirstTier: firstTier, TierGrowth: tierGrowth, TierBudget: tierBudget, StopWords: stopWordList()}
	if err := add("meta.json", meta); err != nil {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// fieldStats are a field's BM25 statistics over all documents.
type fieldStats struct {
	df     map[string]int
	length float64
	weight float64
}

// docTerms is one document's term counts and length, per field.
type docTerms struct {
	counts map[string]map[string]float64 // field -> term -> count
	length map[string]float64
	fields []string // the names of counts, sorted
}

// staticPostings is every term's postings: each document that has it,
// with its score. As bleve scores a term query under BM25: idf ×
// √tf·k1 / (√tf + k1·norm), times the query weight boost × idf (its
// query norm is the same for every document, so it is left out); a term
// matched in m of the text fields has the sum of those, times m / fields
// (the coordination of the disjunction over fields). The sum runs over
// the fields in the order of their names: floating-point addition is not
// associative, and documents whose scores tie must tie exactly, or the
// order of a map would choose which of them makes a term's first tier.
func staticPostings(docs []StaticDoc) map[string][]posting {
	fields := map[string]*fieldStats{}
	terms := make([]docTerms, len(docs))
	for i, d := range docs {
		terms[i] = countTerms(d, fields)
	}
	n := float64(len(docs))
	postings := map[string][]posting{}
	for i, dt := range terms {
		score := map[string]float64{}
		matched := map[string]int{}
		for _, name := range dt.fields {
			st := fields[name]
			avg := st.length / math.Max(n, 1)
			norm := 1 - bm25B + bm25B*dt.length[name]/math.Max(avg, 1e-9)
			for t, f := range dt.counts[name] {
				df := float64(st.df[t])
				idf := math.Log(1 + (n-df+0.5)/(df+0.5))
				root := math.Sqrt(f)
				score[t] += st.weight * idf * idf * root * bm25K1 / (root + bm25K1*norm)
				matched[t]++
			}
		}
		for t, sc := range score {
			postings[t] = append(postings[t], posting{i, sc * float64(matched[t]) / float64(len(textFields))})
		}
	}
	return postings
}

// countTerms counts a document's terms per field, and adds them to the
// fields' statistics.
func countTerms(d StaticDoc, fields map[string]*fieldStats) docTerms {
	dt := docTerms{counts: map[string]map[string]float64{}, length: map[string]float64{}}
	for _, f := range d.Fields {
		st := fields[f.Name]
		if st == nil {
			st = &fieldStats{df: map[string]int{}}
			fields[f.Name] = st
		}
		st.weight = f.Weight
		counts := dt.counts[f.Name]
		if counts == nil {
			counts = map[string]float64{}
			dt.counts[f.Name] = counts
			dt.fields = append(dt.fields, f.Name)
		}
		for _, t := range Analyze(f.Text) {
			counts[t]++
			dt.length[f.Name]++
			st.length++
		}
	}
	slices.Sort(dt.fields)
	for name, counts := range dt.counts {
		for t := range counts {
			fields[name].df[t]++
		}
	}
	return dt
}

// staticTiers cuts each term's postings into tiers by score, best
// first (ties by document): the first in its shard file, the others in
// files of their own, by path.
func staticTiers(postings map[string][]posting, shards int) ([]*StaticTerms, map[string]map[string][]int64) {
	byShard := make([]*StaticTerms, shards)
	tierFiles := map[string]map[string][]int64{}
	for t, ps := range postings {
		slices.SortFunc(ps, func(a, b posting) int {
			return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.doc, b.doc))
		})
		h := TermShard(t, shards)
		if byShard[h] == nil {
			byShard[h] = &StaticTerms{Postings: map[string][]int64{}}
		}
		for k, size, start := 0, firstTier, 0; start < len(ps); k, size = k+1, size*tierGrowth {
			tier := ps[start:min(len(ps), start+size)]
			start += len(tier)
			flat := flatPostings(tier)
			if k == 0 {
				byShard[h].Postings[t] = flat
				continue
			}
			if byShard[h].More == nil {
				byShard[h].More = map[string][]int64{}
			}
			byShard[h].More[t] = append(byShard[h].More[t], staticScore(tier[0].score))
			if size > tierBudget {
				// No query reads a tier larger than its budget: its
				// bound is listed, so that a query knows its best
				// ten are not certain, and its postings are not.
				continue
			}
			path := TierPath(t, k)
			if tierFiles[path] == nil {
				tierFiles[path] = map[string][]int64{}
			}
			tierFiles[path][t] = flat
		}
	}
	return byShard, tierFiles
}

// flatPostings is a tier's postings by document, each number the gap
// from the one before: short numbers for the long lists of common words.
func flatPostings(tier []posting) []int64 {
	ps := append([]posting{}, tier...)
	sort.Slice(ps, func(a, b int) bool { return ps[a].doc < ps[b].doc })
	flat := make([]int64, 0, 2*len(ps))
	prev := 0
	for _, p := range ps {
		flat = append(flat, int64(p.doc-prev), staticScore(p.score))
		prev = p.doc
	}
	return flat
}

// staticScore is a score as the static index stores it: × 1000, rounded.
func staticScore(s float64) int64 { return int64(math.Round(s * 1000)) }

// TierPath is the file of tier k (from 1) of a term's postings, under
// api/v1/search/: named by the term's whole FNV-1a hash, so that a query
// fetches its own term's tier and (rarely) a term with the same hash.
func TierPath(term string, k int) string {
	return fmt.Sprintf("t/%08x-%d.json", fnv1a(term), k)
}

// TermShard is the postings file of a term: FNV-1a (32 bits) of its UTF-8
// bytes, modulo the shard count (a power of two). The script computes the
// same.
func TermShard(term string, shards int) int {
	return int(fnv1a(term) & uint32(shards-1))
}

func fnv1a(term string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(term))
	return h.Sum32()
}

func snippet(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > snippetRunes {
		return strings.TrimSpace(string(r[:snippetRunes-1])) + "…"
	}
	return s
}

// stopWordList is bleve's English stop list, sorted: the script drops the
// same words.
func stopWordList() []string {
	m := analysis.NewTokenMap()
	if err := m.LoadBytes(en.EnglishStopWords); err != nil {
		panic("search: bleve's English stop words: " + err.Error())
	}
	out := make([]string, 0, len(m))
	for w := range m {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// StaticDocs makes the static index's documents from the same documents
// as the bleve index (DocsFromSite), with the same text fields and boosts,
// so that both rank alike.
func StaticDocs(docs []Doc) []StaticDoc {
	out := make([]StaticDoc, 0, len(docs))
	for _, d := range docs {
		// A result shows the note's headline, then what it does not
		// already say: an episode's whole task, else the start of the
		// prose. A pattern's trigger and action are its headline.
		snip := export.PlainText(d.Task)
		if d.Type != KindEpisode || snip == d.Headline {
			snip = d.Summary
		}
		sd := StaticDoc{ID: d.ID, Type: d.Type, Outcome: d.Outcome, URL: d.URL, Title: d.Headline, Snippet: snip}
		for _, f := range textFields {
			sd.Fields = append(sd.Fields, StaticField{Name: f.name, Text: fieldText(d, f.name), Weight: f.boost})
		}
		out = append(out, sd)
	}
	return out
}

func fieldText(d Doc, name string) string {
	switch name {
	case "title":
		return d.Title
	case "task":
		return d.Task
	case "lessons":
		return d.Lessons
	}
	return d.Body
}
