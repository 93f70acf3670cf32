package search

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
)

// The index is a bleve (scorch) index of flat documents. Its mapping is
// static: nothing a note contains adds a field.
//
//	field    kind      analyzer  stored  use
//	title    text      en        no      query, boost 4
//	task     text      en        no      query, boost 3
//	lessons  text      en        no      query, boost 2
//	body     text      en        no      query, boost 1
//	tags     text      keyword   no      exact tags (lower case)
//	type     text      keyword   yes     the hit's type
//	kind     text      keyword   no      --type: episode, pattern, note
//	outcome  text      keyword   yes     exact outcome; the hit's
//	date     datetime            no      created
//	url      text      -         yes     the hit's page (not indexed)
//	headline, snippet, day
//	         text      -         yes     the hit's Brief (not indexed)
//
// Scoring is bleve's BM25. Text fields keep no term vectors (no phrase
// queries, no highlighting: hits are ids) and no doc values (no sorting
// by field).

// flat is what the index maps: a Doc, less what only similarity uses.
type flat struct {
	Title   string    `json:"title"`
	Task    string    `json:"task"`
	Lessons string    `json:"lessons"`
	Body    string    `json:"body"`
	Tags    []string  `json:"tags"`
	Type    string    `json:"type"`
	Kind    string    `json:"kind"`
	Outcome string    `json:"outcome"`
	Date    time.Time `json:"date"`
	URL     string    `json:"url"`
	// Headline, Snippet and Day are the hit's Brief, stored only.
	Headline string `json:"headline"`
	Snippet  string `json:"snippet"`
	Day      string `json:"day"`
}

func newMapping() mapping.IndexMapping {
	text := func() *mapping.FieldMapping {
		f := mapping.NewTextFieldMapping()
		f.Analyzer, f.Store, f.IncludeTermVectors, f.IncludeInAll, f.DocValues = en.AnalyzerName, false, false, false, false
		return f
	}
	kw := func(store bool) *mapping.FieldMapping {
		f := mapping.NewKeywordFieldMapping()
		f.Store, f.IncludeTermVectors, f.IncludeInAll, f.DocValues = store, false, false, false
		return f
	}
	date := mapping.NewDateTimeFieldMapping()
	date.Store, date.IncludeInAll, date.DocValues = false, false, false
	stored := func() *mapping.FieldMapping {
		f := mapping.NewTextFieldMapping()
		f.Analyzer, f.Index, f.IncludeTermVectors, f.IncludeInAll, f.DocValues = keyword.Name, false, false, false, false
		return f
	}

	doc := mapping.NewDocumentStaticMapping()
	for _, f := range textFields {
		doc.AddFieldMappingsAt(f.name, text())
	}
	doc.AddFieldMappingsAt("tags", kw(false))
	doc.AddFieldMappingsAt("type", kw(true))
	doc.AddFieldMappingsAt("kind", kw(false))
	doc.AddFieldMappingsAt("outcome", kw(true))
	doc.AddFieldMappingsAt("date", date)
	for _, f := range storedFields {
		doc.AddFieldMappingsAt(f, stored())
	}

	m := mapping.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = en.AnalyzerName
	m.ScoringModel = index.BM25Scoring
	m.StoreDynamic, m.IndexDynamic, m.DocValuesDynamic = false, false, false
	return m
}

// Build writes the index of docs to dir, replacing any index there. The
// index is built aside with bleve's offline builder, opened and its
// documents counted, and only then swapped in: a failed build leaves the
// previous index as it was, and a published index is never updated in
// place. Ids must be unique.
func Build(dir string, docs []Doc) error {
	seen := make(map[string]bool, len(docs))
	for _, d := range docs {
		if d.ID == "" || seen[d.ID] {
			return fmt.Errorf("search index: empty or duplicate id %q", d.ID)
		}
		seen[d.ID] = true
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, filepath.Base(dir)+".tmp-")
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	defer os.RemoveAll(tmp)
	built := filepath.Join(tmp, "index")
	if err := write(built, tmp, docs); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	if err := verify(built, len(docs)); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	return swap(built, dir)
}

// write builds the index at path, with the builder's scratch files in
// scratch (on the same file system, so its final rename is cheap).
func write(path, scratch string, docs []Doc) error {
	if len(docs) == 0 {
		// The offline builder cannot make an index of nothing.
		idx, err := bleve.NewUsing(path, newMapping(), scorch.Name, scorch.Name, nil)
		if err != nil {
			return err
		}
		return idx.Close()
	}
	b, err := bleve.NewBuilder(path, newMapping(), map[string]any{"buildPathPrefix": scratch})
	if err != nil {
		return err
	}
	for _, d := range docs {
		if err := b.Index(d.ID, toFlat(d)); err != nil {
			b.Close()
			return fmt.Errorf("index %s: %w", d.ID, err)
		}
	}
	return b.Close()
}

// storedFields are the fields stored only, for the hits.
var storedFields = []string{"url", "headline", "snippet", "day"}

func toFlat(d Doc) flat {
	b := brief(d)
	f := flat{Title: d.Title, Task: d.Task, Lessons: d.Lessons, Body: d.Body, Type: d.Type, Kind: kind(d.Type),
		Outcome: d.Outcome, Date: d.Date, URL: d.URL, Headline: b.Headline, Snippet: b.Snippet, Day: b.Date}
	for _, t := range d.Tags {
		f.Tags = append(f.Tags, lowerTag(t))
	}
	return f
}

// verify opens a built index and checks that it holds want documents.
func verify(path string, want int) error {
	idx, err := Open(path)
	if err != nil {
		return err
	}
	defer idx.Close()
	n, err := idx.idx.DocCount()
	if err != nil {
		return err
	}
	if n != uint64(want) {
		return fmt.Errorf("built %d documents, want %d", n, want)
	}
	return nil
}

// swap puts the directory built in place of dir: the old index is
// renamed aside, the new one renamed in, the old one removed. A reader
// that opened the old index keeps reading it.
func swap(built, dir string) error {
	old := dir + ".old"
	_ = os.RemoveAll(old)
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("search index: %w", err)
	}
	if err := os.Rename(built, dir); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	return os.RemoveAll(old)
}

// Index is an index opened read-only.
type Index struct {
	idx bleve.Index
}

// Open opens the index in dir read-only.
func Open(dir string) (*Index, error) {
	idx, err := bleve.OpenUsing(dir, map[string]any{"read_only": true})
	if err != nil {
		return nil, fmt.Errorf("open search index %s: %w", dir, err)
	}
	return &Index{idx: idx}, nil
}

// Close closes the index.
func (x *Index) Close() error { return x.idx.Close() }
