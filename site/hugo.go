package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/bep/logg"
	"github.com/gohugoio/hugo/common/herrors"
	"github.com/gohugoio/hugo/common/hmaps"
	"github.com/gohugoio/hugo/common/loggers"
	"github.com/gohugoio/hugo/config"
	"github.com/gohugoio/hugo/config/allconfig"
	"github.com/gohugoio/hugo/deps"
	"github.com/gohugoio/hugo/hugofs"
	"github.com/gohugoio/hugo/hugolib"
	hugopage "github.com/gohugoio/hugo/resources/page"
	"github.com/spf13/afero"
	"github.com/spf13/fsync"
)

// hugoMu serialises Hugo builds in this process. Hugo keeps one
// process-wide logger (loggers.SetGlobalLogger, called by
// allconfig.LoadConfig) that receives deprecation notices and whose
// error count fails every build; two builds at once would see each other's
// log lines and errors. This guards Hugo's global, it holds no state of ours.
var hugoMu sync.Mutex

// hugoEnviron is the whole environment Hugo's config loader sees.
// allconfig.LoadConfig reads os.Environ() when given an empty one, and
// every HUGO_* variable (HUGO_BASEURL, HUGO_TITLE, HUGO_PUBLISHDIR...)
// then overrides the config file and even hugoFlags. Under `go test` it
// skips os.Environ(), so a fixed, HUGO_-free, non-empty list also makes
// the binary behave as the tests do.
const hugoEnviron = "ENGRAM=1"

// maxErrorLines caps the logged Hugo errors quoted in a returned error.
const maxErrorLines = 10

// renderHugoFs builds the Hugo site whose sources (hugo.toml or config/,
// content/, layouts/, static/...) are in workDir of src, which may be an
// in-memory file system (engram's generated content then never touches
// the disk), and writes it into publishDir, writing Hugo's warnings and
// errors to log (nil: discarded). Errors Hugo only logs are quoted in the
// returned error.
//
// Hugo never removes files from its publish directory, so publishDir must
// be a fresh, empty directory (or not exist yet): stale pages would
// otherwise survive. Nothing is written outside workDir and publishDir.
// When ctx ends, the render stops at its next page (buildHugo). relative
// makes the links of every page relative to it (relativeFs). r, when set,
// keeps the pages it marks in its cache as they are written (keepFs).
func renderHugoFs(ctx context.Context, src afero.Fs, workDir, publishDir string, log io.Writer, relative bool, r *reuse) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("render site: %w", err)
	}
	workDir, err := filepath.Abs(workDir)
	if err != nil {
		return fmt.Errorf("render site %s: %w", workDir, err)
	}
	publishDir, err = filepath.Abs(publishDir)
	if err != nil {
		return fmt.Errorf("render site %s: %w", publishDir, err)
	}
	if log == nil {
		log = io.Discard
	}
	errs := &errorLog{}
	var dst afero.Fs = hugofs.Os
	if r != nil {
		// Under relativeFs: the cache keeps the bytes as they are on disk.
		dst = keepFs{Fs: dst, r: r}
	}
	if relative {
		dst = relativeFs{Fs: dst, root: publishDir}
	}
	dst = untilDone{Fs: dst, ctx: ctx}
	if err := buildHugo(ctx, src, dst, workDir, publishDir, io.MultiWriter(errs, log)); err != nil {
		return fmt.Errorf("render site: %w", errs.annotate(err))
	}
	return nil
}

// buildHugo drives hugolib the way Hugo's own integration-test builder
// does (hugolib/integrationtest_builder.go) rather than through
// commands.Execute, which parses os.Args and sets process-wide state.
func buildHugo(ctx context.Context, src, dst afero.Fs, workDir, publishDir string, log io.Writer) (err error) {
	hugoMu.Lock()
	defer hugoMu.Unlock()
	logger := newHugoLogger(log)
	// Config loading may log deprecations through the global logger
	// before LoadConfig installs ours; install it first so nothing reaches
	// os.Stderr, and put back whatever was there when done.
	defer loggers.SetGlobalLogger(loggers.Log())
	loggers.SetGlobalLogger(logger)

	sites, err := newHugoSites(src, dst, hugoFlags(workDir, publishDir), logger, log)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, sites.Close()) }()
	// Hugo caches sorted page lists (.ByDate, .ByTitle...) in a
	// process-wide cache that it empties when the next render starts, not
	// when this one ends: until then every page of the site is reachable,
	// half the build's live memory. Empty it when done.
	defer hugopage.Clear()
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := copyStatic(sites); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// Hugo takes no context. Its fatal error is how it stops itself: the
	// walk over the pages stops handing them to the renderers, which
	// finish the pages in hand (untilDone gives them nowhere to go). So
	// Ctrl-C stops a render within a few pages, not at its end.
	stop := context.AfterFunc(ctx, func() { sites.FatalError(context.Cause(ctx)) })
	defer stop()
	// NoBuildLock here as well as in the config: the lock file would be
	// written into workDir, and under `go test` Hugo never takes it.
	err = sites.Build(hugolib.BuildCfg{NoBuildLock: true})
	if cerr := ctx.Err(); cerr != nil {
		return cerr // what Hugo said of stopping is not the reason
	}
	return err
}

// untilDone is the publish file system until ctx ends; then a file
// created or opened for writing goes nowhere, so that a render told to
// stop writes no more pages. Nowhere, not an error: a renderer that
// meets an error once Hugo is stopping quits, and Hugo's walk over the
// pages may then wait forever to hand it the next page (hugolib v0.165,
// Site.renderPages; so it may after ten errors of any kind).
type untilDone struct {
	afero.Fs
	ctx context.Context
}

