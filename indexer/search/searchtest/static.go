// Package searchtest holds StaticSearch, the Go reference of the site's
// search script, which only tests and benchmarks run: search's, the
// site's browser test that compares the script with it, and the
// download benchmark of the static index.
package searchtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"unicode/utf16"

	"github.com/engramhq/engram/indexer/search"
)

// StaticHit is a hit of StaticSearch: a row of a display file and the
// document's score as far as the query read its postings.
type StaticHit struct {
	Doc                                    int
	ID, Type, Outcome, URL, Title, Snippet string
	Score                                  float64
}

// StaticResult is what StaticSearch found, and how.
type StaticResult struct {
	Hits []StaticHit
	// Read is the files the query read, in order.
	Read []string
	// Exact: the hits are the best of the whole index (the query stopped
	// within its budget).
	Exact bool
}

// StaticFetch reads a file of the static index by its path under
// api/v1/search/; a file that is not there is nil, with no error, as a
// 404 is to the script.
type StaticFetch func(path string) ([]byte, error)

// maxQueryUnits and maxQueryTerms bound a query, as the script does: its
// first 1,000 UTF-16 code units, and its first 32 distinct terms.
const (
	maxQueryUnits = 1000
	maxQueryTerms = 32
)

// StaticSearch answers a query from the static index as the site's script
// (templates/static/js/search.js) does, step for step: it is the
// reference the script is tested against, and what the benchmarks
// replay.
//
// A document's score is the sum of its terms' scores times the share of
// the query's terms it has (the bleve index's disjunction). The first
// tier of every term is read; then, while a document outside the best
// limit could still score above the last of them (its bound: what it has,
// plus each unread term's next tier's largest score, with the share
// those would add), the next tier of the term whose bound is largest.
// Later tiers are read up to the index's budget of postings (meta.json's
// tier_budget, counting a tier as full). The hits are the best limit
// documents of the whole index when the query stops before the budget
// (a document outside them is then known to score less), else the best
// by what was read; either way ranked by what was read.
func StaticSearch(fetch StaticFetch, query string, limit int) (StaticResult, error) {
	var res StaticResult
	get := func(path string, v any) (bool, error) {
		res.Read = append(res.Read, path)
		data, err := fetch(path)
		if err != nil || data == nil {
			return false, err
		}
		if err := json.Unmarshal(data, v); err != nil {
			return false, fmt.Errorf("search/%s: %w", path, err)
		}
		return true, nil
	}
	var meta search.StaticMeta
	if ok, err := get("meta.json", &meta); !ok {
		return res, fmt.Errorf("search/meta.json: %w", orMissing(err))
	}
	if u := utf16.Encode([]rune(query)); len(u) > maxQueryUnits {
		query = string(utf16.Decode(u[:maxQueryUnits]))
	}
	var terms []string
	for _, t := range search.Analyze(query) {
		if !slices.Contains(terms, t) && len(terms) < maxQueryTerms {
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 {
		res.Exact = true // nothing to search for
		return res, nil
	}
	type term struct {
		name   string
		scores map[int]int64
		more   []int64 // the largest score of each tier not read yet
		tier   int     // the number of the next tier
		size   int     // the number of postings in it, at most
	}
	ts := make([]*term, len(terms))
	shards := map[string]*search.StaticTerms{}
	for i, t := range terms {
		ts[i] = &term{name: t, scores: map[int]int64{}, tier: 1, size: meta.FirstTier * meta.TierGrowth}
		path := fmt.Sprintf("t/%x.json", search.TermShard(t, meta.TermShards))
		sh, seen := shards[path]
		if !seen {
			sh = &search.StaticTerms{}
			if ok, err := get(path, sh); err != nil {
				return res, err
			} else if !ok {
				sh = nil
			}
			shards[path] = sh
		}
		if sh != nil {
			AddPostings(ts[i].scores, sh.Postings[t])
			ts[i].more = sh.More[t]
		}
	}
	n := int64(len(terms))
	bound := func(t *term) int64 {
		if len(t.more) == 0 {
			return 0
		}
		return t.more[0]
	}
	// A candidate's scores are kept times the query's term count, in
	// integers, so that the script, in floating point, ranks alike.
	type cand struct {
		doc    int
		lo, hi int64
	}
	var ranked []cand
	budget := meta.TierBudget
	for {
		// What each document read so far has, and could still have.
		sum, matched := map[int]int64{}, map[int]int64{}
		for _, t := range ts {
			for d, s := range t.scores {
				sum[d] += s
				matched[d]++
			}
		}
		var open, openCount int64
		for _, t := range ts {
			if b := bound(t); b > 0 {
				open += b
				openCount++
			}
		}
		ranked = ranked[:0]
		for d, s := range sum {
			c := cand{doc: d, lo: s * matched[d]}
			more, count := s, matched[d]
			for _, t := range ts {
				if _, ok := t.scores[d]; !ok && bound(t) > 0 {
					more += bound(t)
					count++
				}
			}
			c.hi = more * count
			ranked = append(ranked, c)
		}
		sort.Slice(ranked, func(a, b int) bool {
			return ranked[a].lo > ranked[b].lo || ranked[a].lo == ranked[b].lo && ranked[a].doc < ranked[b].doc
		})
		if openCount == 0 {
			res.Exact = true
			break
		}
		if len(ranked) >= limit {
			last := ranked[limit-1].lo
			settled := open*openCount < last
			for _, c := range ranked[limit:] {
				if c.hi >= last {
					settled = false
					break
				}
			}
			if settled {
				res.Exact = true
				break
			}
		}
		// Read the next tier of the term that could add the most, if
		// the budget allows.
		next := ts[0]
		for _, t := range ts[1:] {
			if bound(t) > bound(next) {
				next = t
			}
		}
		if next.size > budget {
			break
		}
		budget -= next.size
		var tier map[string][]int64
		if _, err := get(search.TierPath(next.name, next.tier), &tier); err != nil {
			return res, err
		}
		AddPostings(next.scores, tier[next.name])
		next.more, next.tier, next.size = next.more[1:], next.tier+1, next.size*meta.TierGrowth
	}
	ranked = ranked[:min(limit, len(ranked))]
	res.Hits = make([]StaticHit, 0, len(ranked))
	rows := map[string][][]string{}
	for _, c := range ranked {
		path := fmt.Sprintf("d/%d.json", c.doc/meta.DocShard)
		r, seen := rows[path]
		if !seen {
			if _, err := get(path, &r); err != nil {
				return res, err
			}
			rows[path] = r
		}
		i := c.doc % meta.DocShard
		if i >= len(r) || len(r[i]) < 6 {
			return res, fmt.Errorf("search/%s: no row for document %d", path, c.doc)
		}
		row := r[i]
		res.Hits = append(res.Hits, StaticHit{Doc: c.doc, ID: row[0], Type: row[1], Outcome: row[2], URL: row[3], Title: row[4], Snippet: row[5],
			Score: float64(c.lo) / float64(n) / 1000})
	}
	return res, nil
}

// AddPostings adds a tier's postings, stored as document gaps and
// scores, to a term's scores by document.
func AddPostings(scores map[int]int64, flat []int64) {
	doc := 0
	for i := 0; i+1 < len(flat); i += 2 {
		doc += int(flat[i])
		scores[doc] = flat[i+1]
	}
}

func orMissing(err error) error {
	if err == nil {
		return fmt.Errorf("not found")
	}
	return err
}
