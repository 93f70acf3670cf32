package site_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/site/browsertest"
)

// graphJSON is /graph/index.json as the tests read it.
type graphJSON struct {
	Version int     `json:"version"`
	Unit    float64 `json:"unit"`
	Width   float64 `json:"width"`
	Height  float64 `json:"height"`
	Core    struct {
		X      float64 `json:"x"`
		Y      float64 `json:"y"`
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"core"`
	Isolated    int        `json:"isolated"`
	SmallChains int        `json:"small_chains"`
	SmallNodes  int        `json:"small_nodes"`
	NodeTypes   []typeJSON `json:"node_types"`
	EdgeTypes   []typeJSON `json:"edge_types"`
	Nodes       []struct {
		ID     string  `json:"id"`
		Type   string  `json:"type"`
		Label  string  `json:"label"`
		URL    string  `json:"url"`
		X      float64 `json:"x"`
		Y      float64 `json:"y"`
		Degree int     `json:"degree"`
		Small  bool    `json:"small"`
		Part   bool    `json:"part"`
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

// drawn counts what the explorer draws at first: the nodes but the small
// chains', and the edges between them but those of the types in hidden.
func (g graphJSON) drawn(hidden ...string) (nodes, edges int) {
	for _, n := range g.Nodes {
		if !n.Small {
			nodes++
		}
	}
	for _, e := range g.Edges {
		if !g.Nodes[e.Source].Small && !g.Nodes[e.Target].Small && !slices.Contains(hidden, e.Type) {
			edges++
		}
	}
	return nodes, edges
}

// components are the graph's connected components as the test finds
// them, largest first.
func (g graphJSON) components() [][]int {
	parent := make([]int, len(g.Nodes))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for _, e := range g.Edges {
		parent[find(e.Source)] = find(e.Target)
	}
	byRoot := map[int][]int{}
	for i := range g.Nodes {
		byRoot[find(i)] = append(byRoot[find(i)], i)
	}
	out := make([][]int, 0, len(byRoot))
	for _, c := range byRoot {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b []int) int { return cmp.Or(cmp.Compare(len(b), len(a)), cmp.Compare(a[0], b[0])) })
	return out
}

// links counts each node's edges, its own parts' included: what the
// explorer ranks labels by.
func (g graphJSON) links() []int {
	out := make([]int, len(g.Nodes))
	for _, e := range g.Edges {
		out[e.Source]++
		if e.Target != e.Source {
			out[e.Target]++
		}
	}
	return out
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
	Small   string  `json:"small"`
	// Labels are the labels in the view: node, then the box in CSS pixels
	// from the canvas's top-left corner.
	Labels [][5]float64 `json:"labels"`
}

const stateJS = `(function () {
  var c = document.getElementById("graph-canvas"), r = c.getBoundingClientRect(), d = c.dataset;
  return {ready: d.ready || "", nodes: +d.nodes || 0, edges: +d.edges || 0, scale: +d.scale || 0, tx: +d.tx || 0, ty: +d.ty || 0,
    left: r.left, top: r.top, width: r.width, height: r.height, frames: +d.frames || 0, drawMs: +d.drawMs || 0, readyMs: +d.readyMs || 0,
    small: d.small || "", labels: JSON.parse(d.labels || "[]")};
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

// openGraph loads /graph/ and waits until the explorer has drawn.
func openGraph(t *testing.T, ctx context.Context, base string) canvasState {
	t.Helper()
	tctx, cancel := context.WithCancel(ctx)
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
	// Served from the root as a deployed site is: links from "/".
	browsertest.Build(t, repo, out, "/")
	return out
}

// TestBrowserGraphBack: back from a node's page, which the browser
// reloads (no back-forward cache), it restores the boxes as the reader
// left them, and the drawing follows them.
func TestBrowserGraphBack(t *testing.T) {
	bin := browsertest.Chromium(t)
	out := buildSite(t, filepath.Join("..", "content"))
	g := readGraphJSON(t, out)
	srv := serveSite(t, out)
	ctx := browsertest.New(t, bin, chromedp.Flag("disable-back-forward-cache", true))
	probs := browsertest.Watch(t, ctx)
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
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if !waitJS(wctx, `location.pathname === "/graph/" && document.documentElement.dataset.graphReady === "1"`) {
		t.Fatal("back: the explorer never got ready")
	}
	var hidden []string
	for _, et := range g.EdgeTypes {
		checked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.querySelector(%q).checked`, fmt.Sprintf("input[name=edge][value=%q]", et.Type))))
		if err != nil {
			t.Fatal(err)
		}
		if !checked {
			hidden = append(hidden, et.Type)
		}
	}
	_, want := g.drawn(hidden...)
	_, all := g.drawn()
	if !waitJS(wctx, fmt.Sprintf(`document.getElementById("graph-canvas").dataset.edges === "%d"`, want)) {
		got, _ := graphState(ctx)
		t.Errorf("back on the page: %d edges drawn, the boxes say %d", got.Edges, want)
	}
	if p := probs.Take(); len(p) > 0 {
		t.Errorf("console or CSP problems: %v", p)
	}
	if want == all {
		t.Errorf("back on the page, every box is ticked again: the browser restored none")
	}
}

// hubLinks are the pages of the 20 most connected notes, most first,
// then by id: an episode counts the links of its own decisions and
// events (each link once, the "contains" edges not at all), and the parts
// are not listed themselves. Notes without a page are listed but not
// linked; notes without links are not listed.
func hubLinks(g graphJSON) []string {
	owner := make([]int, len(g.Nodes))
	for i := range owner {
		owner[i] = i
	}
	part := make([]bool, len(g.Nodes))
	for _, e := range g.Edges {
		if e.Type == "contains" {
			owner[e.Target], part[e.Target] = e.Source, true
		}
	}
	links := make([]int, len(g.Nodes))
	for _, e := range g.Edges {
		if e.Type != "contains" {
			links[owner[e.Source]]++
			if owner[e.Target] != owner[e.Source] {
				links[owner[e.Target]]++
			}
		}
	}
	var idx []int
	for i := range g.Nodes {
		if !part[i] && links[i] > 0 {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(links[b], links[a]), cmp.Compare(g.Nodes[a].ID, g.Nodes[b].ID))
	})
	var out []string
	for _, i := range idx[:min(20, len(idx))] {
		if n := g.Nodes[i]; n.URL != "" {
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

// waitPath waits for the page at path, until ctx ends (the test's
// deadline), and returns the path the browser is at.
func waitPath(ctx context.Context, path string) string {
	loc := ""
	for {
		if p, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`)); err == nil { // else the page is changing
			if loc = p; loc == path {
				return loc
			}
		}
		select {
		case <-ctx.Done():
			return loc
		case <-time.After(50 * time.Millisecond):
		}
	}
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
	bin := browsertest.Chromium(t)
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
	ctx := browsertest.New(t, bin)
	probs := browsertest.Watch(t, ctx)
	tctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(srv.URL+"/graph/"), chromedp.WaitVisible(chromedp.CSS("#graph-empty"))); err != nil {
		t.Fatalf("the page does not say the graph is empty: %v", err)
	}
	if p := probs.Take(); len(p) > 0 {
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
