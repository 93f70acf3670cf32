package site_test

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/engramhq/engram/site/browsertest"
)

// TestBrowserGraph2000 runs the explorer on a generated memory of about
// 2,000 graph nodes, hundreds of them in small chains (an episode and its
// one or two decisions, linked to nothing else): the connected core is
// drawn first and fills the view, the small chains are a count until the
// reader shows them, the most linked nodes are named, a click opens the
// page of the node under the pointer, the page stays short, and a phone
// gets it without scrolling sideways.
func TestBrowserGraph2000(t *testing.T) {
	bin := browsertest.Chromium(t)
	out := generatedSite(t, graphNotes)
	g := readGraphJSON(t, out)
	if len(g.Nodes) < 1900 || len(g.Nodes) > 2200 {
		t.Fatalf("%d nodes, want about 2,000", len(g.Nodes))
	}
	if g.SmallChains < 100 {
		t.Fatalf("%d small chains: the generated memory no longer has the shape this test needs", g.SmallChains)
	}
	srv := serveSite(t, out)
	ctx := browsertest.New(t, bin)
	f := &explorer{g: g, base: srv.URL, ctx: ctx, probs: browsertest.Watch(t, ctx)}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	t.Run("draws the connected core first", f.coreFirst)
	t.Run("counts the small chains", f.smallCount)
	t.Run("shows the small chains when asked", f.showSmall)
	t.Run("names the most linked nodes", f.labels)
	t.Run("names more nodes zoomed in", f.moreLabels)
	t.Run("opens a node's page on a click", f.click)
	t.Run("keeps the page short", f.short)
	t.Run("fits a phone", f.phone)
	t.Run("sums up the small chains without JavaScript", f.noScriptChains)
}

func (f *explorer) coreFirst(t *testing.T) {
	s := openGraph(t, f.ctx, f.base)
	nodes, edges := f.g.drawn()
	if s.Nodes != nodes || s.Edges != edges || s.Small != "hidden" {
		t.Errorf("drawn %d nodes and %d edges (small chains %s), want %d and %d without the small chains", s.Nodes, s.Edges, s.Small, nodes, edges)
	}
	// The largest component is all in view, and fills it one way.
	core := f.g.components()[0]
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, i := range core {
		x, y := s.screen(f.g, i)
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	if x0 < s.Left || y0 < s.Top || x1 > s.Left+s.Width || y1 > s.Top+s.Height {
		t.Errorf("the core (%d nodes) spans (%.0f, %.0f)–(%.0f, %.0f), not all in the canvas at (%.0f, %.0f) %.0f×%.0f", len(core), x0, y0, x1, y1, s.Left, s.Top, s.Width, s.Height)
	}
	if fill := max((x1-x0)/s.Width, (y1-y0)/s.Height); fill < 0.8 {
		t.Errorf("the core fills %.0f%% of the canvas, want it fitted", 100*fill)
	}
	shoot(t, f.ctx, "graph-2000.png", false)
	f.check(t)
}

func (f *explorer) smallCount(t *testing.T) {
	chains, nodes := 0, 0
	for _, c := range f.g.components() {
		small := len(c) <= 3
		if small {
			chains++
			nodes += len(c)
		}
		for _, i := range c {
			if f.g.Nodes[i].Small != small {
				t.Fatalf("node %s (component of %d) small: %v", f.g.Nodes[i].ID, len(c), f.g.Nodes[i].Small)
			}
		}
	}
	if chains != f.g.SmallChains || nodes != f.g.SmallNodes {
		t.Errorf("the JSON says %d small chains of %d nodes, the test counts %d of %d", f.g.SmallChains, f.g.SmallNodes, chains, nodes)
	}
	openGraph(t, f.ctx, f.base)
	text, err := chromedp.Run(f.ctx, chromedp.Text(chromedp.CSS("#graph-small")))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%d small chains not drawn", chains); !strings.HasPrefix(text, want) || !strings.Contains(text, "Show them") {
		t.Errorf("the notice says %q, want %q and a button to show them", text, want)
	}
	f.check(t)
}

