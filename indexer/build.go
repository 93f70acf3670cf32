// Package indexer runs engram's batch job: it calls each stage in order
// (source, parse, graph, export, site) and publishes the result
// atomically. It is the only package that knows the order of the stages.
package indexer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/engramhq/engram/indexer/bootstrap"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/routes"
	"github.com/engramhq/engram/indexer/search"
	"github.com/engramhq/engram/indexer/secrets"
	"github.com/engramhq/engram/indexer/store"
	"github.com/engramhq/engram/site"
)

// Options are the inputs of one build. The zero value builds "." into
// "public".
type Options struct {
	Repo    string
	Out     string
	BaseURL string // overrides engram.toml's base_url when set
	// HostURL is the deploy URL the host gave the build (Netlify's $URL,
	// Cloudflare's $CF_PAGES_URL...), used when neither BaseURL nor
	// engram.toml gives one; HostURLFrom names it ("$URL"). The caller
	// reads the environment, never engram.
	HostURL, HostURLFrom string
	Now                  *time.Time // reference time; default the commit time
	Force                bool       // publish even if the build would drop most notes
	// Redact publishes a build whose files hold secrets, each replaced
	// by [REDACTED:rule]; without it such a build is refused (SPEC §6).
	Redact bool
	// Log receives Hugo's own messages; nil discards them.
	Log io.Writer
	// CacheDir is where the query cache goes; "" means the user's cache
	// directory (os.UserCacheDir).
	CacheDir string
	// Budget is the bootstrap's size in tokens; 0 means engram.toml's
	// [bootstrap] budget, or 2,000.
	Budget int
	// Progress, when set, is called with each stage's name as it begins
	// (the names of Report.Stages), for a caller that shows progress.
	Progress func(stage string)
}

// ErrRefused means the build found a problem that must not be published
// (duplicate titles, nothing to publish); the previous output is intact.
var ErrRefused = errors.New("build refused")

// Report is what a build did: counts, diagnostics and time per stage.
type Report struct {
	Repo        string
	Out         string
	Commit      string
	RefTime     time.Time
	Counts      map[string]int
	Diagnostics []note.Diagnostic
	// Stages are in the order they began. Most follow one another; one
	// that runs beside them (similar, beside the end of export) has its
	// own time, within theirs: the times add up to more than the build's.
	Stages []Stage
	// BaseURL is where the site lives, and which setting said so.
	BaseURL BaseURL
	// CacheErr is why a query cache made from another state of the
	// repository could not be removed; the build itself is good, and the
	// next query replaces that cache.
	CacheErr error
	// Pages is what the build took from the page store and kept in it.
	Pages store.PageReuse
	// Parses is what the build took from the parse store.
	Parses store.ParseReuse
}

// Stage is the time one stage took. Times go to the report, never into
// the output.
type Stage struct {
	Name     string
	Duration time.Duration
}

// Build runs the whole job. Problems in the notes are diagnostics in the
// report; the error is for a build that could not run or was refused.
func Build(ctx context.Context, opt Options) (*Report, error) {
	opt = opt.withDefaults()
	r, err := build(ctx, opt)
	if errors.Is(err, ErrRefused) {
		// The queries must not answer what the build refuses to
		// publish (SPEC §6): the query cache goes with the refusal.
		err = errors.Join(err, dropCache(opt))
	}
	return r, err
}

