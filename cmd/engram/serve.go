package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/site"
)

// engram serve (SPEC §5): the site of the working tree on localhost,
// built as engram build builds it, rebuilt when the repository changes,
// with the headers of the deployed site. Each build goes into a new
// folder of a private temporary directory; the server switches to it at
// once and keeps serving the last good one while a build fails.

const (
	// pollEvery is how often the repository's fingerprint is taken: a
	// stat of every file, a few milliseconds for the demo. Polling sees
	// new folders and an editor's rename-on-save as they are read.
	pollEvery = 250 * time.Millisecond
	// settleFor is how long the fingerprint must hold still before a
	// rebuild: an editor's several writes make one build.
	settleFor = 100 * time.Millisecond
)

func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	repo := fs.String("repo", "", "memory repository (default: . or ./content)")
	port := fs.Int("port", 1313, "port on localhost (0: any free port)")
	now := fs.String("now", "", "reference time (default: the commit time)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ref, err := parseNow(*now)
	if err != nil {
		return err
	}
	if *port < 0 || *port > 65535 {
		return fmt.Errorf("%w: serve: --port must be a port number from 0 (any free port) to 65535", errUsage)
	}
	if *repo == "" {
		*repo = defaultRepo()
	}
	p := &preview{
		opt:    indexer.Options{Repo: *repo, Now: ref, Log: stderr, CacheDir: os.Getenv(cacheEnv)},
		stdout: stdout, stderr: stderr, started: time.Now(),
	}
	// A repository that is not there fails as a build fails, before
	// anything listens.
	fp, err := indexer.Fingerprint(p.opt)
	if err != nil {
		return err
	}
	ln, err := listen(*port)
	if err != nil {
		return err
	}
	p.root, err = os.MkdirTemp("", "engram-serve-")
	if err != nil {
		ln.Close()
		return fmt.Errorf("serve: %w", err)
	}
	defer os.RemoveAll(p.root)
	// Links of the preview point at the preview, whatever base_url the
	// published site has.
	p.url = fmt.Sprintf("http://localhost:%d/", ln.Addr().(*net.TCPAddr).Port)
	p.opt.BaseURL = p.url
	return p.run(ctx, ln, fp)
}

// listen listens on localhost only: the preview is for the author.
func listen(port int) (net.Listener, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("serve: port %d on localhost is in use (another engram serve?); choose another with --port, or --port 0 for any free port", port)
	}
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	return ln, nil
}

// preview is one engram serve: the build loop writes generations, the
// HTTP handlers read the current one.
type preview struct {
	opt            indexer.Options
	stdout, stderr io.Writer
	root, url      string
	started        time.Time

	current atomic.Pointer[generation]

	// Only the build loop touches these.
	builds  int      // builds started, naming their folders
	shown   int      // generations published, naming their versions
	printed []string // the diagnostics last printed
}

// generation is what the server serves: the last good build (none yet:
// a placeholder page) and the problems of the latest build.
type generation struct {
	dir      string       // the build's output; "" before one succeeded
	files    http.Handler // site.Handler of dir
	problems []string     // error diagnostics and a failed build's error
	failed   bool         // the latest build failed; dir is an older one
	version  string       // names this generation to the pages it serves
	// changed is closed when a newer generation replaces this one.
	changed chan struct{}
}

// run serves until ctx is cancelled, rebuilding on every change.
func (p *preview) run(ctx context.Context, ln net.Listener, fp string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p.publish(&generation{})
	// Requests end with ctx: the live-reload streams stop at Ctrl-C.
	srv := &http.Server{Handler: p.handler(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	served := make(chan error, 1)
	go func() {
		served <- srv.Serve(ln)
		cancel()
	}()
	p.rebuild(ctx, fp)
	if ctx.Err() == nil {
		fmt.Fprintf(p.stdout, "engram serve: %s (Ctrl-C to stop)\n", p.url)
		p.watch(ctx, fp)
	}
	stop, cancelStop := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancelStop()
	srv.Shutdown(stop)
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// watch takes the repository's fingerprint every pollEvery and rebuilds
// when it moved on from built and then held still for settleFor.
func (p *preview) watch(ctx context.Context, built string) {
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		fp := p.fingerprint()
		if fp == built {
			continue
		}
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(settleFor):
			}
			again := p.fingerprint()
			if again == fp {
				break
			}
			fp = again
		}
		// The fingerprint is taken before the build reads anything: an
		// edit during the build makes the next one.
		p.rebuild(ctx, fp)
		built = fp
	}
}

// fingerprint is the repository's fingerprint, or its error: a
// repository that went away is rebuilt once, and the build says why.
func (p *preview) fingerprint() string {
	fp, err := indexer.Fingerprint(p.opt)
	if err != nil {
		return "error: " + err.Error()
	}
	return fp
}

// rebuild builds the working tree into a new folder and serves it; a
// build that fails keeps the last good one and shows why.
func (p *preview) rebuild(ctx context.Context, fp string) {
	p.builds++
	opt := p.opt
	opt.Out = filepath.Join(p.root, "site-"+strconv.Itoa(p.builds))
	began := time.Now()
	r, err := indexer.Build(ctx, opt)
	if ctx.Err() != nil {
		return
	}
	var diags []note.Diagnostic
	if r != nil {
		diags = r.Diagnostics
	}
	p.report(diags, err, time.Since(began))
	cur := p.current.Load()
	next := &generation{dir: cur.dir, files: cur.files, problems: problems(diags, err), failed: err != nil}
	if err == nil {
		next.dir, next.files = opt.Out, site.Handler(opt.Out, "")
	} else if next.dir == cur.dir && next.failed == cur.failed && slices.Equal(next.problems, cur.problems) {
		return // the open pages show this already
	}
	p.publish(next)
	p.prune(next.dir, cur.dir)
}

// report prints a build's diagnostics when they changed since the last
// ones printed, and how the build went.
func (p *preview) report(diags []note.Diagnostic, err error, took time.Duration) {
	lines := make([]string, 0, len(diags))
	for _, d := range diags {
		lines = append(lines, d.String())
	}
	if !slices.Equal(lines, p.printed) {
		printDiagnostics(p.stderr, diags, false)
		p.printed = lines
	}
	if err != nil {
		fmt.Fprintf(p.stderr, "engram serve: the build failed; the preview shows the last good one: %v\n", err)
		return
	}
	e, w, _ := severityCounts(diags)
	fmt.Fprintf(p.stdout, "engram serve: built in %d ms (%d errors, %d warnings)\n", took.Milliseconds(), e, w)
}

// problems are what the banner lists: the error that failed the build,
// then the error diagnostics.
func problems(diags []note.Diagnostic, err error) []string {
	var out []string
	if err != nil {
		out = append(out, err.Error())
	}
	for _, d := range diags {
		if d.Severity == note.Error {
			out = append(out, d.String())
		}
	}
	return out
}

// publish makes next the generation served, and tells the open pages.
func (p *preview) publish(next *generation) {
	next.version = fmt.Sprintf("%x-%d", p.started.UnixNano(), p.shown)
	next.changed = make(chan struct{})
	p.shown++
	if prev := p.current.Swap(next); prev != nil {
		close(prev.changed)
	}
}

// prune removes the folders of older builds, keeping the one served
// and the one before it: a request that began on it still finds its
// files.
func (p *preview) prune(keep ...string) {
	entries, err := os.ReadDir(p.root)
	if err != nil {
		return
	}
	for _, e := range entries {
		path := filepath.Join(p.root, e.Name())
		if !slices.Contains(keep, path) {
			os.RemoveAll(path)
		}
	}
}