func (f *explorer) showSmall(t *testing.T) {
	s0 := openGraph(t, f.ctx, f.base)
	if err := chromedp.Do(f.ctx, chromedp.Click(chromedp.CSS("#graph-small-toggle")), settle); err != nil {
		t.Fatal(err)
	}
	s, err := graphState(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s.Nodes != len(f.g.Nodes) || s.Edges != len(f.g.Edges) || s.Small != "shown" {
		t.Errorf("shown: %d nodes and %d edges drawn (%s), want all %d and %d", s.Nodes, s.Edges, s.Small, len(f.g.Nodes), len(f.g.Edges))
	}
	// The view fits them all, the small chains included.
	for i := range f.g.Nodes {
		if x, y := s.screen(f.g, i); x < s.Left-1 || y < s.Top-1 || x > s.Left+s.Width+1 || y > s.Top+s.Height+1 {
			t.Fatalf("shown: node %s at (%.0f, %.0f), outside the canvas", f.g.Nodes[i].ID, x, y)
		}
	}
	notice, err := chromedp.Run(f.ctx, chromedp.Text(chromedp.CSS("#graph-small")))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%d small chains drawn below the rest", f.g.SmallChains); !strings.HasPrefix(notice, want) || !strings.HasSuffix(notice, "Hide them") {
		t.Errorf("the notice, pressed: %q, want %q and a button to hide them", notice, want)
	}
	shoot(t, f.ctx, "graph-2000-all.png", false)
	if err := chromedp.Do(f.ctx, chromedp.Click(chromedp.CSS("#graph-small-toggle")), settle); err != nil {
		t.Fatal(err)
	}
	s, _ = graphState(f.ctx)
	if nodes, _ := f.g.drawn(); s.Nodes != nodes || s.Small != "hidden" || s.Scale != s0.Scale {
		t.Errorf("hidden again: %d nodes at scale %v (%s), want %d at %v", s.Nodes, s.Scale, s.Small, nodes, s0.Scale)
	}
	f.check(t)
}

// rank is the explorer's order for labels: the notes before their parts,
// each most links first, then degree, then index.
func (f *explorer) rank() []int {
	links := f.g.links()
	idx := make([]int, len(f.g.Nodes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if pa, pb := f.g.Nodes[a].Part, f.g.Nodes[b].Part; pa != pb {
			if pa {
				return 1
			}
			return -1
		}
		if links[a] != links[b] {
			return links[b] - links[a]
		}
		return f.g.Nodes[b].Degree - f.g.Nodes[a].Degree
	})
	return idx
}

// checkLabels: the labels lie in the canvas, none over another, in the
// explorer's order.
func (f *explorer) checkLabels(t *testing.T, s canvasState) {
	t.Helper()
	pos := map[int]int{}
	for k, i := range f.rank() {
		pos[i] = k
	}
	for k, l := range s.Labels {
		if l[1] < 0 || l[2] < 0 || l[3] > s.Width || l[4] > s.Height {
			t.Errorf("label of %s at %v: outside the %v×%v canvas", f.g.Nodes[int(l[0])].ID, l[1:], s.Width, s.Height)
		}
		for _, m := range s.Labels[:k] {
			if l[1] < m[3] && m[1] < l[3] && l[2] < m[4] && m[2] < l[4] {
				t.Errorf("labels of %s %v and %s %v overlap", f.g.Nodes[int(l[0])].ID, l[1:], f.g.Nodes[int(m[0])].ID, m[1:])
			}
		}
		if k > 0 && pos[int(l[0])] < pos[int(s.Labels[k-1][0])] {
			t.Errorf("%s labelled after %s, which has fewer links", f.g.Nodes[int(l[0])].ID, f.g.Nodes[int(s.Labels[k-1][0])].ID)
		}
	}
}