// build is Build, with opt's defaults filled in.
func build(ctx context.Context, opt Options) (*Report, error) {
	r := &Report{Repo: opt.Repo, Out: opt.Out}
	clock := stopwatch{r: r, progress: opt.Progress}
	// The output is checked and locked before anything is read or written.
	out, err := store.ClaimOutput(ctx, opt.Out, opt.Repo, opt.Log)
	if err != nil {
		return r, err
	}
	defer out.Release()

	// The fingerprint is taken before anything is read: a query cache
	// made from it holds what this build reads (dropStaleCache); a note
	// edited during the build makes that cache stale, never wrongly fresh.
	fp, fpErr := fingerprint(opt)
	st, err := pipeline(ctx, opt, &clock, true, func(in *Loaded) error {
		r.Parses = in.parses.Reuse()
		r.Commit, r.RefTime, r.BaseURL = in.Export.Commit, in.Export.ReferenceTime, in.BaseURL
		r.Diagnostics = in.Diagnostics
		r.Counts = in.Counts
		if err := refuseSecrets(opt, in.Secrets); err != nil {
			return err
		}
		return store.Interrupted(ctx)
	})
	if st.in == nil {
		return r, cmp.Or(store.Interrupted(ctx), err)
	}
	in, docs := st.in, st.docs
	// The parse store's next file, written by load, is kept only by a
	// published build (endPages renames it); otherwise it goes here.
	defer in.parses.Discard()
	if err != nil {
		return r, err
	}
	for k, v := range docs.Manifest.Counts {
		r.Counts[k] = v
	}
	if err := refuseShrink(opt, docs, r); err != nil {
		return r, err
	}
	if err := store.Interrupted(ctx); err != nil {
		return r, err
	}
	budget := opt.Budget
	if budget == 0 {
		budget = *in.Config.Bootstrap.Budget
	}
	later, err := laterOf(ctx, &clock, docs, st.search, budget)
	if err != nil {
		return r, cmp.Or(store.Interrupted(ctx), err)
	}
	pub := docs.With(later)
	clock.start("api")
	files, err := pub.Files()
	if err != nil {
		return r, err
	}
	// The pages earlier builds rendered (store/pagecache.go). A page is kept
	// only by a build whose output passed the secret scan, and its key
	// has the scanner's: a page reused is one the same scan passed, and
	// is not scanned again.
	outScan := in.Secrets.Scanner.Output(in.Secrets.Found)
	outKey := outScan.Key()
	var pageCache site.PageCache
	pages, err := store.OpenPages(opt.Repo, opt.CacheDir, in.parses.Next())
	if err != nil {
		r.Pages.Err = err
	} else {
		pageCache = pages
	}
	err = out.Publish(ctx, func(dir string) error {
		// The JSON API and the pages only read the documents and go to
		// different folders: make them at the same time. The API's files
		// are also the JSON twins of the pages that show them.
		// store.WriteOutput lets go of each file's bytes once written (700 MB
		// at 100,000 notes): Render is given their paths only.
		paths := export.Paths(files)
		var sums map[string]secrets.Sum
		written := make(chan error, 1)
		go func() {
			var err error
			sums, err = store.WriteOutput(ctx, dir, files)
			written <- err
		}()
		done, err := site.Render(ctx, pub, dir, site.Options{Log: opt.Log, API: paths, Stage: clock.start, Pages: pageCache, PageSalt: outKey[:]})
		if err := errors.Join(err, <-written); err != nil {
			return err
		}
		clock.start("secrets-out")
		return scanOutput(ctx, outScan, dir, done.Reused, sums, pages)
	})
	if pages != nil {
		var perr error
		r.Pages, perr = endPages(pages, err)
		if err != nil {
			err = errors.Join(err, perr)
		}
	}
	if err == nil {
		// The query cache and the search index serve the queries, never
		// the site: the first query after a build makes them (snapshot.go).
		// One made from another state of the repository may hold what
		// this build no longer publishes (a note turned private), and goes.
		r.CacheErr = dropStaleCache(opt, fp, fpErr)
	}
	clock.stop()
	return r, err
}

// endPages ends the build's use of the page store as its output ended
// (err, nil when published): the store keeps the pages of a published
// output, the pages it reused when the output's scan refused it, and
// otherwise what it kept before (store/pagecache.go). A store left holding
// pages a refused or failed build rendered is an error of the build.
func endPages(pages *store.PageStore, err error) (store.PageReuse, error) {
	switch {
	case err == nil:
		r, err := pages.Commit()
		r.Err = err
		return r, nil
	case errors.Is(err, ErrRefused):
		err = pages.Refuse()
	default:
		err = pages.Abort()
	}
	if err != nil {
		return store.PageReuse{}, fmt.Errorf("the page store may still hold pages of this build, which the next build removes: %w", err)
	}
	return store.PageReuse{}, nil
}

// refuseSecrets refuses a build whose files hold secrets that
// .gitleaksignore does not allow, unless it redacts them; a secret that
// could not be redacted refuses it either way. Each is a diagnostic.
func refuseSecrets(opt Options, sec *secrets.Input) error {
	n := len(unallowed(sec.Found))
	if n == 0 || (opt.Redact && len(sec.Withheld) == 0) {
		return nil
	}
	return fmt.Errorf("%w: %d secrets found in %s (listed above, by rule and fingerprint); nothing was published", ErrRefused, n, opt.Repo)
}

// scanOutput scans the finished output with scan (the input scanner's
// Output) before it is swapped in: a secret there that the input scan
// did not let through refuses the build (SPEC §6). The secrets
// .gitleaksignore allows are let through here too. The pages reused from
// the page store, which the same scan passed, are not scanned again, nor
// the files the build wrote (written: their sums as hashed when written)
// with bytes the scan passed in the output last published.
func scanOutput(ctx context.Context, scan *secrets.Scanner, dir string, reused []string, written map[string]secrets.Sum, pages *store.PageStore) error {
	skip := make(map[string]bool, len(reused))
	for _, p := range reused {
		skip[p] = true
	}
	key := scan.Key()
	var known map[secrets.Sum]bool
	if pages != nil {
		known = pages.KnownScanned(key)
	}
	found, sums, err := scan.ScanDirKnown(ctx, dir, skip, known, written)
	if err != nil {
		return fmt.Errorf("scan the output for secrets: %w", err)
	}
	if len(found) == 0 && pages != nil {
		pages.PassScanned(key, sums, known)
	}
	if len(found) == 0 {
		return nil
	}
	return fmt.Errorf("%w: the output holds %d secrets the input scan did not find; nothing was published:%s",
		ErrRefused, len(found), listFound(found))
}

