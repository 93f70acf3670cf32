package store

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/config"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/search"
)

// The query cache: a snapshot of the documents (less the prose), the
// similarity model and the bleve search index, in a cache directory of
// the user's, keyed by the repository's absolute path, with a
// fingerprint of the repository it was made from. A query answers from
// it while the fingerprint holds, and otherwise reads the repository
// again (every stage but the site) and replaces it. A build does not
// write it: the site needs none of it, so the first query after a build
// makes it (issue 30). The cache is never part of the output and never
// read by a build (the page store beside it is, pagecache.go); a build
// removes one made from another state of the repository (dropStaleCache).
//
// It holds only what a build would publish (SPEC §6, "Caches hold only
// what was published"). A refresh is refused where a build is: a secret
// in the repository's files that is not allowed refuses it (a query has
// no --redact), and so does a secret in what the cache would hold, which
// is scanned as a build's output is (a secret escaped in a note, an
// HTML entity or a YAML escape, shows there decoded). A refused build
// or refresh removes the cache: nothing is left to answer from, and the
// next query reads the repository again. A note turned private is not
// in the snapshot a refresh makes, which replaces the cache whole.

// cacheFormat changes whenever the files of the cache change shape or
// meaning (8: the similarity model weighs the whole record, issue 12;
// 9: pending.json, issue 15; 10: text flagged for memory poisoning is
// withheld, issue 29; 11: an episode's summary has age_days and stale,
// patterns are kept as export.PatternSummary, issue 30; 12: the
// similarity model has a floor and each episode's headline and outcome,
// issue 31; 13: the search index stores each hit's brief, issue 32).
const cacheFormat = 13

// Part is a part of a snapshot; a query reads only the parts it needs.
type Part int

const (
	PartEpisodes Part = 1 << iota
	PartPatterns
	PartGraph
	PartAntipatterns
	PartBootstrap
	// PartSearch opens the search index (query.Snapshot.Index), which a
	// reader must close (query.Snapshot.Close).
	PartSearch
	// PartSimilar reads the similarity model of the episodes.
	PartSimilar
	// PartEvents reads the execution events within retention.
	PartEvents
	// PartPending reads the threads awaiting processing (pending.json).
	PartPending
)

// searchDir and similarFile are the search index and the similarity
// model, in the cache directory.
const (
	searchDir   = "search"
	similarFile = "similar.gob"
)

// cacheParts are the query cache's files, one row a part of a
// query.Snapshot: the file, its encoding, and where the part is in a
// snapshot (in, g its graph as cached). EncodeCache writes them in this
// order and ReadSnapshot reads the rows of the parts a query asks for.
// The documents are JSON, which keeps a rate of 0 apart from no rate
// (gob drops both), a value a line (export.Encode: the scan hands
// gitleaks the lines around a keyword); the graph and the bootstrap are
// gob, which reads faster, and text is what the scan reads of one.
var cacheParts = []cachePart{
	{PartEpisodes, "episodes.json", func(s *query.Snapshot, _ *CachedGraph) any { return &s.Episodes }, nil},
	{PartPatterns, "patterns.json", func(s *query.Snapshot, _ *CachedGraph) any { return &s.Patterns }, nil},
	{PartAntipatterns, "antipatterns.json", func(s *query.Snapshot, _ *CachedGraph) any { return &s.Antipatterns }, nil},
	{PartEvents, "events.json", func(s *query.Snapshot, _ *CachedGraph) any { return &s.Events }, nil},
	{PartPending, "pending.json", func(s *query.Snapshot, _ *CachedGraph) any { return &s.Pending }, nil},
	{PartGraph, "graph.gob", func(_ *query.Snapshot, g *CachedGraph) any { return g }, graphText},
	{PartBootstrap, "bootstrap.gob", func(s *query.Snapshot, _ *CachedGraph) any { return &s.Bootstrap }, bootstrapText},
}

// cachePart is a row of cacheParts. A part with no text is a JSON file,
// scanned as it is; one with text is gob.
type cachePart struct {
	part Part
	name string
	in   func(s *query.Snapshot, g *CachedGraph) any
	text func(s *query.Snapshot, g *CachedGraph) ([]byte, error)
}

// gob reports whether the part is a gob file.
func (p cachePart) gob() bool { return p.text != nil }

