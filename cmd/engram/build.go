package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/config"
	"github.com/engramhq/engram/indexer/note"
)

// errStrict is a build or check that found error diagnostics under --strict.
var errStrict = errors.New("error diagnostics under --strict")

func cmdBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	repo := fs.String("repo", "", "memory repository (default: . or ./content)")
	out := fs.String("out", "public", "output directory")
	baseURL := fs.String("base-url", "", "base URL of the published site, http(s)://host/path/ (default: engram.toml base_url, else Netlify's $URL, else none: relative links)")
	now := fs.String("now", "", "reference time (default: the commit time)")
	strict := fs.Bool("strict", false, "exit 1 when any error diagnostic is found")
	force := fs.Bool("force", false, "publish even when the build would drop more than half of the notes")
	redact := fs.Bool("redact", false, "publish files that hold secrets with each secret replaced by [REDACTED:rule] (default: refuse)")
	verbose := fs.Bool("v", false, "print every diagnostic, info ones too (default: the first 40 errors and warnings, the rest counted by rule)")
	budget := fs.Int("budget", 0, "bootstrap size in tokens (default: engram.toml [bootstrap] budget, or 2000)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ref, err := parseNow(*now)
	if err != nil {
		return err
	}
	if *repo == "" {
		*repo = defaultRepo()
	}
	if *budget < 0 {
		return fmt.Errorf("%w: build: --budget must be a number of tokens above 0", errUsage)
	}
	began := time.Now()
	host, hostFrom := hostURL(os.Getenv)
	bar := startProgress(stderr, began)
	r, err := indexer.Build(ctx, indexer.Options{Repo: *repo, Out: *out, BaseURL: *baseURL, HostURL: host, HostURLFrom: hostFrom,
		Now: ref, Force: *force, Redact: *redact, Log: stderr, Budget: *budget, CacheDir: os.Getenv(cacheEnv), Progress: bar.stage})
	bar.stop()
	if r != nil {
		printDiagnostics(stderr, r.Diagnostics, *verbose)
	}
	if err != nil {
		return err
	}
	printSummary(stdout, r, time.Since(began))
	switch b := r.BaseURL; {
	case b.URL == "":
		why := ""
		if b.Why != "" {
			why = " (" + b.Why + ")"
		}
		fmt.Fprintf(stderr, "engram: no base URL%s: the sitemap, RSS, feed.json and llms.txt link relatively, which their readers may not follow; give one with --base-url, base_url in engram.toml, or by building on a host that names it (Netlify, Cloudflare Pages, Vercel, GitLab Pages: docs/publishing.md). The pages link relatively and work from disk or under any path.\n", why)
	case !b.Absolute():
		fmt.Fprintf(stderr, "engram: the base URL %s (%s) has no host: the sitemap, RSS, feed.json and llms.txt link with paths, which their readers may not follow; give the whole URL (https://host%s).\n", b.URL, b.From, b.URL)
	}
	if r.CacheErr != nil {
		fmt.Fprintf(stderr, "engram: warning: the query cache of an earlier state of the repository could not be removed (%v); the next query replaces it\n", r.CacheErr)
	}
	if r.Pages.Err != nil {
		fmt.Fprintf(stderr, "engram: warning: %v; the next build renders these pages again\n", r.Pages.Err)
	}
	if r.Parses.Err != nil {
		fmt.Fprintf(stderr, "engram: warning: %v; the next build parses these notes again\n", r.Parses.Err)
	}
	if r.Parses.Reset != nil {
		fmt.Fprintf(stderr, "engram: warning: the parse store was not read (%v): every note was parsed\n", r.Parses.Reset)
	}
	if r.Pages.Reset != nil {
		fmt.Fprintf(stderr, "engram: warning: the page store was not read (%v): it was started afresh, and every page rendered\n", r.Pages.Reset)
	}
	if r.Pages.Damaged > 0 {
		fmt.Fprintf(stderr, "engram: warning: %d pages in the page store were damaged (their bytes failed their SHA-256): they were rendered again\n", r.Pages.Damaged)
	}
	if *strict && note.CountErrors(r.Diagnostics) > 0 {
		fmt.Fprintf(stderr, "engram: %d error diagnostics; failing because of --strict\n", note.CountErrors(r.Diagnostics))
		return errStrict
	}
	return nil
}

// maxShown is how many diagnostics a build prints before it counts the
// rest by rule: a repository with thousands of problems gets a screen of
// them and the totals, and engram check (or api/v1/diagnostics.json) has
// every one.
const maxShown = 40

// printDiagnostics writes errors, then warnings, and info lines when
// verbose (or a count of them); past maxShown, unless verbose, the rest
// are counted by rule.
func printDiagnostics(w io.Writer, ds []note.Diagnostic, verbose bool) {
	var shown []note.Diagnostic
	infos := 0
	for _, sev := range []note.Severity{note.Error, note.Warning, note.Info} {
		for _, d := range ds {
			switch {
			case d.Severity != sev:
			case sev == note.Info && !verbose:
				infos++
			default:
				shown = append(shown, d)
			}
		}
	}
	limit := maxShown
	if verbose {
		limit = len(shown)
	}
	for _, d := range shown[:min(len(shown), limit)] {
		fmt.Fprintln(w, d.String())
	}
	if rest := shown[min(len(shown), limit):]; len(rest) > 0 {
		type rule struct {
			sev  note.Severity
			name string
		}
		count := map[rule]int{}
		for _, d := range rest {
			count[rule{d.Severity, d.Rule}]++
		}
		// Errors first, then the commonest, then by name.
		rules := slices.SortedFunc(maps.Keys(count), func(a, b rule) int {
			return cmp.Or(cmp.Compare(b.sev, a.sev), cmp.Compare(count[b], count[a]), cmp.Compare(a.name, b.name))
		})
		fmt.Fprintf(w, "… and %d more (engram check lists every one; so does api/v1/diagnostics.json):\n", len(rest))
		for _, r := range rules {
			fmt.Fprintf(w, "  %6d %s %s\n", count[r], r.sev, r.name)
		}
	}
	if infos > 0 {
		fmt.Fprintf(w, "(%d info diagnostics not shown: use -v, or engram check)\n", infos)
	}
}

