package site_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
)

// graphJSON is /graph/index.json as the tests read it.
type graphJSON struct {
	Version   int        `json:"version"`
	Unit      float64    `json:"unit"`
	Width     float64    `json:"width"`
	Height    float64    `json:"height"`
	Isolated  int        `json:"isolated"`
	NodeTypes []typeJSON `json:"node_types"`
	EdgeTypes []typeJSON `json:"edge_types"`
	Nodes     []struct {
		ID     string  `json:"id"`
		Type   string  `json:"type"`
		Label  string  `json:"label"`
		URL    string  `json:"url"`
		X      float64 `json:"x"`
		Y      float64 `json:"y"`
		Degree int     `json:"degree"`
	} `json:"nodes"`
	Edges []struct {
		Source int    `json:"source"`
		Target int    `json:"target"`
		Type   string `json:"type"`
	} `json:"edges"`
}

type typeJSON struct {
	Type  string `json:"type"`
	Count int    `json:"count"`
}

func readGraphJSON(t *testing.T, out string) graphJSON {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "graph", "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g graphJSON
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatalf("graph/index.json: %v", err)
	}
	return g
}

// canvasState is what the explorer's canvas says about itself (see the
// top of templates/static/js/graph.js), with its place in the viewport.
type canvasState struct {
	Ready   string  `json:"ready"`
	Nodes   int     `json:"nodes"`
	Edges   int     `json:"edges"`
	Scale   float64 `json:"scale"`
	TX      float64 `json:"tx"`
	TY      float64 `json:"ty"`
	Left    float64 `json:"left"`
	Top     float64 `json:"top"`
	Width   float64 `json:"width"`
	Height  float64 `json:"height"`
	Frames  int     `json:"frames"`
	DrawMs  float64 `json:"drawMs"`
	ReadyMs float64 `json:"readyMs"`
}

const stateJS = `(function () {
  var c = document.getElementById("graph-canvas"), r = c.getBoundingClientRect(), d = c.dataset;
  return {ready: d.ready || "", nodes: +d.nodes || 0, edges: +d.edges || 0, scale: +d.scale || 0, tx: +d.tx || 0, ty: +d.ty || 0,
    left: r.left, top: r.top, width: r.width, height: r.height, frames: +d.frames || 0, drawMs: +d.drawMs || 0, readyMs: +d.readyMs || 0};
})()`

// settle waits for the page to draw what it has scheduled: two animation
// frames.
var settle = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	_, err := chromedp.Evaluate[bool](`new Promise(function (resolve) {
	  requestAnimationFrame(function () { requestAnimationFrame(function () { resolve(true); }); });
	})`, chromedp.EvalAwaitPromise)(ctx, t)
	return err
})

func graphState(ctx context.Context) (canvasState, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[canvasState](stateJS))
}

// screen is where node i is drawn, in viewport coordinates.
func (s canvasState) screen(g graphJSON, i int) (x, y float64) {
	return s.Left + g.Nodes[i].X*s.Scale + s.TX, s.Top + g.Nodes[i].Y*s.Scale + s.TY
}

// problems collects what a page must not do: console errors and
// warnings, exceptions, and the Log domain's entries (CSP violations,
// failed loads).
type problems struct {
	mu   sync.Mutex
	list []string
}

func watchProblems(t *testing.T, ctx context.Context) *problems {
	t.Helper()
	p := &problems{}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			p.list = append(p.list, "console "+string(e.Type))
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
				p.list = append(p.list, string(e.Entry.Source)+": "+e.Entry.Text)
			}
		case *runtime.EventExceptionThrown:
			p.list = append(p.list, "exception: "+e.ExceptionDetails.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *problems) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.list
	p.list = nil
	return l
}