// graphText is the text of the cached graph: its ids and types.
func graphText(_ *query.Snapshot, g *CachedGraph) ([]byte, error) {
	return []byte(strings.Join(slices.Concat(g.IDs, g.Types, g.EdgeTypes), "\n")), nil
}

// bootstrapText is the text of the bootstrap, as JSON.
func bootstrapText(s *query.Snapshot, _ *CachedGraph) ([]byte, error) {
	return export.Encode(s.Bootstrap)
}

// CacheMeta is the query cache's meta.json: what made it, from what.
type CacheMeta struct {
	Format        int       `json:"format"`
	Generator     string    `json:"generator"`
	Repo          string    `json:"repo"`
	Out           string    `json:"out"`
	Now           string    `json:"now"`
	Fingerprint   string    `json:"fingerprint"`
	ReferenceTime time.Time `json:"reference_time"`
	Commit        string    `json:"commit"`
}

// NowKey is how the cache keeps the reference time a query was given
// (--now): "" for none.
func NowKey(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// ReadMeta reads the meta.json of the query cache in dir.
func ReadMeta(dir string) (CacheMeta, error) {
	var m CacheMeta
	data, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(data, &m)
}

// ReadSnapshot reads the parts of the snapshot that the query cache in
// dir holds (meta its ReadMeta).
func ReadSnapshot(dir string, meta CacheMeta, parts Part) (*query.Snapshot, error) {
	snap := &query.Snapshot{ReferenceTime: meta.ReferenceTime, Commit: meta.Commit}
	var g CachedGraph
	for _, p := range cacheParts {
		if parts&p.part == 0 {
			continue
		}
		if err := p.read(dir, p.in(snap, &g)); err != nil {
			return nil, err
		}
	}
	if parts&PartGraph != 0 {
		snap.Graph = g.graph()
	}
	if parts&PartSimilar != 0 {
		sim, err := readSimilar(filepath.Join(dir, similarFile))
		if err != nil {
			return nil, err
		}
		snap.Similar = sim
	}
	if parts&PartSearch != 0 {
		idx, err := search.Open(filepath.Join(dir, searchDir))
		if err != nil {
			return nil, err
		}
		snap.Index = idx
	}
	return snap, nil
}

func readSimilar(path string) (*search.Similarity, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return search.ReadSimilarity(bufio.NewReaderSize(f, 1<<16))
}

// CachedGraph is the graph with every id stored once: edges name their
// nodes by index. It is most of what a path query reads.
type CachedGraph struct {
	IDs, Types []string // of the nodes
	EdgeTypes  []string
	Src, Dst   []int32
	Type       []uint8
	Weight     []float64
	Count      []int32
}

// NewCachedGraph is g as the cache keeps it.
func NewCachedGraph(g query.Graph) (CachedGraph, error) {
	c := CachedGraph{}
	index := make(map[string]int32, len(g.Nodes))
	for i, n := range g.Nodes {
		c.IDs, c.Types = append(c.IDs, n.ID), append(c.Types, n.Type)
		index[n.ID] = int32(i)
	}
	types := map[string]uint8{}
	for _, e := range g.Edges {
		t, ok := types[string(e.Type)]
		if !ok {
			if len(c.EdgeTypes) == 255 {
				return c, fmt.Errorf("cache: more than 255 edge types")
			}
			t = uint8(len(c.EdgeTypes))
			types[string(e.Type)] = t
			c.EdgeTypes = append(c.EdgeTypes, string(e.Type))
		}
		s, okS := index[e.Source]
		d, okD := index[e.Target]
		if !okS || !okD {
			return c, fmt.Errorf("cache: edge %s -> %s names a node the graph does not have", e.Source, e.Target)
		}
		c.Src, c.Dst, c.Type = append(c.Src, s), append(c.Dst, d), append(c.Type, t)
		c.Weight, c.Count = append(c.Weight, e.Weight), append(c.Count, int32(e.EvidenceCount))
	}
	return c, nil
}

func (c CachedGraph) graph() query.Graph {
	nodes, edges := make([]query.Node, len(c.IDs)), make([]note.Edge, len(c.Src))
	for i := range c.IDs {
		nodes[i] = query.Node{ID: c.IDs[i], Type: c.Types[i]}
	}
	for i := range c.Src {
		edges[i] = note.Edge{Source: c.IDs[c.Src[i]], Target: c.IDs[c.Dst[i]], Type: note.EdgeType(c.EdgeTypes[c.Type[i]]), Weight: c.Weight[i], EvidenceCount: int(c.Count[i])}
	}
	return query.IndexedGraph(nodes, edges, c.Src, c.Dst)
}

// CacheFile is a file of the cache: its bytes, and the text in them
// that is scanned for secrets (a JSON file itself; what a gob file holds
// as text).
type CacheFile struct {
	Name       string
	Data, Text []byte
}

// EncodeCache encodes the files of a cache of snap (g its graph), a
// file a row of cacheParts.
func EncodeCache(snap *query.Snapshot, g CachedGraph) ([]CacheFile, error) {
	files := make([]CacheFile, 0, len(cacheParts))
	for _, p := range cacheParts {
		f, err := p.encode(snap, &g)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// encode is the file of the part of snap (g its graph).
func (p cachePart) encode(snap *query.Snapshot, g *CachedGraph) (CacheFile, error) {
	if !p.gob() {
		data, err := export.Encode(p.in(snap, g))
		return CacheFile{p.name, data, data}, err
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(p.in(snap, g)); err != nil {
		return CacheFile{}, err
	}
	text, err := p.text(snap, g)
	return CacheFile{p.name, buf.Bytes(), text}, err
}

// read decodes the part's file in dir into v (where the part is in a
// snapshot).
func (p cachePart) read(dir string, v any) error {
	file, err := os.Open(filepath.Join(dir, p.name))
	if err != nil {
		return err
	}
	defer file.Close()
	r := bufio.NewReaderSize(file, 1<<16)
	if p.gob() {
		err = gob.NewDecoder(r).Decode(v)
	} else {
		err = json.NewDecoder(r).Decode(v)
	}
	if err != nil {
		return fmt.Errorf("cache %s: %w", p.name, err)
	}
	return nil
}

// writeSearch writes the search index and the similarity model into a
// cache directory being made.
func writeSearch(dir string, sim *search.Similarity, docs []search.Doc) error {
	if sim == nil {
		sim = search.NewSimilarity(docs)
	}
	var buf bytes.Buffer
	if _, err := sim.WriteTo(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, similarFile), buf.Bytes(), 0o644); err != nil {
		return err
	}
	return search.Build(filepath.Join(dir, searchDir), docs)
}

// RemoveCache removes the query cache in dir, and what a killed
// WriteCache left beside it: a build or a refresh that refuses leaves no
// snapshot to answer from (SPEC §6). The page store is not touched.
func RemoveCache(dir string) error {
	stale, _ := filepath.Glob(dir + ".tmp-*")
	var errs []error
	for _, d := range append([]string{dir, dir + ".old"}, stale...) {
		if err := os.RemoveAll(d); err != nil {
			errs = append(errs, fmt.Errorf("remove the query cache: %w", err))
		}
	}
	return errors.Join(errs...)
}

// Current reports whether the cache of meta was made by this version of
// engram, in this format, from the repository as fingerprint fp saw it.
func (m CacheMeta) Current(fp string) bool {
	return m.Format == cacheFormat && m.Generator == config.Version && m.Fingerprint == fp
}

// OpenSearch opens the search index of the query cache in dir, which the
// caller must close.
func OpenSearch(dir string) (*search.Index, error) {
	return search.Open(filepath.Join(dir, searchDir))
}

// WriteCache replaces the query cache in dir with files (EncodeCache's,
// which the caller has scanned) of snap, the search index of docs and
// the similarity model (snap.Similar), and meta (where it is, from what:
// its format, version and snap's time and commit are filled in here).
// It is written aside, then renamed into place, so a reader sees the old
// cache or the new one (or none, and reads the repository).
func WriteCache(dir string, meta CacheMeta, snap *query.Snapshot, files []CacheFile, docs []search.Doc) error {
	meta.Format, meta.Generator, meta.ReferenceTime, meta.Commit = cacheFormat, config.Version, snap.ReferenceTime, snap.Commit
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(tmp, f.Name), f.Data, 0o644); err != nil {
			return fmt.Errorf("write cache: %w", err)
		}
	}
	if err := writeSearch(tmp, snap.Similar, docs); err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	data, err := json.Marshal(meta)
	if err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "meta.json"), data, 0o644); err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	old := dir + ".old"
	_ = os.RemoveAll(old)
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("write cache: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	return os.RemoveAll(old)
}