func printSummary(w io.Writer, r *indexer.Report, total time.Duration) {
	commit := "a plain directory"
	if r.Commit != "" {
		commit = "commit " + r.Commit[:min(12, len(r.Commit))]
	}
	fmt.Fprintf(w, "engram %s: built %s into %s (%s, reference time %s)\n\n", config.Version, r.Repo, r.Out, commit, r.RefTime.Format(time.RFC3339))
	for _, k := range []string{"episodes", "patterns", "antipatterns", "notes", "edges", "private"} {
		if v, ok := r.Counts[k]; ok {
			fmt.Fprintf(w, "  %-14s %6d\n", k, v)
		}
	}
	e, wn, in := severityCounts(r.Diagnostics)
	fmt.Fprintf(w, "  %-14s %6d errors, %d warnings, %d info\n\n", "diagnostics", e, wn, in)
	for _, s := range r.Stages {
		fmt.Fprintf(w, "  %-14s %6d ms\n", s.Name, s.Duration.Milliseconds())
	}
	if p := r.Parses; p.Reused > 0 {
		fmt.Fprintf(w, "  %-14s %6d notes as parsed by earlier builds, %d parsed\n", "parse", p.Reused, p.Parsed)
	}
	if p := r.Pages; p.Reused+p.Rendered > 0 {
		fmt.Fprintf(w, "  %-14s %6d reused from earlier builds, %d rendered\n", "pages", p.Reused, p.Rendered)
	}
	if n := r.Pages.ScanKnown; n > 0 {
		fmt.Fprintf(w, "  %-14s %6d other files the same bytes as in the last output, not scanned again\n", "secrets-out", n)
	}
	fmt.Fprintf(w, "Total in %d ms\n\n", total.Milliseconds())
	switch b := r.BaseURL; {
	case b.URL == "":
		fmt.Fprintf(w, "The site is in %s. Look at it: open %s in a browser, or run engram serve (a live preview).\n", r.Out, fileURL(filepath.Join(r.Out, "index.html")))
	default:
		fmt.Fprintf(w, "The site is in %s, for %s (from %s): publish that folder as it is.\n", r.Out, b.URL, b.From)
		fmt.Fprintln(w, "Look at it with engram serve (a live preview of the repository).")
	}
}

// fileURL is the file:// URL of file, which terminals let one open.
func fileURL(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// hostURL is the deploy URL the host gives the build in its environment
// (SPEC §4, docs/publishing.md), and the variable's name; "" where none
// is set. The hosts' own variables come first, Netlify's URL (a name any
// environment may hold) last:
//   - Cloudflare Pages: CF_PAGES_URL, the deployment's own address (it has
//     none for the production domain: engram.toml's base_url gives that);
//   - Vercel: for a production deploy (VERCEL_ENV) the project's production
//     address, VERCEL_PROJECT_PRODUCTION_URL; else the branch's,
//     VERCEL_BRANCH_URL, or the deployment's, VERCEL_URL: hosts without a
//     scheme, served over https;
//   - GitLab Pages: CI_PAGES_URL, the Pages address, with the project's path;
//   - Netlify: URL, the site's main address, and for deploy previews and
//     branch deploys (CONTEXT) DEPLOY_PRIME_URL, the address of that deploy.
//
// A value that is not an http(s) URL is returned as it is: the build says
// so and makes the site relative (indexer.resolveBaseURL).
func hostURL(getenv func(string) string) (string, string) {
	for _, host := range []func(func(string) string) (string, string){cloudflareURL, vercelURL, gitlabURL, netlifyURL} {
		if u, from := host(getenv); u != "" {
			return u, from
		}
	}
	return "", ""
}

func cloudflareURL(getenv func(string) string) (string, string) {
	return getenv("CF_PAGES_URL"), "$CF_PAGES_URL"
}

func vercelURL(getenv func(string) string) (string, string) {
	names := []string{"VERCEL_BRANCH_URL", "VERCEL_URL"}
	if getenv("VERCEL_ENV") == "production" {
		names = []string{"VERCEL_PROJECT_PRODUCTION_URL", "VERCEL_URL"}
	}
	for _, name := range names {
		if h := strings.TrimSpace(getenv(name)); h != "" {
			if !strings.Contains(h, "://") {
				h = "https://" + h
			}
			return h, "$" + name
		}
	}
	return "", ""
}

func gitlabURL(getenv func(string) string) (string, string) {
	return getenv("CI_PAGES_URL"), "$CI_PAGES_URL"
}

func netlifyURL(getenv func(string) string) (string, string) {
	switch getenv("CONTEXT") {
	case "deploy-preview", "branch-deploy":
		if u := getenv("DEPLOY_PRIME_URL"); u != "" {
			return u, "$DEPLOY_PRIME_URL"
		}
	}
	return getenv("URL"), "$URL"
}

func severityCounts(ds []note.Diagnostic) (errs, warns, infos int) {
	for _, d := range ds {
		switch d.Severity {
		case note.Error:
			errs++
		case note.Warning:
			warns++
		default:
			infos++
		}
	}
	return errs, warns, infos
}
