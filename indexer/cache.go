package indexer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/bootstrap"
	"github.com/engramhq/engram/indexer/config"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/search"
	"github.com/engramhq/engram/indexer/secrets"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
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

var partFiles = []struct {
	part Part
	name string
}{{PartEpisodes, "episodes.json"}, {PartPatterns, "patterns.json"}, {PartGraph, "graph.gob"}, {PartAntipatterns, "antipatterns.json"}, {PartBootstrap, "bootstrap.gob"}, {PartEvents, "events.json"}, {PartPending, "pending.json"}}

type cacheMeta struct {
	Format        int       `json:"format"`
	Generator     string    `json:"generator"`
	Repo          string    `json:"repo"`
	Out           string    `json:"out"`
	Now           string    `json:"now"`
	Fingerprint   string    `json:"fingerprint"`
	ReferenceTime time.Time `json:"reference_time"`
	Commit        string    `json:"commit"`
}

// SnapshotInfo says where a snapshot came from.
type SnapshotInfo struct {
	// Refreshed is true when the repository had moved on since the cache
	// was written (or there was none), and was read again.
	Refreshed bool
	// Diagnostics and Errors count the diagnostics of that read.
	Diagnostics, Errors int
	// CacheErr is why the fresh snapshot could not be cached; the
	// snapshot is good regardless.
	CacheErr error
}

// Snapshot returns what the queries of the command line answer from, for
// the repository opt.Repo as it is now.
func Snapshot(ctx context.Context, opt Options, parts Part) (*query.Snapshot, SnapshotInfo, error) {
	opt = opt.withDefaults()
	dir, err := store.CacheDir(opt.Repo, opt.CacheDir)
	if err != nil {
		return nil, SnapshotInfo{}, err
	}
	meta, _ := readMeta(dir)
	if meta.Out != "" {
		opt.Out = meta.Out
	}
	fp, err := fingerprint(opt)
	if err != nil {
		return nil, SnapshotInfo{}, newRepoError(opt.Repo, err)
	}
	if meta.Format == cacheFormat && meta.Generator == config.Version && meta.Fingerprint == fp && meta.Now == nowKey(opt.Now) {
		if snap, err := readSnapshot(dir, meta, parts); err == nil {
			return snap, SnapshotInfo{}, nil
		}
	}
	snap, info, err := refresh(ctx, opt, dir, fp)
	if err != nil {
		return nil, info, err
	}
	if parts&PartSearch != 0 {
		if info.CacheErr != nil {
			return nil, info, fmt.Errorf("no search index: %w", info.CacheErr)
		}
		if snap.Index, err = search.Open(filepath.Join(dir, searchDir)); err != nil {
			return nil, info, err
		}
	}
	return snap, info, nil
}

// refresh reads the repository again and replaces the cache in dir with
// what the queries answer from. A repository a build would refuse for
// the secrets in its files or in what it would publish is refused, and
// the cache removed.
func refresh(ctx context.Context, opt Options, dir, fp string) (*query.Snapshot, SnapshotInfo, error) {
	in, err := Load(ctx, opt)
	if err != nil {
		if errors.Is(err, ErrRefused) {
			err = errors.Join(err, removeCache(dir))
		}
		return nil, SnapshotInfo{}, err
	}
	info := SnapshotInfo{Refreshed: true, Diagnostics: len(in.Diagnostics), Errors: in.Counts["errors"]}
	if n := len(unallowed(in.Secrets.Found)); n > 0 {
		err := fmt.Errorf("%w: %d secrets found in %s (engram check lists them, by rule and fingerprint); queries answer only from what a build publishes", ErrRefused, n, opt.Repo)
		return nil, info, errors.Join(err, removeCache(dir))
	}
	site := export.Documents(in.Export)
	docs := search.DocsFromSite(site)
	snap := snapshotOf(site, bootstrap.Build(site), search.NewSimilarity(docs))
	info.CacheErr = writeCache(ctx, dir, opt, fp, snap, docs, in.Secrets.Scanner.Output(in.Secrets.Found))
	if errors.Is(info.CacheErr, ErrRefused) {
		return nil, info, info.CacheErr
	}
	return snap, info, nil
}

// Fingerprint is the repository's fingerprint as Snapshot compares it
// with the cache's: a caller that holds a snapshot learns from it whether
// the repository moved on, without reading the cache again. A repository
// that is not there is the error a build gives.
func Fingerprint(opt Options) (string, error) {
	opt = opt.withDefaults()
	if dir, err := store.CacheDir(opt.Repo, opt.CacheDir); err == nil {
		if meta, err := readMeta(dir); err == nil && meta.Out != "" {
			opt.Out = meta.Out
		}
	}
	fp, err := fingerprint(opt)
	if err != nil {
		return "", newRepoError(opt.Repo, err)
	}
	return fp, nil
}