// inView are the drawn nodes on screen, at least margin pixels inside
// the canvas, most linked first.
func (f *explorer) inView(s canvasState, margin float64) []int {
	var out []int
	for _, i := range f.rank() {
		x, y := s.screen(f.g, i)
		if !f.g.Nodes[i].Small && x >= s.Left+margin && x <= s.Left+s.Width-margin && y >= s.Top+margin && y <= s.Top+s.Height-margin {
			out = append(out, i)
		}
	}
	return out
}

func (f *explorer) labels(t *testing.T) {
	s := openGraph(t, f.ctx, f.base)
	if len(s.Labels) < 10 {
		t.Fatalf("%d labels at first, want ten or more on a %v×%v canvas", len(s.Labels), s.Width, s.Height)
	}
	f.checkLabels(t, s)
	labelled := map[int]bool{}
	for _, l := range s.Labels {
		labelled[int(l[0])] = true
	}
	// At the fitted zoom only notes are named: a decision or event is a
	// dot among its episode's, its label ("Commit: 1a2b3c") only noise.
	parts := 0
	for _, i := range f.inView(s, 0) {
		if f.g.Nodes[i].Part {
			parts++
		}
	}
	for _, l := range s.Labels {
		if n := f.g.Nodes[int(l[0])]; n.Part {
			t.Errorf("at the fitted zoom, the part %s is named %q", n.ID, n.Label)
		}
	}
	if parts == 0 {
		t.Errorf("no decision or event in view: the test shows nothing about parts")
	}
	// The most linked node well inside the view is named, whatever is
	// around it.
	top := f.inView(s, 200)[0]
	if !labelled[top] {
		t.Errorf("the most linked node in view, %s (%q), has no label; labels: %v", f.g.Nodes[top].ID, f.g.Nodes[top].Label, s.Labels)
	}
	f.check(t)
}

