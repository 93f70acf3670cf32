package site_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/engramhq/engram/site/browsertest"
)

// TestBrowserGraph runs the explorer on the demo memory under the
// production CSP: it draws every node and edge, filters, zooms, names
// the node under the pointer and opens a node's page on a click or with
// the keyboard; without JavaScript the page lists the most connected
// nodes.
func TestBrowserGraph(t *testing.T) {
	bin := browsertest.Chromium(t)
	out := buildSite(t, filepath.Join("..", "content"))
	srv := serveSite(t, out)
	ctx := browsertest.New(t, bin)
	f := &explorer{g: readGraphJSON(t, out), base: srv.URL, ctx: ctx, probs: browsertest.Watch(t, ctx)}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	t.Run("draws every node and edge", f.draws)
	t.Run("filters an edge type", f.filters)
	t.Run("zooms with the buttons and the keyboard", f.zooms)
	t.Run("picks and opens a node with the keyboard", f.keyboard)
	t.Run("names the node under the pointer", f.hover)
	t.Run("opens a node's page on a click", f.click)
	t.Run("screenshots", f.screenshots)
	t.Run("without JavaScript", f.noScript)
}

// explorer is TestBrowserGraph's browser on the demo's explorer.
type explorer struct {
	g     graphJSON
	base  string
	ctx   context.Context
	probs *browsertest.Problems
}

func (f *explorer) check(t *testing.T) {
	t.Helper()
	if p := f.probs.Take(); len(p) > 0 {
		t.Errorf("console or CSP problems: %v", p)
	}
}

func (f *explorer) draws(t *testing.T) {
	s := openGraph(t, f.ctx, f.base)
	nodes, edges := f.g.drawn()
	if s.Nodes != nodes || s.Edges != edges || len(f.g.Nodes) == 0 {
		t.Errorf("drawn %d nodes and %d edges, want %d and %d", s.Nodes, s.Edges, nodes, edges)
	}
	status, err := chromedp.Run(f.ctx, chromedp.Text(chromedp.CSS("#graph-status")))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("Showing %d of %d nodes and %d of %d edges.", nodes, len(f.g.Nodes), edges, len(f.g.Edges)); status != want {
		t.Errorf("status %q, want %q", status, want)
	}
	blank, err := chromedp.Run(f.ctx, chromedp.Evaluate[bool](`(function () {
	  var c = document.getElementById("graph-canvas"), px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
	  for (var i = 4; i < px.length; i += 4) if (px[i] !== px[0] || px[i + 1] !== px[1] || px[i + 2] !== px[2]) return false;
	  return true;
	})()`))
	if err != nil || blank {
		t.Errorf("the canvas is blank (%v)", err)
	}
	f.check(t)
}