func (f untilDone) Create(name string) (afero.File, error) {
	if f.ctx.Err() != nil {
		return nowhere(name)
	}
	return f.Fs.Create(name)
}

func (f untilDone) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if f.ctx.Err() != nil && flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE) != 0 {
		return nowhere(name)
	}
	return f.Fs.OpenFile(name, flag, perm)
}

// nowhere is a file whose bytes are dropped with it.
func nowhere(name string) (afero.File, error) {
	return afero.NewMemMapFs().Create(name)
}

// newHugoSites loads the configuration and sets up the sites to build,
// reading src and writing dst.
func newHugoSites(src, dst afero.Fs, flags config.Provider, logger loggers.Logger, log io.Writer) (*hugolib.HugoSites, error) {
	configs, err := allconfig.LoadConfig(allconfig.ConfigSourceDescriptor{
		Fs:          src,
		Logger:      logger,
		Flags:       flags,
		ConfigDir:   "config",
		Environment: "production",
		Environ:     []string{hugoEnviron},
	})
	if err != nil {
		return nil, err
	}
	return hugolib.NewHugoSites(deps.DepsCfg{
		Configs:  configs,
		Fs:       hugofs.NewFromSourceAndDestination(src, dst, flags),
		LogLevel: logger.Level(),
		StdOut:   log,
		StdErr:   log,
	})
}

// copyStatic copies the static directories into the publish directory.
// hugolib.Build renders pages only: the hugo command copies static files
// itself (commands/hugobuilder.go, copyStaticTo), concurrently with the
// build. Copying first, in a fixed order, lets a rendered page win a path
// clash every time, as it does in Hugo with cleanDestinationDir.
func copyStatic(sites *hugolib.HugoSites) error {
	static := sites.BaseFs.SourceFilesystems.Static
	for _, lang := range slices.Sorted(maps.Keys(static)) {
		src := static[lang]
		syncer := fsync.NewSyncer()
		syncer.SrcFs = src.Fs
		syncer.DestFs = sites.Fs.PublishDirStatic
		syncer.NoTimes = sites.Configs.Base.NoTimes
		syncer.NoChmod = sites.Configs.Base.NoChmod
		syncer.ChmodFilter = keepWritable
		root := string(filepath.Separator)
		err := syncer.Sync(filepath.Join(root, src.PublishFolder), root)
		if err != nil && !herrors.IsNotExist(err) {
			return fmt.Errorf("copy static files: %w", err)
		}
	}
	return nil
}

// keepWritable skips copying the mode of directories and read-only files,
// as the hugo command does, so the published tree stays removable.
func keepWritable(_, src os.FileInfo) bool {
	return src.IsDir() || src.Mode().Perm()&0o200 == 0
}

// hugoFlags are the settings that override the site's own config file.
func hugoFlags(workDir, publishDir string) config.Provider {
	flags := config.New()
	flags.Set("workingDir", workDir)
	flags.Set("publishDir", publishDir)
	// Without cacheDir Hugo uses os.UserCacheDir() (~/.cache/hugo_cache),
	// or a temp dir under `go test`: keep it in the workspace, alike in both.
	flags.Set("cacheDir", filepath.Join(workDir, ".cache"))
	// .hugo_build.lock would otherwise be created in workDir.
	flags.Set("noBuildLock", true)
	flags.Set("environment", "production")
	// engram decides what is published: a note dated after the reference
	// time is in the JSON and feed.json, so its page must be too (SPEC
	// §6). Hugo by default leaves out pages dated in the future, and
	// expired or draft ones (engram writes no expiryDate or draft).
	flags.Set("buildFuture", true)
	flags.Set("buildExpired", true)
	// No network, no external programs, no process environment: the output
	// must depend on workDir alone. "none" denies everything. This also
	// stops Hugo modules, which need the go command.
	flags.Set("security", hmaps.Params{
		"exec":  hmaps.Params{"allow": []string{"none"}, "osEnv": []string{"none"}},
		"http":  hmaps.Params{"urls": []string{"none"}},
		"funcs": hmaps.Params{"getenv": []string{"none"}},
	})
	return flags
}

// newHugoLogger logs warnings and errors to w. Hugo's default logger
// writes to os.Stderr.
func newHugoLogger(w io.Writer) loggers.Logger {
	return loggers.New(loggers.Options{
		Level:         logg.LevelWarn,
		DistinctLevel: logg.LevelWarn,
		StdOut:        w,
		StdErr:        w,
	})
}

// ansiEscape matches the colour codes Hugo adds when os.Stderr is a terminal.
var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// errorLog keeps the ERROR lines of Hugo's log. A build that fails because
// something was logged at error level (errorf in a template, a broken ref)
// returns only "logged N error(s)"; the lines say what went wrong.
type errorLog struct {
	mu      sync.Mutex
	partial []byte
	lines   []string
}

func (e *errorLog) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.partial = append(e.partial, p...)
	for {
		i := bytes.IndexByte(e.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		e.add(string(e.partial[:i]))
		e.partial = e.partial[i+1:]
	}
}

func (e *errorLog) add(line string) {
	line = strings.TrimSpace(ansiEscape.ReplaceAllString(line, ""))
	msg, ok := strings.CutPrefix(line, "ERROR ")
	if ok && len(e.lines) < maxErrorLines {
		e.lines = append(e.lines, msg)
	}
}

// annotate appends the logged errors to err.
func (e *errorLog) annotate(err error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.lines) == 0 {
		return err
	}
	return fmt.Errorf("%w: %s", err, strings.Join(e.lines, "; "))
}
