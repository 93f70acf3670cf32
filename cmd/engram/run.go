package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/config"
)

// Exit codes (SPEC §5).
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

const usage = `engram turns a git repository of agent memory into JSON indexes and a site.

Usage:
  engram build [--repo DIR] [--out public] [--base-url URL] [--now TIME] [--budget 2000] [--strict] [--force] [--redact] [-v]
  engram check [--repo DIR] [--format text|json|github] [--strict]
  engram import ai-agents DIR [--repo DIR] [--force] [--commit] [-v]
  engram export --format ai-agents --out DIR [--repo DIR] [--now TIME] [-v]
  engram episodes [--outcome O] [--since 7d] [--tag T] [--task TEXT] [--json]
  engram decisions EPISODE [--json]
  engram patterns [--min-success 0.7] [--min-occurrences 3] [--json]
  engram antipatterns [--max-success 0.3] [--min-occurrences 2] [--json]
  engram path FROM TO [--max-depth 5] [--json]
  engram whatif --episode E --decision D [--option O] [--json]
  engram bootstrap [--budget 2000] [--format md|json]
  engram search QUERY [--type episode|pattern|note] [--limit 10] [--expand] [--json]
  engram similar (TEXT | --episode E) [--limit 5] [--json]
  engram events similar --context '{"k":"v"}' [--limit 10] [--json]
  engram prune [--apply] [--repo DIR] [--now TIME]
  engram mine [--repo DIR] [--json] [--limit N] [--write CANDIDATE-ID ... [--commit]]
                                         pattern candidates mined from the episodes (docs/mining.md)
  engram extract [--repo DIR] [--out DIR] [--force] [--commit] [-v] SESSION.md…
  engram new episode|pattern [--title T] [--json FILE|-] [--task T --outcome O | --trigger T --action A --success-rate R] [--tags a,b] [--force] [--commit]
  engram feedback echo|fizzle NOTE [--session S] [--commit]
  engram events add [--json FILE|-] [--commit]
  engram link EPISODE CONCEPT [--commit]
  engram thread status THREAD pending|processing|completed [--commit]
  engram init [DIR] [--force]            a new memory repository (docs/publishing.md)
  engram hook install [--repo DIR] [--force]   a git pre-push hook: engram check --strict
  engram setup claude-code|codex|cursor|vscode [--repo DIR] [--dry-run] [--remove] [--force]
                                         the client's MCP configuration and session-start hook (docs/mcp.md)
  engram serve [--repo DIR] [--port 1313] [--now TIME]   live preview on localhost
  engram mcp [--repo DIR] [--now TIME] [--tools default|all|read|write]   MCP server on stdio (docs/mcp.md)
  engram version

--repo defaults to the current directory, or to ./content when the current
directory holds no memory repository but ./content does (the demo).
Queries (episodes ... similar) take --repo and --now too. They answer from
the cache the last build left (in $ENGRAM_CACHE_DIR, or the user's cache
directory), and read the repository again when it has changed since.

A build refuses when a file holds a secret (gitleaks' default rules, and
engram's own for a password in a URL): allow a false positive by its
fingerprint in .gitleaksignore, or build with --redact to publish it as
[REDACTED:rule].

engram serve builds the working tree as build does into a temporary
directory, serves it on localhost with the published site's headers, and
rebuilds when the repository changes: open pages reload, and errors show
in the terminal and on the page (docs/publishing.md).

The write commands (new, feedback, events add, link, thread status) take
--repo. In a git repository they stage what they write (engram reads only
tracked files), or with --commit make one commit of exactly those files.
`

// queries are the commands that answer from the query cache.
var queries = map[string]bool{"episodes": true, "decisions": true, "patterns": true, "antipatterns": true, "path": true, "whatif": true, "bootstrap": true, "search": true, "similar": true}

