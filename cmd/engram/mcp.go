package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/config"
	"github.com/engramhq/engram/indexer/query"
	"github.com/engramhq/engram/indexer/store"
)

// The MCP server (SPEC §5.2): the query commands' answers for agents,
// over stdio. cmd/engram is the only package that imports the go-sdk;
// each tool is one file, mcp_<tool>.go, with its arguments, its compact
// answer and the query.Snapshot method it shares with the CLI.

// mcpEngine answers the tools from the query snapshot, as a query
// command does. A query process reads the cache once; a server answers
// many calls, and decoding the cache's parts again costs 60 to 170 ms at
// 10,000 notes. So the engine holds the snapshot it read with the
// repository's fingerprint, and when fresh has passed since the last
// check it takes the fingerprint again (a stat of every file): the same,
// it answers from what it holds; moved on, it reads the snapshot again.
type mcpEngine struct {
	q      queryFlags
	stderr io.Writer
	tools  toolSet // the tools the server lists

	// mu serialises the calls: a snapshot builds indexes on first use.
	mu      sync.Mutex
	held    *query.Snapshot
	parts   store.Part // what held holds
	fp      string     // the repository's fingerprint when held was read
	checked time.Time
	fresh   time.Duration
}

// freshFor is how long a snapshot is answered from without checking
// whether the repository moved on: the calls of a busy agent skip the
// stat of every file.
const freshFor = time.Second

// mcpTools register the tools, one function per tool file.
var mcpTools = []func(*mcpEngine, *mcp.Server){
	(*mcpEngine).addBootstrap,
	(*mcpEngine).addSearch,
	(*mcpEngine).addGetEpisode,
	(*mcpEngine).addGetPattern,
	(*mcpEngine).addQueryEpisodes,
	(*mcpEngine).addGetDecisionSequence,
	(*mcpEngine).addQueryPatterns,
	(*mcpEngine).addGetAntipatterns,
	(*mcpEngine).addGetCausalPath,
	(*mcpEngine).addWhatIf,
	(*mcpEngine).addSimilarEpisodes,
	(*mcpEngine).addGetPendingThreads,
	(*mcpEngine).addResources,
	(*mcpEngine).addStoreEpisode,
	(*mcpEngine).addUpsertEpisode,
	(*mcpEngine).addAddPattern,
	(*mcpEngine).addRecordFeedback,
	(*mcpEngine).addLinkEpisodeToConcept,
	(*mcpEngine).addMarkThreadStatus,
}

func cmdMCP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, q := newQueryFlags("mcp")
	tools := fs.String("tools", string(toolsDefault), "the tools listed, a profile: `default|all|read|write` (docs/mcp.md)")
	fs.StringVar(&q.base, "base-url", "", "the published site's http(s) URL: answers link there, not to site paths (default: engram.toml base_url)")
	if _, err := parseArgs(fs, args, 0, ""); err != nil {
		return err
	}
	ts, err := parseToolSet(*tools)
	if err != nil {
		return err
	}
	if q.base != "" {
		base, err := indexer.AbsoluteBaseURL(q.base)
		if err != nil {
			return fmt.Errorf("%w: mcp: --base-url: %v", errUsage, err)
		}
		q.base = base
	}
	if _, err := parseNow(q.now); err != nil {
		return err
	}
	if q.repo == "" {
		q.repo = defaultRepo()
	}
	srv := newCheckingMCPServer(*q, stderr, freshFor, ts)
	t := &lineTransport{r: os.Stdin, w: stdout, log: stderr, maxLine: mcp.DefaultMaxLineLength}
	if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}

// newCheckingMCPServer is the server with the tools of tools and every
// resource, checking the repository once fresh has passed since the
// last check (0: at every call).
func newCheckingMCPServer(q queryFlags, stderr io.Writer, fresh time.Duration, tools toolSet) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "engram", Title: "engram memory", Version: config.Version}, &mcp.ServerOptions{
		Instructions: "engram is the memory of past agent sessions: episodes (what was done, decided, and how it turned out), " +
			"patterns and antipatterns, and a causal graph. Call bootstrap at the start of a session; get_episode and " +
			"engram://episode/{id} give one episode compactly, with a json_url for the whole of it.",
	})
	e := &mcpEngine{q: q, stderr: stderr, fresh: fresh, tools: tools}
	for _, add := range mcpTools {
		add(e, srv)
	}
	return srv
}

// snapshot is the query snapshot holding parts, as the CLI opens it;
// the caller answers from it and then calls done, and no other call
// runs in between.
func (e *mcpEngine) snapshot(ctx context.Context, parts store.Part) (snap *query.Snapshot, done func(), err error) {
	e.mu.Lock()
	if e.held != nil && parts&^e.parts == 0 {
		if time.Since(e.checked) < e.fresh {
			return e.held, e.mu.Unlock, nil
		}
		if fp, err := e.fingerprint(); err == nil && e.fp != "" && fp == e.fp {
			e.checked = time.Now()
			return e.held, e.mu.Unlock, nil
		}
	}
	parts |= e.parts
	q := e.q
	// The fingerprint is taken before the snapshot is read: a note
	// changed in between makes the next check read it again, never miss it.
	fp, fpErr := e.fingerprint()
	snap, err = q.snapshot(ctx, e.stderr, parts)
	if err != nil {
		e.mu.Unlock()
		return nil, nil, err
	}
	snap.Rebase(q.base)
	if e.held != nil {
		e.held.Close()
	}
	e.held, e.parts, e.checked = snap, parts, time.Now()
	e.fp = fp
	if fpErr != nil {
		e.fp = ""
	}
	return snap, e.mu.Unlock, nil
}