// fingerprint is the repository's fingerprint, leaving out the build's
// own output when it lies inside the repository.
func fingerprint(opt Options) (string, error) {
	return source.Fingerprint(opt.Repo, outputFilter(opt))
}

func nowKey(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func readMeta(dir string) (cacheMeta, error) {
	var m cacheMeta
	data, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(data, &m)
}

func readSnapshot(dir string, meta cacheMeta, parts Part) (*query.Snapshot, error) {
	snap := &query.Snapshot{ReferenceTime: meta.ReferenceTime, Commit: meta.Commit}
	var g cachedGraph
	targets := map[Part]any{PartEpisodes: &snap.Episodes, PartPatterns: &snap.Patterns, PartGraph: &g, PartAntipatterns: &snap.Antipatterns, PartBootstrap: &snap.Bootstrap, PartEvents: &snap.Events, PartPending: &snap.Pending}
	for _, f := range partFiles {
		if parts&f.part == 0 {
			continue
		}
		file, err := os.Open(filepath.Join(dir, f.name))
		if err != nil {
			return nil, err
		}
		r := bufio.NewReaderSize(file, 1<<16)
		if strings.HasSuffix(f.name, ".gob") {
			err = gob.NewDecoder(r).Decode(targets[f.part])
		} else {
			err = json.NewDecoder(r).Decode(targets[f.part])
		}
		file.Close()
		if err != nil {
			return nil, fmt.Errorf("cache %s: %w", f.name, err)
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

// cachedGraph is the graph with every id stored once: edges name their
// nodes by index. It is most of what a path query reads.
type cachedGraph struct {
	IDs, Types []string // of the nodes
	EdgeTypes  []string
	Src, Dst   []int32
	Type       []uint8
	Weight     []float64
	Count      []int32
}

func newCachedGraph(g query.Graph) (cachedGraph, error) {
	c := cachedGraph{}
	index := make(map[string]int32, len(g.Nodes))
	for i, n := range g.Nodes {
		c.IDs, c.Types = append(c.IDs, n.ID), append(c.Types, n.Type)
		index[n.ID] = int32(i)
	}
	types := map[string]uint8{}
	for _, e := range g.Edges {
		t, ok := types[e.Type]
		if !ok {
			if len(c.EdgeTypes) == 255 {
				return c, fmt.Errorf("cache: more than 255 edge types")
			}
			t = uint8(len(c.EdgeTypes))
			types[e.Type] = t
			c.EdgeTypes = append(c.EdgeTypes, e.Type)
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

func (c cachedGraph) graph() query.Graph {
	nodes, edges := make([]query.Node, len(c.IDs)), make([]note.Edge, len(c.Src))
	for i := range c.IDs {
		nodes[i] = query.Node{ID: c.IDs[i], Type: c.Types[i]}
	}
	for i := range c.Src {
		edges[i] = note.Edge{Source: c.IDs[c.Src[i]], Target: c.IDs[c.Dst[i]], Type: c.EdgeTypes[c.Type[i]], Weight: c.Weight[i], EvidenceCount: int(c.Count[i])}
	}
	return query.IndexedGraph(nodes, edges, c.Src, c.Dst)
}

// writeCache replaces the cache of a repository: written aside, then
// renamed into place, so a reader sees the old cache or the new one (or
// none, and reads the repository). The search index of docs and the
// similarity model (snap.Similar) go with it. What it would hold is
// scanned with scan (a build's output scanner) first: a secret there
// refuses it, and removes the cache there was.
func writeCache(ctx context.Context, dir string, opt Options, fp string, snap *query.Snapshot, docs []search.Doc, scan *secrets.Scanner) error {
	repo, err := filepath.Abs(opt.Repo)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(opt.Out)
	if err != nil {
		return err
	}
	g, err := newCachedGraph(snap.Graph)
	if err != nil {
		return err
	}
	meta := cacheMeta{Format: cacheFormat, Generator: config.Version, Repo: repo, Out: out, Now: nowKey(opt.Now),
		Fingerprint: fp, ReferenceTime: snap.ReferenceTime, Commit: snap.Commit}
	files, err := encodeCache(snap, g)
	if err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	if err := scanCache(ctx, scan, files, docs); err != nil {
		return errors.Join(err, removeCache(dir))
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(tmp, f.name), f.data, 0o644); err != nil {
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

// cacheFile is a file of the cache: its bytes, and the text in them
// that is scanned for secrets (a JSON file itself; what a gob file holds
// as text).
type cacheFile struct {
	name       string
	data, text []byte
}

// encodeCache encodes the files of a cache of snap (g its graph). The
// documents are JSON, which keeps a rate of 0 apart from no rate (gob
// drops both), a value a line (export.Encode: the scan hands gitleaks
// the lines around a keyword); the graph and the bootstrap are gob,
// which reads faster.
func encodeCache(snap *query.Snapshot, g cachedGraph) ([]cacheFile, error) {
	var files []cacheFile
	for _, p := range []struct {
		name string
		v    any
	}{{"episodes.json", snap.Episodes}, {"patterns.json", snap.Patterns}, {"antipatterns.json", snap.Antipatterns}, {"events.json", snap.Events}, {"pending.json", snap.Pending}} {
		data, err := export.Encode(p.v)
		if err != nil {
			return nil, err
		}
		files = append(files, cacheFile{p.name, data, data})
	}
	var graph, boot bytes.Buffer
	if err := gob.NewEncoder(&graph).Encode(g); err != nil {
		return nil, err
	}
	if err := gob.NewEncoder(&boot).Encode(snap.Bootstrap); err != nil {
		return nil, err
	}
	bootText, err := export.Encode(snap.Bootstrap)
	if err != nil {
		return nil, err
	}
	ids := strings.Join(slices.Concat(g.IDs, g.Types, g.EdgeTypes), "\n")
	return append(files, cacheFile{"graph.gob", graph.Bytes(), []byte(ids)}, cacheFile{"bootstrap.gob", boot.Bytes(), bootText}), nil
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

// outputFilter returns a test for the repository-relative paths that
// belong to the build's own output (and the directories a build writes
// beside it), when the output directory lies inside the repository; nil
// otherwise.
func outputFilter(opt Options) func(string) bool {
	repo, err1 := filepath.Abs(opt.Repo)
	out, err2 := filepath.Abs(opt.Out)
	if err1 != nil || err2 != nil {
		return nil
	}
	if r, err := filepath.EvalSymlinks(repo); err == nil {
		repo = r
	}
	if o, err := filepath.EvalSymlinks(filepath.Dir(out)); err == nil {
		out = filepath.Join(o, filepath.Base(out))
	}
	rel, err := filepath.Rel(repo, out)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return nil
	}
	rel = filepath.ToSlash(rel)
	dir, base := path.Split(rel)
	return func(p string) bool {
		return strings.HasPrefix(p, rel+"/") || strings.HasPrefix(p, dir+"."+base+".engram-")
	}
}

// scanCache scans what a cache of files and docs would hold with scan,
// and refuses it when that holds a secret, naming the notes or the
// cache's files where it is. Each search document is a note's whole
// text, scanned as written and as its page renders it (a secret
// escaped in a note is refused by the build's scan of that page).
func scanCache(ctx context.Context, scan *secrets.Scanner, files []cacheFile, docs []search.Doc) error {
	var paths []string
	var texts [][]byte
	for _, d := range docs {
		text := []byte(strings.Join([]string{d.ID, d.Title, d.Headline, d.Summary, d.Task, d.Body, d.Lessons, d.Similar, d.URL, strings.Join(d.Tags, " ")}, "\n"))
		paths, texts = append(paths, d.ID), append(texts, text)
		if r, ok := secrets.Rendered(text); ok {
			paths, texts = append(paths, d.ID), append(texts, r)
		}
	}
	for _, f := range files {
		paths, texts = append(paths, f.name), append(texts, f.text)
	}
	found, err := scan.ScanTexts(ctx, paths, texts)
	if err != nil {
		return fmt.Errorf("scan the query cache for secrets: %w", err)
	}
	if len(found) == 0 {
		return nil
	}
	return fmt.Errorf("%w: the notes hold %d secrets that the scan of their files did not find (escaped: an HTML entity, a YAML escape); queries answer only from what a build publishes:%s",
		ErrRefused, len(found), listFound(found))
}

// dropStaleCache removes the query cache of opt.Repo unless it was made
// from the repository as fingerprint fp (fpErr: none could be taken)
// saw it, by this version of engram. A build calls it once published:
// the cache of another state may hold what the build no longer
// publishes (a note turned private since), while the next query would
// replace it anyway (SPEC §6, "Caches hold only what was published").
func dropStaleCache(opt Options, fp string, fpErr error) error {
	dir, err := store.CacheDir(opt.Repo, opt.CacheDir)
	if err != nil {
		return err
	}
	if meta, err := readMeta(dir); err == nil && fpErr == nil && meta.Format == cacheFormat && meta.Generator == config.Version && meta.Fingerprint == fp {
		return nil
	}
	return removeCache(dir)
}

// dropCache removes the query cache of opt.Repo.
func dropCache(opt Options) error {
	dir, err := store.CacheDir(opt.Repo, opt.CacheDir)
	if err != nil {
		return err
	}
	return removeCache(dir)
}

// removeCache removes the query cache in dir, and what a killed
// writeCache left beside it: a build or a refresh that refuses leaves no
// snapshot to answer from (SPEC §6). The page store is not touched.
func removeCache(dir string) error {
	stale, _ := filepath.Glob(dir + ".tmp-*")
	var errs []error
	for _, d := range append([]string{dir, dir + ".old"}, stale...) {
		if err := os.RemoveAll(d); err != nil {
			errs = append(errs, fmt.Errorf("remove the query cache: %w", err))
		}
	}
	return errors.Join(errs...)
}