func (f *explorer) filters(t *testing.T) {
	openGraph(t, f.ctx, f.base)
	typ := f.g.EdgeTypes[0]
	before, err := chromedp.Run(f.ctx, chromedp.Evaluate[string](`document.getElementById("graph-canvas").toDataURL()`))
	if err != nil {
		t.Fatal(err)
	}
	_, want := f.g.drawn(typ.Type)
	if err := chromedp.Do(f.ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf("input[name=edge][value=%q]", typ.Type))),
		chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.getElementById("graph-canvas").dataset.edges === "%d"`, want),
			chromedp.WithPollingTimeout(0))); err != nil { // no time of its own: the context's, the test's deadline
		t.Fatalf("unticking %s: %v", typ.Type, err)
	}
	after, err := chromedp.Run(f.ctx, chromedp.Evaluate[string](`document.getElementById("graph-canvas").toDataURL()`))
	if err != nil {
		t.Fatal(err)
	}
	if after == before {
		t.Errorf("hiding the %d %s edges changed nothing on the canvas", typ.Count, typ.Type)
	}
	f.check(t)
}

func (f *explorer) zooms(t *testing.T) {
	s0 := openGraph(t, f.ctx, f.base)
	if err := chromedp.Do(f.ctx, chromedp.Click(chromedp.CSS("button[data-zoom=in]")), settle); err != nil {
		t.Fatal(err)
	}
	s1, _ := graphState(f.ctx)
	if err := chromedp.Do(f.ctx, chromedp.Focus(chromedp.CSS("#graph-canvas")), chromedp.KeyEvent("0"), settle); err != nil {
		t.Fatal(err)
	}
	s2, _ := graphState(f.ctx)
	if !(s1.Scale > s0.Scale*1.4) || s2.Scale != s0.Scale {
		t.Errorf("scale %v, then %v after zooming in, then %v after 0", s0.Scale, s1.Scale, s2.Scale)
	}
	f.check(t)
}

func (f *explorer) keyboard(t *testing.T) {
	openGraph(t, f.ctx, f.base)
	if err := chromedp.Do(f.ctx, chromedp.Focus(chromedp.CSS("#graph-canvas"))); err != nil {
		t.Fatal(err)
	}
	// Zoom in on the middle, then move until a node is under the cross.
	status := ""
	for _, key := range []string{"+", "+", kb.ArrowRight, kb.ArrowDown, kb.ArrowLeft, kb.ArrowLeft, kb.ArrowUp, kb.ArrowUp} {
		if err := chromedp.Do(f.ctx, chromedp.KeyEvent(key), settle); err != nil {
			t.Fatal(err)
		}
		var err error
		if status, err = chromedp.Run(f.ctx, chromedp.Text(chromedp.CSS("#graph-status"))); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(status, "Enter opens its page.") {
			break
		}
	}
	s, err := graphState(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	picked := -1
	for i, n := range f.g.Nodes {
		if strings.HasPrefix(status, fmt.Sprintf("%s (%s, %d links)", cmp.Or(n.Label, n.ID), n.Type, n.Degree)) {
			picked = i
		}
	}
	if picked < 0 || f.g.Nodes[picked].URL == "" {
		t.Fatalf("no node with a page picked: status %q", status)
	}
	x, y := s.screen(f.g, picked)
	if d := math.Hypot(x-(s.Left+s.Width/2), y-(s.Top+s.Height/2)); d > 48 {
		t.Errorf("picked %s, %.0f px from the middle", f.g.Nodes[picked].ID, d)
	}
	shoot(t, f.ctx, "graph-keyboard.png", false)
	u, _ := url.Parse(f.g.Nodes[picked].URL)
	if err := chromedp.Do(f.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	if loc := waitPath(f.ctx, u.Path); loc != u.Path {
		t.Errorf("Enter on %s: at %s, want %s", f.g.Nodes[picked].ID, loc, u.Path)
	}
	f.check(t)
}

func (f *explorer) hover(t *testing.T) {
	hub := hubWithURL(f.g)
	s := openGraph(t, f.ctx, f.base)
	x, y := s.screen(f.g, hub)
	if err := chromedp.Do(f.ctx, chromedp.MouseEvent(chromedp.MouseMoved, x, y),
		chromedp.WaitVisible(chromedp.CSS("#graph-tip"))); err != nil {
		t.Fatal(err)
	}
	tip, err := chromedp.Run(f.ctx, chromedp.Text(chromedp.CSS("#graph-tip")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tip, f.g.Nodes[hub].Label) {
		t.Errorf("tooltip %q does not name %q", tip, f.g.Nodes[hub].Label)
	}
	shoot(t, f.ctx, "graph-hover-light.png", false)
	f.check(t)
}

func (f *explorer) click(t *testing.T) {
	hub := hubWithURL(f.g)
	s := openGraph(t, f.ctx, f.base)
	x, y := s.screen(f.g, hub)
	u, _ := url.Parse(f.g.Nodes[hub].URL)
	if err := chromedp.Do(f.ctx, chromedp.MouseClickXY(x, y)); err != nil {
		t.Fatal(err)
	}
	if loc := waitPath(f.ctx, u.Path); loc != u.Path {
		t.Errorf("clicked %s at (%.0f, %.0f): at %s, want %s", f.g.Nodes[hub].ID, x, y, loc, u.Path)
	}
	f.check(t)
}

func (f *explorer) screenshots(t *testing.T) {
	for _, scheme := range []string{"light", "dark"} {
		if _, err := chromedp.Call(f.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
			t.Fatal(err)
		}
		openGraph(t, f.ctx, f.base)
		shoot(t, f.ctx, "graph-"+scheme+".png", false)
		shoot(t, f.ctx, "graph-page-"+scheme+".png", true)
	}
	// A phone: the controls wrap and the canvas keeps its size.
	if err := chromedp.Do(f.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	defer chromedp.Do(f.ctx, chromedp.EmulateViewport(1280, 900))
	if s := openGraph(t, f.ctx, f.base); s.Width > 390 || s.Height < 300 {
		t.Errorf("on a phone the canvas is %v×%v", s.Width, s.Height)
	}
	if w, err := chromedp.Run(f.ctx, chromedp.Evaluate[[]float64](`[document.documentElement.scrollWidth, innerWidth]`)); err != nil || w[0] > w[1] {
		t.Errorf("on a phone the page is %v px wide in a %v px window (%v)", w[0], w[1], err)
	}
	shoot(t, f.ctx, "graph-phone.png", false)
	f.check(t)
}

func (f *explorer) noScript(t *testing.T) {
	if _, err := chromedp.Call(f.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	defer chromedp.Call(f.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: false})
	if err := chromedp.Do(f.ctx, chromedp.Navigate(f.base+"/graph/"), chromedp.WaitVisible(chromedp.CSS("ol.graph-hubs li a")),
		chromedp.WaitNotVisible(chromedp.CSS("#graph-explorer"))); err != nil {
		t.Fatal(err)
	}
	links, err := chromedp.Run(f.ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("ol.graph-hubs a")).map(function (a) { return a.getAttribute("href"); })`))
	if err != nil {
		t.Fatal(err)
	}
	if want := hubLinks(f.g); !slices.Equal(links, want) {
		t.Errorf("the most connected nodes link\n%v\nwant\n%v", links, want)
	}
	shoot(t, f.ctx, "graph-nojs.png", true)
	f.check(t)
}
