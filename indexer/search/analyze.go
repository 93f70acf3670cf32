// Package search is engram's search stage (SPEC §5, issue 5): the bleve
// index the command line and the cache query, the similar-episodes
// computation, and the analysis both share with the static index of the
// published site. It is the only package that imports bleve.
package search

import (
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
)

// english is bleve's "en" analyzer: the Unicode tokenizer, then the
// possessive, lower-case, English stop-word and Porter stemming filters.
var english = sync.OnceValue(func() analysis.Analyzer {
	an, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		// Built in and registered by the import above: a broken build.
		panic("search: bleve's English analyzer: " + err.Error())
	}
	return an
})

// Analyze returns the terms of text as the index stores them, in order:
// lower case, stop words dropped, stemmed. Han and Hiragana characters
// are one term each and a Katakana run one term; other scripts split on
// spaces and punctuation, unstemmed.
func Analyze(text string) []string {
	stream := english().Analyze([]byte(text))
	out := make([]string, 0, len(stream))
	for _, t := range stream {
		out = append(out, string(t.Term))
	}
	return out
}
