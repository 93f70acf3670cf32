package search

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search/query"
)

// A query is user text, never bleve's query syntax: it goes through the
// analyzer the index used, and each of its terms becomes a clause that
// matches the term in any text field, boosted by field. So `+-&|!(){}[]^"~*?:\/`
// are punctuation like any other, and nothing in a query can change its
// structure.
//
// A document matches when it has at least one clause. BM25 scores the
// terms; bleve multiplies each disjunction by its coordination factor
// (clauses matched / clauses), so a document with more of the query's
// words ranks higher.
//
// Chinese and Japanese are not split into words: the analyzer makes each
// Han or Hiragana character a term (a Katakana run is one term). A run of
// such characters in the query is one clause that requires every
// character of the run (each in any field), not a phrase: without it,
// a query for 支付失败 would match every note that has 失, and a common
// character would match almost every note in the language. The characters
// need not be adjacent in the note; the index keeps no positions.

// Caps on a query. Text past MaxQueryBytes is ignored (a 10 KB query is
// read up to here, cut at a character boundary); past maxQueryClauses
// distinct clauses, the rest are ignored.
const (
	maxQueryBytes   = 4096
	maxQueryClauses = 32
)

// field is a text field and its boost.
type field struct {
	name  string
	boost float64
}

// textFields are the fields a query searches: a term in the title counts
// four times one in the body.
var textFields = [...]field{{"title", 4}, {"task", 3}, {"lessons", 2}, {"body", 1}}

// Hit is one search result.
type Hit struct {
	ID    string  `json:"id"`
	Type  string  `json:"type"`
	Score float64 `json:"score"`
	URL   string  `json:"url"`
	Brief
}

// Search returns the best limit documents for the query, of kind typ
// (episode, pattern or note; "" for all): by score, then by id. A query
// without terms (empty, only stop words or punctuation) has no hits.
func (x *Index) Search(q, typ string, limit int) ([]Hit, error) {
	switch typ {
	case "", KindEpisode, KindPattern, KindNote:
	default:
		return nil, fmt.Errorf("search: unknown type %q (want episode, pattern or note)", typ)
	}
	clauses := queryClauses(q)
	if len(clauses) == 0 || limit <= 0 {
		return []Hit{}, nil
	}
	var bq query.Query = disjunction(clauses)
	if typ != "" {
		kq := query.NewTermQuery(typ)
		kq.SetField("kind")
		b := query.NewBooleanQuery([]query.Query{bq}, nil, nil)
		b.AddFilter(kq)
		bq = b
	}
	req := bleve.NewSearchRequestOptions(bq, limit, 0, false)
	req.Fields = hitFields
	req.SortBy([]string{"-_score", "_id"})
	res, err := x.idx.Search(req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	hits := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hits = append(hits, hit(h.ID, h.Score, h.Fields))
	}
	return hits, nil
}

// queryClauses returns the clauses of a query, in order, without repeats: each
// a term, or the characters of a Chinese or Japanese run, every one of
// which is required.
func queryClauses(q string) [][]string {
	stream := english().Analyze([]byte(capText(q, maxQueryBytes)))
	var out [][]string
	seen := map[string]bool{}
	add := func(c []string) {
		if k := strings.Join(c, "\x00"); !seen[k] && len(out) < maxQueryClauses {
			seen[k] = true
			out = append(out, c)
		}
	}
	for i := 0; i < len(stream); {
		j := i + 1
		if stream[i].Type == analysis.Ideographic {
			for j < len(stream) && stream[j].Type == analysis.Ideographic && stream[j].Start == stream[j-1].End {
				j++
			}
		}
		run := make([]string, 0, j-i)
		for _, t := range stream[i:j] {
			run = append(run, string(t.Term))
		}
		add(dedupe(run))
		i = j
	}
	return out
}

func dedupe(ts []string) []string {
	out := ts[:0]
	for _, t := range ts {
		if !contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func contains(ts []string, t string) bool {
	for _, s := range ts {
		if s == t {
			return true
		}
	}
	return false
}

// disjunction is the query of the clauses: a document needs one.
func disjunction(clauses [][]string) query.Query {
	qs := make([]query.Query, 0, len(clauses))
	for _, c := range clauses {
		if len(c) == 1 {
			qs = append(qs, anyField(c[0]))
			continue
		}
		all := make([]query.Query, 0, len(c))
		for _, t := range c {
			all = append(all, anyField(t))
		}
		qs = append(qs, query.NewConjunctionQuery(all))
	}
	return query.NewDisjunctionQuery(qs)
}

// anyField matches an analyzed term in any text field. Term queries are
// not analyzed again.
func anyField(term string) query.Query {
	qs := make([]query.Query, 0, len(textFields))
	for _, f := range textFields {
		tq := query.NewTermQuery(term)
		tq.SetField(f.name)
		tq.SetBoost(f.boost)
		qs = append(qs, tq)
	}
	return query.NewDisjunctionQuery(qs)
}

// capText cuts s to at most n bytes, at a character boundary.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// lowerTag is a tag as the index keeps it: lower case, without "#".
func lowerTag(t string) string { return strings.ToLower(strings.TrimPrefix(t, "#")) }

// Lookup returns the documents of ids that the index has, as hits of
// score 0, by id.
func (x *Index) Lookup(ids []string) (map[string]Hit, error) {
	out := map[string]Hit{}
	if len(ids) == 0 {
		return out, nil
	}
	req := bleve.NewSearchRequestOptions(query.NewDocIDQuery(ids), len(ids), 0, false)
	req.Fields = hitFields
	res, err := x.idx.Search(req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	for _, h := range res.Hits {
		out[h.ID] = hit(h.ID, 0, h.Fields)
	}
	return out, nil
}

// hitFields are the stored fields a hit is made of.
var hitFields = []string{"type", "url", "outcome", "headline", "snippet", "day"}

func hit(id string, score float64, fields map[string]any) Hit {
	str := func(name string) string { s, _ := fields[name].(string); return s }
	return Hit{ID: id, Type: str("type"), Score: score, URL: str("url"),
		Brief: Brief{Headline: str("headline"), Outcome: str("outcome"), Date: str("day"), Snippet: str("snippet")}}
}