// openGraph loads /graph/ and waits until the explorer has drawn.
func openGraph(t *testing.T, ctx context.Context, base string) canvasState {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(base+"/graph/")); err != nil {
		t.Fatal(err)
	}
	if !waitJS(tctx, `location.pathname === "/graph/" && document.documentElement.dataset.graphReady === "1"`) {
		t.Fatal("the explorer never got ready")
	}
	// Scrolling moves the canvas: let the page draw.
	if err := chromedp.Do(tctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("graph-canvas").scrollIntoView({block: "center"})`), settle); err != nil {
		t.Fatal(err)
	}
	s, err := graphState(tctx)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// waitJS evaluates expr until it is true or ctx ends, and tells which.
// It polls from Go, not in the page: an evaluation fails while a document
// replaces another, and a page in the back-forward cache runs no timers,
// so errors only mean "not yet".
func waitJS(ctx context.Context, expr string) bool {
	for {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func buildSite(t *testing.T, repo string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "public")
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, Now: &now}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBrowserGraph runs the explorer on the demo memory under the
// production CSP: it draws every node and edge, filters, zooms, names
// the node under the pointer and opens a node's page on a click; without
// JavaScript the page lists the most connected nodes.
func TestBrowserGraph(t *testing.T) {
	bin := chromium(t)
	out := buildSite(t, filepath.Join("..", "content"))
	g := readGraphJSON(t, out)
	srv := serveSite(t, out)
	ctx := newBrowser(t, bin)
	probs := watchProblems(t, ctx)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T) {
		t.Helper()
		if p := probs.take(); len(p) > 0 {
			t.Errorf("console or CSP problems: %v", p)
		}
	}

	t.Run("draws every node and edge", func(t *testing.T) {
		s := openGraph(t, ctx, srv.URL)
		if s.Nodes != len(g.Nodes) || s.Edges != len(g.Edges) || len(g.Nodes) == 0 {
			t.Errorf("drawn %d nodes and %d edges, the JSON has %d and %d", s.Nodes, s.Edges, len(g.Nodes), len(g.Edges))
		}
		status, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#graph-status")))
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("Showing %d of %d nodes and %d of %d edges.", len(g.Nodes), len(g.Nodes), len(g.Edges), len(g.Edges)); status != want {
			t.Errorf("status %q, want %q", status, want)
		}
		blank, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(function () {
		  var c = document.getElementById("graph-canvas"), px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		  for (var i = 4; i < px.length; i += 4) if (px[i] !== px[0] || px[i + 1] !== px[1] || px[i + 2] !== px[2]) return false;
		  return true;
		})()`))
		if err != nil || blank {
			t.Errorf("the canvas is blank (%v)", err)
		}
		check(t)
	})

	t.Run("filters an edge type", func(t *testing.T) {
		openGraph(t, ctx, srv.URL)
		typ := g.EdgeTypes[0]
		before, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("graph-canvas").toDataURL()`))
		if err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf("input[name=edge][value=%q]", typ.Type))),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.getElementById("graph-canvas").dataset.edges === "%d"`, len(g.Edges)-typ.Count),
				chromedp.WithPollingTimeout(5*time.Second))); err != nil {
			t.Fatalf("unticking %s: %v", typ.Type, err)
		}
		after, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("graph-canvas").toDataURL()`))
		if err != nil {
			t.Fatal(err)
		}
		if after == before {
			t.Errorf("hiding the %d %s edges changed nothing on the canvas", typ.Count, typ.Type)
		}
		check(t)
	})

	t.Run("zooms with the buttons and the keyboard", func(t *testing.T) {
		s0 := openGraph(t, ctx, srv.URL)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("button[data-zoom=in]")), settle); err != nil {
			t.Fatal(err)
		}
		s1, _ := graphState(ctx)
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#graph-canvas")), chromedp.KeyEvent("0"), settle); err != nil {
			t.Fatal(err)
		}
		s2, _ := graphState(ctx)
		if !(s1.Scale > s0.Scale*1.4) || s2.Scale != s0.Scale {
			t.Errorf("scale %v, then %v after zooming in, then %v after 0", s0.Scale, s1.Scale, s2.Scale)
		}
		check(t)
	})

	t.Run("picks and opens a node with the keyboard", func(t *testing.T) {
		openGraph(t, ctx, srv.URL)
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#graph-canvas"))); err != nil {
			t.Fatal(err)
		}
		// Zoom in on the middle, then move until a node is under the cross.
		status := ""
		for _, key := range []string{"+", "+", kb.ArrowRight, kb.ArrowDown, kb.ArrowLeft, kb.ArrowLeft, kb.ArrowUp, kb.ArrowUp} {
			if err := chromedp.Do(ctx, chromedp.KeyEvent(key), settle); err != nil {
				t.Fatal(err)
			}
			var err error
			if status, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#graph-status"))); err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(status, "Enter opens its page.") {
				break
			}
		}
		s, err := graphState(ctx)
		if err != nil {
			t.Fatal(err)
		}
		picked := -1
		for i, n := range g.Nodes {
			if strings.HasPrefix(status, fmt.Sprintf("%s (%s, %d edges)", cmp.Or(n.Label, n.ID), n.Type, n.Degree)) {
				picked = i
			}
		}
		if picked < 0 || g.Nodes[picked].URL == "" {
			t.Fatalf("no node with a page picked: status %q", status)
		}
		x, y := s.screen(g, picked)
		if d := math.Hypot(x-(s.Left+s.Width/2), y-(s.Top+s.Height/2)); d > 48 {
			t.Errorf("picked %s, %.0f px from the middle", g.Nodes[picked].ID, d)
		}
		shoot(t, ctx, "graph-keyboard.png", false)
		u, _ := url.Parse(g.Nodes[picked].URL)
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
			t.Fatal(err)
		}
		if loc := waitPath(ctx, u.Path); loc != u.Path {
			t.Errorf("Enter on %s: at %s, want %s", g.Nodes[picked].ID, loc, u.Path)
		}
		check(t)
	})

	hub := hubWithURL(g)
	t.Run("names the node under the pointer", func(t *testing.T) {
		s := openGraph(t, ctx, srv.URL)
		x, y := s.screen(g, hub)
		if err := chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, x, y),
			chromedp.WaitVisible(chromedp.CSS("#graph-tip"))); err != nil {
			t.Fatal(err)
		}
		tip, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#graph-tip")))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(tip, g.Nodes[hub].Label) {
			t.Errorf("tooltip %q does not name %q", tip, g.Nodes[hub].Label)
		}
		shoot(t, ctx, "graph-hover-light.png", false)
		check(t)
	})

	t.Run("opens a node's page on a click", func(t *testing.T) {
		s := openGraph(t, ctx, srv.URL)
		x, y := s.screen(g, hub)
		u, _ := url.Parse(g.Nodes[hub].URL)
		if err := chromedp.Do(ctx, chromedp.MouseClickXY(x, y)); err != nil {
			t.Fatal(err)
		}
		if loc := waitPath(ctx, u.Path); loc != u.Path {
			t.Errorf("clicked %s at (%.0f, %.0f): at %s, want %s", g.Nodes[hub].ID, x, y, loc, u.Path)
		}
		check(t)
	})

	t.Run("screenshots", func(t *testing.T) {
		for _, scheme := range []string{"light", "dark"} {
			if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
				t.Fatal(err)
			}
			openGraph(t, ctx, srv.URL)
			shoot(t, ctx, "graph-"+scheme+".png", false)
			shoot(t, ctx, "graph-page-"+scheme+".png", true)
		}
		// A phone: the controls wrap and the canvas keeps its size.
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2))); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900))
		if s := openGraph(t, ctx, srv.URL); s.Width > 390 || s.Height < 300 {
			t.Errorf("on a phone the canvas is %v×%v", s.Width, s.Height)
		}
		shoot(t, ctx, "graph-phone.png", false)
		check(t)
	})

	t.Run("without JavaScript", func(t *testing.T) {
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: false})
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/graph/"), chromedp.WaitVisible(chromedp.CSS("table.graph-hubs tbody tr a")),
			chromedp.WaitNotVisible(chromedp.CSS("#graph-explorer"))); err != nil {
			t.Fatal(err)
		}
		links, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("table.graph-hubs tbody a")).map(function (a) { return a.getAttribute("href"); })`))
		if err != nil {
			t.Fatal(err)
		}
		if want := hubLinks(g); !slices.Equal(links, want) {
			t.Errorf("the most connected nodes link\n%v\nwant\n%v", links, want)
		}
		shoot(t, ctx, "graph-nojs.png", true)
		check(t)
	})
}