func (f *explorer) moreLabels(t *testing.T) {
	s0 := openGraph(t, f.ctx, f.base)
	if err := chromedp.Do(f.ctx, chromedp.Click(chromedp.CSS("button[data-zoom=in]")), chromedp.Click(chromedp.CSS("button[data-zoom=in]")), settle); err != nil {
		t.Fatal(err)
	}
	s1, err := graphState(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	f.checkLabels(t, s1)
	// The part of the drawing now in view has more of its nodes named
	// than it had before zooming in.
	named := func(s canvasState, among []int) (n int) {
		for _, l := range s.Labels {
			if slices.Contains(among, int(l[0])) {
				n++
			}
		}
		return n
	}
	region := f.inView(s1, 0)
	before, after := named(s0, region), named(s1, region)

	if !(s1.Scale > s0.Scale*2) || after < 2*before || after < 10 {
		t.Errorf("zoomed from scale %.2f to %.2f: of the %d nodes now in view, %d were named, %d are: want at least twice as many",
			s0.Scale, s1.Scale, len(region), before, after)
	}
	shoot(t, f.ctx, "graph-2000-zoomed.png", false)
	// Zoomed in further, where the notes leave labels to spare, the
	// decisions and events are named too.
	var parts []int
	s2 := s1
	for range 6 {
		if err := chromedp.Do(f.ctx, chromedp.Click(chromedp.CSS("button[data-zoom=in]")), settle); err != nil {
			t.Fatal(err)
		}
		if s2, err = graphState(f.ctx); err != nil {
			t.Fatal(err)
		}
		f.checkLabels(t, s2)
		parts = parts[:0]
		for _, i := range f.inView(s2, 0) {
			if f.g.Nodes[i].Part {
				parts = append(parts, i)
			}
		}
		if named(s2, parts) > 0 {
			break
		}
	}
	if named(s2, parts) == 0 {
		t.Errorf("zoomed in to scale %.2f: none of the %d decisions and events in view is named", s2.Scale, len(parts))
	}
	f.check(t)
}

func (f *explorer) short(t *testing.T) {
	openGraph(t, f.ctx, f.base)
	h, err := chromedp.Run(f.ctx, chromedp.Evaluate[float64](`document.documentElement.scrollHeight`))
	if err != nil {
		t.Fatal(err)
	}
	// The canvas, its controls, 20 hubs, the small chains by shape and
	// the two type tables.
	if h > 3000 {
		t.Errorf("the page is %.0f px tall at 1280 px wide, want at most 3,000", h)
	}
	t.Logf("the page is %.0f px tall at 1280 px wide", h)
	shoot(t, f.ctx, "graph-2000-page.png", true)
}

func (f *explorer) phone(t *testing.T) {
	if err := chromedp.Do(f.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	defer chromedp.Do(f.ctx, chromedp.EmulateViewport(1280, 900))
	s := openGraph(t, f.ctx, f.base)
	if s.Width > 390 || s.Height < 300 {
		t.Errorf("on a phone the canvas is %v×%v", s.Width, s.Height)
	}
	if len(s.Labels) < 3 {
		t.Errorf("on a phone %d labels, want some", len(s.Labels))
	}
	f.checkLabels(t, s)
	type box struct {
		Name                     string
		Left, Right, Width, High float64
	}
	fit, err := chromedp.Run(f.ctx, chromedp.Evaluate[struct {
		ScrollWidth, InnerWidth float64
		Controls                []box
	}](`(function () {
	  var controls = Array.from(document.querySelectorAll("#graph-explorer button, #graph-explorer input")).map(function (e) {
	    var r = e.getBoundingClientRect();
	    return {Name: e.textContent || e.value, Left: r.left, Right: r.right, Width: r.width, High: r.height};
	  });
	  return {ScrollWidth: document.documentElement.scrollWidth, InnerWidth: innerWidth, Controls: controls};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if fit.ScrollWidth > fit.InnerWidth {
		t.Errorf("on a phone the page is %v px wide in a %v px window", fit.ScrollWidth, fit.InnerWidth)
	}
	for _, c := range fit.Controls {
		if c.Left < 0 || c.Right > fit.InnerWidth {
			t.Errorf("control %q spans %v–%v, outside the %v px window", c.Name, c.Left, c.Right, fit.InnerWidth)
		}
	}
	for _, c := range fit.Controls[:5] { // the zoom buttons and "Show them"
		if c.Width < 32 || c.High < 32 {
			t.Errorf("button %q is %v×%v px, too small to tap", c.Name, c.Width, c.High)
		}
	}
	shoot(t, f.ctx, "graph-2000-phone.png", false)
	f.check(t)
}

func (f *explorer) noScriptChains(t *testing.T) {
	if _, err := chromedp.Call(f.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	defer chromedp.Call(f.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: false})
	if err := chromedp.Do(f.ctx, chromedp.Navigate(f.base+"/graph/"), chromedp.WaitVisible(chromedp.CSS(".graph-shapes li a"))); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(f.ctx, chromedp.Evaluate[struct {
		Counts []string
		Links  []string
		Hubs   []string
	}](`({Counts: Array.from(document.querySelectorAll(".graph-shapes .graph-count")).map(function (e) { return e.textContent; }),
	   Links: Array.from(document.querySelectorAll(".graph-shapes a")).map(function (a) { return a.getAttribute("href"); }),
	   Hubs: Array.from(document.querySelectorAll("ol.graph-hubs a")).map(function (a) { return a.getAttribute("href"); })})`))
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, c := range got.Counts {
		var n int
		fmt.Sscan(c, &n)
		sum += n
	}
	if sum != f.g.SmallChains || len(got.Links) == 0 {
		t.Errorf("the small chains by shape sum to %d (%v), want %d; %d links", sum, got.Counts, f.g.SmallChains, len(got.Links))
	}
	for _, l := range got.Links {
		u, err := url.Parse(l)
		if err != nil || !strings.HasPrefix(u.Path, "/episodes/") && !strings.HasPrefix(u.Path, "/patterns/") {
			t.Errorf("a small chain links to %q", l)
		}
	}
	if want := hubLinks(f.g); !slices.Equal(got.Hubs, want) {
		t.Errorf("the most connected nodes link\n%v\nwant\n%v", got.Hubs, want)
	}
	shoot(t, f.ctx, "graph-2000-nojs.png", true)
	f.check(t)
}