// fingerprint is the repository's fingerprint, as the query snapshot
// compares it with its cache's.
func (e *mcpEngine) fingerprint() (string, error) {
	return indexer.Fingerprint(indexer.Options{Repo: e.q.repo, CacheDir: os.Getenv(cacheEnv)})
}

// readOnly marks a tool that reads the memory and nothing else. Each
// token of a definition is paid in every session of every client, so
// the annotations say only what a client acts on: the title is the
// tool's (annotations.title is its older place), and openWorldHint is
// left out (every tool here answers from the repository alone).
func readOnly(name, title, desc string) *mcp.Tool {
	return &mcp.Tool{Name: name, Title: title, Description: desc, Annotations: &mcp.ToolAnnotations{
		ReadOnlyHint: true, IdempotentHint: true,
	}}
}

// Argument limits: an id is a note title and a query a sentence or
// two; anything longer is a mistake (a whole note pasted as its name)
// that would cost every later step time, so it is refused first.
const (
	maxIDBytes   = 1024
	maxTextBytes = 8 << 10
)

// argument checks that a string argument is given (when need) and is not
// over max bytes, saying what to fix.
func argument(name, v string, need bool, max int) error {
	switch {
	case need && strings.TrimSpace(v) == "":
		return fmt.Errorf("%s is empty: give %s", name, argHelp[name])
	case len(v) > max:
		return fmt.Errorf("%s is %d bytes, more than the %d allowed: give %s", name, len(v), max, argHelp[name])
	}
	return nil
}

var argHelp = map[string]string{
	"id":       "a note id (its title, or the slug of its page), as search or query_episodes return it",
	"episode":  "an episode id (its title), as query_episodes or search return it",
	"from":     "a note id (its title), as search returns it",
	"to":       "a note id (its title), as search returns it",
	"decision": "a decision id of the episode, such as d001 (get_decision_sequence lists them)",
	"option":   "one of the decision's options, as get_decision_sequence lists them",
	"query":    "a few words to search for",
	"text":     "a short description of the situation",
	"outcome":  "success, partial or failure",
	"since":    "a duration back (7d, 36h, 2w) or a date (2026-08-01)",
	"tag":      "a tag",
	"task":     "a few words of the task",
	"trigger":  "a few words of the trigger",
	"cursor":   "the next_cursor of the previous page, as it was returned",
	"type":     "episode, pattern or note",
}

// pageArgs are the arguments of every list tool.
type pageArgs struct {
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the page before"`
	Limit  int    `json:"limit,omitempty" jsonschema:"1 to 50 (default 10)"`
	// BudgetTokens caps the answer's size (query.FitCount): the page
	// ends early, truncated, where the next item would not fit.
	BudgetTokens int `json:"budget_tokens,omitempty" jsonschema:"cap on the answer's tokens"`
}

// page is one page of a list: the list shape of SPEC §4.0 with the
// total and the cursor of the next page, absent on the last.
type page[T any] struct {
	ReferenceTime string `json:"reference_time"`
	Total         int    `json:"total"`
	Items         []T    `json:"items"`
	NextCursor    string `json:"next_cursor,omitempty"`
	// Truncated: the page holds fewer items than asked, to fit
	// budget_tokens; next_cursor goes on from the first left out.
	Truncated bool `json:"truncated,omitempty"`
}

const (
	defaultPage = 10
	maxPage     = 50
)

// window checks a page's arguments: the offset and size of the page.
func (p pageArgs) window() (offset, size int, err error) {
	size = p.Limit
	if size == 0 {
		size = defaultPage
	}
	if size < 1 || size > maxPage {
		return 0, 0, fmt.Errorf("limit is %d: give 1 to %d items per page, and a cursor for the next", p.Limit, maxPage)
	}
	if _, err := query.CheckBudget(p.BudgetTokens); err != nil {
		return 0, 0, err
	}
	if p.Cursor == "" {
		return 0, size, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(p.Cursor)
	if err == nil && len(p.Cursor) <= 64 {
		if n, ok := strings.CutPrefix(string(b), "offset:"); ok {
			if offset, err = strconv.Atoi(n); err == nil && offset >= 0 {
				return offset, size, nil
			}
		}
	}
	return 0, 0, fmt.Errorf("cursor %.40q is not one this server returned: give %s, or none for the first page", p.Cursor, argHelp["cursor"])
}

// paginate cuts one page out of all items, each made compact by card.
func paginate[T, C any](snap *query.Snapshot, all []T, p pageArgs, card func(T) C) (page[C], error) {
	offset, size, err := p.window()
	if err != nil {
		return page[C]{}, err
	}
	out := page[C]{ReferenceTime: query.List(snap, all).ReferenceTime, Total: len(all), Items: []C{}}
	for i := offset; i < len(all) && i < offset+size; i++ {
		out.Items = append(out.Items, card(all[i]))
	}
	budget, _ := query.CheckBudget(p.BudgetTokens)
	k := query.FitCount(len(out.Items), budget, func(k int) int { return countJSON(out.upTo(offset, k)) })
	return out.upTo(offset, k), nil
}

// upTo is the page holding its first k items, with the cursor of the
// item after them and truncated when it held more.
func (p page[C]) upTo(offset, k int) page[C] {
	p.Truncated = k < len(p.Items)
	p.Items = p.Items[:k]
	p.NextCursor = ""
	if offset+k < p.Total {
		p.NextCursor = base64.RawURLEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(offset+k)))
	}
	return p
}

func same[T any](t T) T { return t }