// errUsage marks errors in the command line: exit code 2.
var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	var err error
	switch args[0] {
	case "build":
		err = cmdBuild(ctx, args[1:], stdout, stderr)
	case "check":
		err = cmdCheck(ctx, args[1:], stdout, stderr)
	case "import":
		err = cmdImport(ctx, args[1:], stdout, stderr)
	case "export":
		err = cmdExport(ctx, args[1:], stdout, stderr)
	case "episodes":
		err = cmdEpisodes(ctx, args[1:], stdout, stderr)
	case "decisions":
		err = cmdDecisions(ctx, args[1:], stdout, stderr)
	case "patterns":
		err = cmdPatterns(ctx, args[1:], stdout, stderr)
	case "antipatterns":
		err = cmdAntipatterns(ctx, args[1:], stdout, stderr)
	case "path":
		err = cmdPath(ctx, args[1:], stdout, stderr)
	case "whatif":
		err = cmdWhatIf(ctx, args[1:], stdout, stderr)
	case "bootstrap":
		err = cmdBootstrap(ctx, args[1:], stdout, stderr)
	case "search":
		err = cmdSearch(ctx, args[1:], stdout, stderr)
	case "similar":
		err = cmdSimilar(ctx, args[1:], stdout, stderr)
	case "events":
		err = cmdEvents(ctx, args[1:], stdout, stderr)
	case "prune":
		err = cmdPrune(ctx, args[1:], stdout, stderr)
	case "mine":
		err = cmdMine(ctx, args[1:], stdout, stderr)
	case "extract":
		err = cmdExtract(ctx, args[1:], stdout, stderr)
	case "new":
		err = cmdNew(ctx, args[1:], stdout, stderr)
	case "feedback":
		err = cmdFeedback(ctx, args[1:], stdout, stderr)
	case "link":
		err = cmdLink(ctx, args[1:], stdout, stderr)
	case "thread":
		err = cmdThread(ctx, args[1:], stdout, stderr)
	case "init":
		err = cmdInit(ctx, args[1:], stdout, stderr)
	case "hook":
		err = cmdHook(ctx, args[1:], stdout, stderr)
	case "setup":
		err = cmdSetup(ctx, args[1:], stdout, stderr)
	case "serve":
		err = cmdServe(ctx, args[1:], stdout, stderr)
	case "mcp":
		err = cmdMCP(ctx, args[1:], stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "engram", config.Version)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "engram: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "engram: %v\n", err)
		return exitUsage
	case errors.Is(err, errStrict):
		return exitFail
	}
	fmt.Fprintf(stderr, "engram: %v\n", err)
	return exitFail
}

// flags parses a command's flags; problems are usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return fmt.Errorf("%w: %s takes: %s", errUsage, fs.Name(), flagList(fs))
		}
		return fmt.Errorf("%w: %s: %v", errUsage, fs.Name(), err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: %s: unexpected argument %q", errUsage, fs.Name(), fs.Arg(0))
	}
	return nil
}

func flagList(fs *flag.FlagSet) string {
	s := ""
	fs.VisitAll(func(f *flag.Flag) {
		s += " --" + f.Name
		if strings.Contains(f.Usage, "`") { // the values it takes, as `a|b`
			name, _ := flag.UnquoteUsage(f)
			s += " " + name
		}
	})
	return s
}

// cacheEnv names the environment variable that says where the query
// cache goes (indexer.Options.CacheDir); unset, the user's cache
// directory.
const cacheEnv = "ENGRAM_CACHE_DIR"

// defaultRepo is ".", or "content" when "." holds no memory repository and
// ./content does: running engram in its own source tree builds the demo.
func defaultRepo() string {
	if looksLikeMemory(".") || !looksLikeMemory("content") {
		return "."
	}
	return "content"
}

func looksLikeMemory(dir string) bool {
	for _, name := range []string{config.File, "episodes", "patterns"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}

func parseNow(s string) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			t = t.UTC()
			return &t, nil
		}
	}
	return nil, fmt.Errorf("%w: --now %q is not an RFC 3339 time or a date", errUsage, s)
}