// TestBrowserGraphBack: back from a node's page, which the browser
// reloads (no back-forward cache), it restores the boxes as the reader
// left them, and the drawing follows them.
func TestBrowserGraphBack(t *testing.T) {
	bin := chromium(t)
	out := buildSite(t, filepath.Join("..", "content"))
	g := readGraphJSON(t, out)
	srv := serveSite(t, out)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin),
		chromedp.NoSandbox, chromedp.Flag("disable-back-forward-cache", true), chromedp.UserDataDir(t.TempDir()))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	probs := watchProblems(t, ctx)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	openGraph(t, ctx, srv.URL)
	typ := g.EdgeTypes[0]
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf("input[name=edge][value=%q]", typ.Type)))); err != nil {
		t.Fatal(err)
	}
	s, err := graphState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	hub := hubWithURL(g)
	x, y := s.screen(g, hub)
	u, _ := url.Parse(g.Nodes[hub].URL)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(x, y)); err != nil {
		t.Fatal(err)
	}
	if loc := waitPath(ctx, u.Path); loc != u.Path {
		t.Fatalf("clicked %s: at %s", g.Nodes[hub].ID, loc)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`setTimeout(function () { history.back(); }, 0)`)); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if !waitJS(wctx, `location.pathname === "/graph/" && document.documentElement.dataset.graphReady === "1"`) {
		t.Fatal("back: the explorer never got ready")
	}
	want := len(g.Edges)
	for _, et := range g.EdgeTypes {
		checked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.querySelector(%q).checked`, fmt.Sprintf("input[name=edge][value=%q]", et.Type))))
		if err != nil {
			t.Fatal(err)
		}
		if !checked {
			want -= et.Count
		}
	}
	if !waitJS(wctx, fmt.Sprintf(`document.getElementById("graph-canvas").dataset.edges === "%d"`, want)) {
		got, _ := graphState(ctx)
		t.Errorf("back on the page: %d edges drawn, the boxes say %d", got.Edges, want)
	}
	if p := probs.take(); len(p) > 0 {
		t.Errorf("console or CSP problems: %v", p)
	}
	if want == len(g.Edges) {
		t.Errorf("back on the page, every box is ticked again: the browser restored none")
	}
}

// hubLinks are the pages of the 50 most connected nodes, most first, then
// by id, leaving out nodes without a page or without edges.
func hubLinks(g graphJSON) []string {
	idx := make([]int, len(g.Nodes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(g.Nodes[b].Degree, g.Nodes[a].Degree), cmp.Compare(g.Nodes[a].ID, g.Nodes[b].ID))
	})
	var out []string
	for _, i := range idx[:min(50, len(idx))] {
		if n := g.Nodes[i]; n.URL != "" && n.Degree > 0 {
			out = append(out, n.URL)
		}
	}
	return out
}

// hubWithURL is the most connected node that has a page.
func hubWithURL(g graphJSON) int {
	best := -1
	for i, n := range g.Nodes {
		if n.URL != "" && (best < 0 || n.Degree > g.Nodes[best].Degree) {
			best = i
		}
	}
	return best
}

// waitPath waits up to five seconds for the page at path and returns the
// path the browser is at.
func waitPath(ctx context.Context, path string) string {
	loc := ""
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		p, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
		if err != nil {
			continue // the page is changing
		}
		if loc = p; loc == path {
			break
		}
	}
	return loc
}

// shoot saves a screenshot of the viewport, or of the whole page, in
// $ENGRAM_SCREENSHOT_DIR when it is set.
func shoot(t *testing.T, ctx context.Context, name string, whole bool) {
	t.Helper()
	dir := os.Getenv("ENGRAM_SCREENSHOT_DIR")
	if dir == "" {
		return
	}
	shot := chromedp.CaptureScreenshot()
	if whole {
		shot = chromedp.FullScreenshot(100)
	}
	png, err := chromedp.Run(ctx, shot)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserGraphEmpty: a memory without episodes or patterns has an
// empty graph; the page says so and the script does nothing.
func TestBrowserGraphEmpty(t *testing.T) {
	bin := chromium(t)
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "notes", "idea.md"), []byte("---\ntitle: An idea\ndate: 2026-01-02\n---\nNothing links here.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := buildSite(t, repo)
	if g := readGraphJSON(t, out); len(g.Nodes) != 0 || len(g.Edges) != 0 {
		t.Fatalf("graph of a lone note: %d nodes, %d edges", len(g.Nodes), len(g.Edges))
	}
	srv := serveSite(t, out)
	ctx := newBrowser(t, bin)
	probs := watchProblems(t, ctx)
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(srv.URL+"/graph/"), chromedp.WaitVisible(chromedp.CSS("#graph-empty"))); err != nil {
		t.Fatalf("the page does not say the graph is empty: %v", err)
	}
	if p := probs.take(); len(p) > 0 {
		t.Errorf("console or CSP problems: %v", p)
	}
}

// graphNotes is the size of generated memory whose graph has about 2,000
// nodes: each episode brings its decisions.
const graphNotes = 775

func generatedSite(t *testing.T, notes int) string {
	t.Helper()
	o := gen.Sized(notes)
	o.Seed = 20
	repo := t.TempDir()
	if err := source.WriteRepo(repo, gen.Generate(o).Commits); err != nil {
		t.Fatal(err)
	}
	return buildSite(t, repo)
}

// TestBrowserGraph2000 runs the explorer on a generated memory of about
// 2,000 graph nodes: everything is drawn and a click opens the page of
// the node under the pointer.
func TestBrowserGraph2000(t *testing.T) {
	bin := chromium(t)
	out := generatedSite(t, graphNotes)
	g := readGraphJSON(t, out)
	if len(g.Nodes) < 1900 || len(g.Nodes) > 2200 {
		t.Fatalf("%d nodes, want about 2,000", len(g.Nodes))
	}
	srv := serveSite(t, out)
	ctx := newBrowser(t, bin)
	probs := watchProblems(t, ctx)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	s := openGraph(t, ctx, srv.URL)
	if s.Nodes != len(g.Nodes) || s.Edges != len(g.Edges) {
		t.Errorf("drawn %d nodes and %d edges, the JSON has %d and %d", s.Nodes, s.Edges, len(g.Nodes), len(g.Edges))
	}
	shoot(t, ctx, "graph-2000.png", false)
	hub := hubWithURL(g)
	x, y := s.screen(g, hub)
	u, _ := url.Parse(g.Nodes[hub].URL)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(x, y)); err != nil {
		t.Fatal(err)
	}
	if loc := waitPath(ctx, u.Path); loc != u.Path {
		t.Errorf("clicked %s at (%.0f, %.0f): at %s, want %s", g.Nodes[hub].ID, x, y, loc, u.Path)
	}
	if p := probs.take(); len(p) > 0 {
		t.Errorf("console or CSP problems: %v", p)
	}
}

// motionJS moves the view one step a frame for two seconds and reports
// the frames the page drew and their cost. Modes: "pan" drags the canvas
// with pointer events (frames copy the drawn layer), "wheel" turns the
// wheel in and out (frames stretch the layer), "buttons" clicks zoom in
// and out (every frame is drawn anew: the worst case).
const motionJS = `(function (mode) { return new Promise(function (resolve) {
  var c = document.getElementById("graph-canvas"), r = c.getBoundingClientRect();
  var x = r.left + r.width / 2, y = r.top + r.height / 2, t0 = performance.now(), n = 0;
  var f0 = +c.dataset.frames, d0 = +c.dataset.drawMs, tx0 = c.dataset.tx, s0 = c.dataset.scale, changed = false;
  var ev = function (type) { c.dispatchEvent(new PointerEvent(type, {pointerId: 1, pointerType: "mouse", isPrimary: true, button: 0, buttons: type === "pointerup" ? 0 : 1, clientX: x, clientY: y, bubbles: true})); };
  if (mode === "pan") ev("pointerdown");
  (function step() {
    var t = performance.now() - t0;
    changed = changed || c.dataset.tx !== tx0 || c.dataset.scale !== s0;
    if (t >= 2000) {
      if (mode === "pan") ev("pointerup");
      var frames = +c.dataset.frames - f0;
      resolve({seconds: t / 1000, frames: frames, fps: frames / (t / 1000), drawMs: (+c.dataset.drawMs - d0) / Math.max(1, frames), moved: changed});
      return;
    }
    n++;
    if (mode === "wheel") {
      c.dispatchEvent(new WheelEvent("wheel", {deltaY: (n % 40 < 20 ? -1 : 1) * 40, clientX: x, clientY: y, bubbles: true, cancelable: true}));
    } else if (mode === "buttons") {
      document.querySelector(n % 2 ? "button[data-zoom=in]" : "button[data-zoom=out]").click();
    } else {
      x += 6 * Math.cos(n / 20); y += 6 * Math.sin(n / 20);
      ev("pointermove");
    }
    requestAnimationFrame(step);
  })();
}); })`

// TestBrowserGraphPerf measures the explorer for BENCHMARKS.md: the
// first load (navigation start to the first drawing, HTTP cache emptied)
// and the frame rate while panning, without and with 4× CPU throttling.
// ENGRAM_GRAPH_PERF=1 runs it on about 2,000 nodes; a larger number is a
// number of generated notes (10000 gives about 26,000 nodes).
func TestBrowserGraphPerf(t *testing.T) {
	env := os.Getenv("ENGRAM_GRAPH_PERF")
	if env == "" {
		t.Skip("set ENGRAM_GRAPH_PERF=1 to measure the graph explorer")
	}
	notes := graphNotes
	if n, err := strconv.Atoi(env); err == nil && n > 1 {
		notes = n
	}
	bin := chromium(t)
	out := generatedSite(t, notes)
	g := readGraphJSON(t, out)
	info, err := os.Stat(filepath.Join(out, "graph", "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := serveSite(t, out)
	ctx := newBrowser(t, bin)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d notes: %d nodes, %d edges, graph/index.json %d KB", notes, len(g.Nodes), len(g.Edges), info.Size()/1024)
	for _, rate := range []float64{1, 4} {
		if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
			t.Fatal(err)
		}
		var loads []float64
		for range 5 {
			if _, err := chromedp.Call(ctx, network.ClearBrowserCache, cdp.Empty{}); err != nil {
				t.Fatal(err)
			}
			loads = append(loads, openGraph(t, ctx, srv.URL).ReadyMs)
		}
		var motion []string
		for _, mode := range []string{"pan", "wheel", "buttons"} {
			openGraph(t, ctx, srv.URL)
			p, err := chromedp.Run(ctx, chromedp.Evaluate[motionResult](fmt.Sprintf("%s(%q)", motionJS, mode), chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			if !p.Moved || p.Frames == 0 {
				t.Errorf("%s: %d frames, moved: %v", mode, p.Frames, p.Moved)
			}
			motion = append(motion, fmt.Sprintf("%s %.1f fps (%.2f ms drawing a frame)", mode, p.FPS, p.DrawMs))
		}
		slices.Sort(loads)
		t.Logf("CPU ×%v: first load median %.0f ms (of %v); %s", rate, loads[len(loads)/2], loads, strings.Join(motion, ", "))
	}
}

type motionResult struct {
	Seconds float64 `json:"seconds"`
	Frames  int     `json:"frames"`
	FPS     float64 `json:"fps"`
	DrawMs  float64 `json:"drawMs"`
	Moved   bool    `json:"moved"`
}
