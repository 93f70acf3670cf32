package indexer

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/engramhq/engram/indexer/bootstrap"
	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/search"
	"github.com/engramhq/engram/indexer/secrets"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
)

// Snapshot and its refresh orchestrate the query cache (the files are
// indexer/store's, querycache.go): a query answers from the cache while
// the repository's fingerprint holds, and otherwise reads the repository
// again (every stage but the site), refuses what a build would refuse,
// and replaces the cache. A build does not write it, but removes one
// made from another state of the repository (dropStaleCache).

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
func Snapshot(ctx context.Context, opt Options, parts store.Part) (*query.Snapshot, SnapshotInfo, error) {
	opt = opt.withDefaults()
	dir, err := store.CacheDir(opt.Repo, opt.CacheDir)
	if err != nil {
		return nil, SnapshotInfo{}, err
	}
	meta, _ := store.ReadMeta(dir)
	if meta.Out != "" {
		opt.Out = meta.Out
	}
	fp, err := fingerprint(opt)
	if err != nil {
		return nil, SnapshotInfo{}, newRepoError(opt.Repo, err)
	}
	if meta.Current(fp) && meta.Now == store.NowKey(opt.Now) {
		if snap, err := store.ReadSnapshot(dir, meta, parts); err == nil {
			return snap, SnapshotInfo{}, nil
		}
	}
	snap, info, err := refresh(ctx, opt, dir, fp)
	if err != nil {
		return nil, info, err
	}
	if parts&store.PartSearch != 0 {
		if info.CacheErr != nil {
			return nil, info, fmt.Errorf("no search index: %w", info.CacheErr)
		}
		if snap.Index, err = store.OpenSearch(dir); err != nil {
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
	var info SnapshotInfo
	st, err := pipeline(ctx, opt, &stopwatch{r: &Report{}}, false, func(in *Loaded) error {
		info = SnapshotInfo{Refreshed: true, Diagnostics: len(in.Diagnostics), Errors: in.Counts["errors"]}
		if n := len(unallowed(in.Secrets.Found)); n > 0 {
			err := fmt.Errorf("%w: %d secrets found in %s (engram check lists them, by rule and fingerprint); queries answer only from what a build publishes", ErrRefused, n, opt.Repo)
			return errors.Join(err, store.RemoveCache(dir))
		}
		return nil
	})
	if err != nil {
		if st.in == nil && errors.Is(err, ErrRefused) {
			err = errors.Join(err, store.RemoveCache(dir))
		}
		return nil, info, err
	}
	in := st.in
	snap := snapshotOf(st.docs, bootstrap.Build(st.docs), search.NewSimilarity(st.search))
	docs := st.search
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
		if meta, err := store.ReadMeta(dir); err == nil && meta.Out != "" {
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
// own output when it lies inside the repository, and with it every
// source's that engram.toml lists (sources.go): a query after a source
// moved reads it again. Without [[sources]] it is the repository's alone.
func fingerprint(opt Options) (string, error) {
	fp, err := source.Fingerprint(opt.Repo, outputFilter(opt))
	if err != nil {
		return "", err
	}
	return withSources(opt.Repo, fp)
}

// writeCache replaces the cache of a repository in dir (store.WriteCache)
// with snap, the search index of docs and the similarity model
// (snap.Similar). What it would hold is scanned with scan (a build's
// output scanner) first: a secret there refuses it, and removes the
// cache there was.
func writeCache(ctx context.Context, dir string, opt Options, fp string, snap *query.Snapshot, docs []search.Doc, scan *secrets.Scanner) error {
	repo, err := filepath.Abs(opt.Repo)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(opt.Out)
	if err != nil {
		return err
	}
	g, err := store.NewCachedGraph(snap.Graph)
	if err != nil {
		return err
	}
	files, err := store.EncodeCache(snap, g)
	if err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	if err := scanCache(ctx, scan, files, docs); err != nil {
		return errors.Join(err, store.RemoveCache(dir))
	}
	return store.WriteCache(dir, store.CacheMeta{Repo: repo, Out: out, Now: store.NowKey(opt.Now), Fingerprint: fp}, snap, files, docs)
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
func scanCache(ctx context.Context, scan *secrets.Scanner, files []store.CacheFile, docs []search.Doc) error {
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
		paths, texts = append(paths, f.Name), append(texts, f.Text)
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
	if meta, err := store.ReadMeta(dir); err == nil && fpErr == nil && meta.Current(fp) {
		return nil
	}
	return store.RemoveCache(dir)
}

// dropCache removes the query cache of opt.Repo.
func dropCache(opt Options) error {
	dir, err := store.CacheDir(opt.Repo, opt.CacheDir)
	if err != nil {
		return err
	}
	return store.RemoveCache(dir)
}
