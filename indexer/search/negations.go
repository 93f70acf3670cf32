package search

import (
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/token/stop"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// AnalyzeKeepingNegations returns the terms of text as Analyze does, but
// with negations kept: what lesson clustering compares (indexer/lessons).
func AnalyzeKeepingNegations(text string) []string {
	stream := negating().Analyze([]byte(text))
	out := make([]string, 0, len(stream))
	for _, t := range stream {
		out = append(out, string(t.Term))
	}
	return out
}

var negating = sync.OnceValue(englishAnalyzer)

// englishAnalyzer is bleve's "en" analyzer (analysis/lang/en/analyzer_en.go:
// the Unicode tokenizer, then the possessive, lower-case, stop-word and
// Porter filters) with negation kept. bleve's stop list is a search
// engine's, and drops "not", "no", "nor" and the n't forms; for lessons
// that turns "Don't run the tests before committing" into "Run the tests
// before committing". So the stop list here is bleve's without its
// negations, and a filter before it splits each n't contraction into its
// verb and "not", so that "don't" and "do not" are the same terms.
func englishAnalyzer() analysis.Analyzer {
	return &analysis.DefaultAnalyzer{
		Tokenizer: unicode.NewUnicodeTokenizer(),
		TokenFilters: []analysis.TokenFilter{
			en.NewPossessiveFilter(),
			lowercase.NewLowerCaseFilter(),
			contractions{},
			stop.NewStopTokensFilter(stopWords()),
			porter.NewPorterStemmer(),
		},
	}
}

// stopWords is bleve's English stop list without the negations.
func stopWords() analysis.TokenMap {
	m := analysis.NewTokenMap()
	if err := m.LoadBytes(en.EnglishStopWords); err != nil {
		// Reading from memory cannot fail: a broken build, not bad input.
		panic("search: bleve's English stop words: " + err.Error())
	}
	for w := range m {
		if negation(w) {
			delete(m, w)
		}
	}
	return m
}

// negation reports whether a stop word negates: "never" is not in bleve's
// list, but is named so that it stays out of it.
func negation(w string) bool {
	switch w {
	case "not", "no", "nor", "never", "cannot":
		return true
	}
	return strings.HasSuffix(w, "n't")
}

// contractions splits lower-case n't contractions and "cannot" into a verb
// and "not": "don't" becomes "do not", "can't" and "cannot" "can not",
// "won't" "will not". The verb is then a stop word or not like any other
// ("do" is, "can" is not), so each contraction has the terms of its
// spelled-out form. A contraction without its apostrophe ("dont") is left
// alone: it is also a word.
type contractions struct{}

func (contractions) Filter(in analysis.TokenStream) analysis.TokenStream {
	var out analysis.TokenStream // nil until a token is split
	for i, t := range in {
		verb, ok := splitNot(string(t.Term))
		if !ok {
			if out != nil {
				out = append(out, t)
			}
			continue
		}
		if out == nil {
			out = append(make(analysis.TokenStream, 0, len(in)+1), in[:i]...)
		}
		not := *t
		not.Term = []byte("not")
		if verb != "" {
			t.Term = []byte(verb)
			out = append(out, t)
		}
		out = append(out, &not)
	}
	if out == nil {
		return in
	}
	return out
}

// splitNot returns the verb of a negative contraction ("" for a bare
// "n't"), with the irregular ones spelled out.
func splitNot(w string) (verb string, ok bool) {
	switch w {
	case "can't", "cannot":
		return "can", true
	case "won't":
		return "will", true
	case "shan't":
		return "shall", true
	case "ain't":
		return "be", true
	}
	return strings.CutSuffix(w, "n't")
}