// listFound lists the first ten findings, a line each, with each secret
// hidden from where they are: an output file's path may be the slug of
// a secret, a note's id the secret itself (a title escaped in YAML).
func listFound(found []secrets.Finding) string {
	var b strings.Builder
	for _, f := range found[:min(len(found), 10)] {
		b.WriteString("\n  " + secrets.Hide(f.String(), found))
	}
	return b.String()
}

// similarEpisodes lists every episode's similar episodes (SPEC §3), by
// episode id: at most SimilarEpisodes, those at or above the model's
// floor (search.SimilarFloor), so some list fewer or none.
func similarEpisodes(sim *search.Similarity) map[string][]export.Similar {
	out := map[string][]export.Similar{}
	for id, ms := range sim.All(SimilarEpisodes) {
		for _, m := range ms {
			out[id] = append(out[id], export.Similar{ID: m.ID, Score: m.Score, URL: m.URL, Headline: m.Headline, Outcome: m.Outcome})
		}
	}
	return out
}

// snapshotOf is what the queries answer from: the documents, the
// bootstrap's candidates and the similarity model of one build.
func snapshotOf(docs *export.Site, boot bootstrap.Candidates, sim *search.Similarity) *query.Snapshot {
	snap := query.FromSite(docs, boot)
	snap.Similar = sim
	return snap
}

// SimilarEpisodes is how many similar episodes an episode lists at most.
const SimilarEpisodes = 5

// bootstrapFiles fits the bootstrap to its budget: bootstrap.json and
// bootstrap.md, and each area's slice, fitted to the
// same budget, in api/v1/bootstrap/, with their index for the manifest.
// A slice whose items do not fit is left out of the index, never an
// error: the whole bootstrap is what the hook falls back to.
func bootstrapFiles(boot bootstrap.Candidates, areas []bootstrap.Slice, budget int) ([]export.File, []export.BootstrapSlice, error) {
	_, js, md, err := bootstrap.Fit(boot, budget)
	if err != nil {
		return nil, nil, err
	}
	files := []export.File{{Path: routes.Bootstrap, Data: js}, {Path: routes.BootstrapText, Data: md}}
	index := []export.BootstrapSlice{}
	for _, a := range areas {
		_, js, md, err := bootstrap.Fit(a.Candidates, budget)
		if err != nil {
			continue
		}
		p := routes.BootstrapSlice(a.Slug)
		files = append(files, export.File{Path: p + ".json", Data: js}, export.File{Path: p + ".md", Data: md})
		index = append(index, export.BootstrapSlice{Area: a.Area, Episodes: a.Episodes, Markdown: p + ".md", JSON: p + ".json"})
	}
	return files, index, nil
}

func (o Options) withDefaults() Options {
	if o.Repo == "" {
		o.Repo = "."
	}
	if o.Out == "" {
		o.Out = "public"
	}
	return o
}

// stopwatch records how long each stage takes, in Report.Stages in the
// order the stages began. The stages of the build's own line follow one
// another (start ends the one before); a stage that runs beside them
// (begin) has a time of its own, which overlaps theirs.
type stopwatch struct {
	r        *Report
	progress func(string)

	mu      sync.Mutex
	current func() // ends the stage start began; nil between stages
}

// start ends the current stage and begins name.
func (s *stopwatch) start(name string) {
	s.stop()
	end := s.begin(name)
	s.mu.Lock()
	s.current = end
	s.mu.Unlock()
}

// stop ends the current stage.
func (s *stopwatch) stop() {
	s.mu.Lock()
	end := s.current
	s.current = nil
	s.mu.Unlock()
	if end != nil {
		end()
	}
}

// begin begins the stage name, which ends when end is called; called
// from the build's own goroutine (Progress is), not from the stage's.
func (s *stopwatch) begin(name string) (end func()) {
	s.mu.Lock()
	i, began := len(s.r.Stages), time.Now()
	s.r.Stages = append(s.r.Stages, Stage{Name: name})
	s.mu.Unlock()
	if s.progress != nil {
		s.progress(name)
	}
	return func() {
		s.mu.Lock()
		s.r.Stages[i].Duration = time.Since(began)
		s.mu.Unlock()
	}
}

// refuseShrink refuses a build that publishes no notes, or fewer than half
// of the notes of the build it replaces (SPEC §6), unless forced.
func refuseShrink(opt Options, docs *export.Site, r *Report) error {
	total := len(docs.Episodes) + len(docs.Patterns) + len(docs.Notes)
	if opt.Force {
		return nil
	}
	if total == 0 {
		return fmt.Errorf("%w: no notes to publish in %s (episodes go in episodes/, patterns in patterns/; see engram.toml [paths])", ErrRefused, opt.Repo)
	}
	if prev, ok := store.PreviousNoteCount(opt.Out); ok && total*2 < prev {
		return fmt.Errorf("%w: this build publishes %d notes, fewer than half of the %d the current output has; rerun with --force if that is intended", ErrRefused, total, prev)
	}
	return nil
}

func newRepoError(dir string, err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("open repository %s: no such directory", dir)
	}
	return err
}
