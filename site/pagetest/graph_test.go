package pagetest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/engramhq/engram/site"
	"github.com/engramhq/engram/site/browsertest"
)

// graphState is what the explorer's canvas says of itself (graph.js's
// data attributes) and where it is on the page.
type graphState struct {
	Ready, Swapped              bool
	Scale, TX, TY               float64
	Left, Top, Width, Height    float64
	InnerWidth, InnerHeight     float64
	ScrollWidth                 float64
	Labels                      [][5]float64
	Selected                    string
	Status, Help, Open, OpenURL string
	OpenHidden                  bool
}

// at is where n is drawn, in the window's CSS pixels.
func (s graphState) at(n graphNode) (x, y float64) {
	lx, ly := n.X, n.Y
	if s.Swapped {
		lx, ly = ly, lx
	}
	return s.Left + lx*s.Scale + s.TX, s.Top + ly*s.Scale + s.TY
}

const graphStateJS = `(function () {
  var c = document.getElementById("graph-canvas"), r = c.getBoundingClientRect(), d = c.dataset, o = document.getElementById("graph-open") || {hidden: true};
  return {Ready: d.ready === "1", Swapped: d.swapped === "1", Scale: +d.scale || 0, TX: +d.tx || 0, TY: +d.ty || 0,
    Left: r.left, Top: r.top, Width: r.width, Height: r.height, InnerWidth: innerWidth, InnerHeight: innerHeight,
    ScrollWidth: document.documentElement.scrollWidth, Labels: JSON.parse(d.labels || "[]"), Selected: d.selected || "",
    Status: document.getElementById("graph-status").textContent, Help: document.getElementById("graph-help").textContent,
    Open: o.textContent, OpenURL: o.href, OpenHidden: o.hidden};
})()`

// graphNode is a node of the explorer's JSON, as far as the test needs.
type graphNode struct {
	ID     string  `json:"id"`
	URL    string  `json:"url"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Degree int     `json:"degree"`
	Small  bool    `json:"small"`
}

// TestBrowserGraphPage: the graph page's drawing takes the window's
// width and most of its height at 320, 390 and 1280 px, its labels do
// not overlap, and it reads on a touch screen: a tap names a node and
// offers its page, a second tap opens it, two fingers zoom, and the help
// says so.
func TestBrowserGraphPage(t *testing.T) {
	bin := browsertest.Chromium(t)
	out := build(t, filepath.Join("..", "..", "content"))
	srv := httptest.NewServer(site.Handler(out, ""))
	t.Cleanup(srv.Close)
	var doc struct {
		Nodes []graphNode `json:"nodes"`
	}
	b, err := os.ReadFile(filepath.Join(out, "graph", "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.New(t, bin)
	probs := browsertest.Watch(t, ctx)
	for _, vp := range []struct{ w, h int64 }{{320, 640}, {390, 844}, {1280, 800}} {
		for _, scheme := range []string{"light", "dark"} {
			t.Run(fmt.Sprintf("%dx%d %s", vp.w, vp.h, scheme), func(t *testing.T) {
				s := openGraphAt(t, ctx, srv.URL, vp.w, vp.h, scheme)
				if s.Width < s.InnerWidth-40 || s.Height < 0.6*s.InnerHeight || s.ScrollWidth > s.InnerWidth {
					t.Errorf("the drawing is %.0f×%.0f px in a %.0f×%.0f window (the page %.0f px wide): want the window's width, less a margin, and most of its height",
						s.Width, s.Height, s.InnerWidth, s.InnerHeight, s.ScrollWidth)
				}
				if len(s.Labels) < 3 {
					t.Errorf("%d labels", len(s.Labels))
				}
				// Labels do not overlap, and two on one line keep a gap
				// (graph.js's LABEL_GAP, 8 px): end to end they read as one.
				const gap = 8
				for i, a := range s.Labels {
					for _, c := range s.Labels[i+1:] {
						if a[1] < c[3]+gap && c[1] < a[3]+gap && a[2] < c[4] && c[2] < a[4] {
							t.Errorf("labels of nodes %v and %v overlap or touch: %v, %v", a[0], c[0], a[1:], c[1:])
						}
					}
				}
				shot(t, ctx, fmt.Sprintf("graph-%d-%s.png", vp.w, scheme))
				if p := probs.Take(); len(p) > 0 {
					t.Errorf("console or CSP problems: %v", p)
				}
			})
		}
	}
	t.Run("touch", func(t *testing.T) { graphTouch(t, ctx, srv.URL, doc.Nodes) })
	if p := probs.Take(); len(p) > 0 {
		t.Errorf("console or CSP problems: %v", p)
	}
}

// graphTouch taps the most linked node with a page at 390 px: the first
// tap names it and offers its page without leaving, the second opens it;
// two fingers spreading zoom in.
func graphTouch(t *testing.T, ctx context.Context, base string, nodes []graphNode) {
	hub := -1
	for i, n := range nodes {
		if n.URL != "" && !n.Small && (hub < 0 || n.Degree > nodes[hub].Degree) {
			hub = i
		}
	}
	if hub < 0 {
		t.Fatal("no node with a page")
	}
	s := openGraphAt(t, ctx, base, 390, 844, "light")
	if !s.Swapped {
		t.Error("on a phone held upright the demo's wide layout is not turned to fill the screen")
	}
	if help := strings.ToLower(s.Help); !strings.Contains(help, "tap") || !strings.Contains(help, "pinch") {
		t.Errorf("the help does not say tap and pinch: %q", s.Help)
	}
	x, y := s.at(nodes[hub])
	if x < s.Left || x > s.Left+s.Width || y < s.Top || y > s.Top+s.Height {
		t.Fatalf("the most linked node, %s, is at (%.0f, %.0f), outside the drawing", nodes[hub].ID, x, y)
	}
	touch(t, ctx, [][2]float64{{x, y}}, [][2]float64{{x, y}})
	s = state(t, ctx)
	if path := location(t, ctx); path != "/graph/" || s.Selected != fmt.Sprint(hub) || s.OpenHidden || !strings.HasSuffix(s.OpenURL, nodes[hub].URL) {
		t.Fatalf("after a tap on %s: at %s, selected %q (want %d), open link %q to %q (hidden %v)", nodes[hub].ID, path, s.Selected, hub, s.Open, s.OpenURL, s.OpenHidden)
	}
	if !strings.Contains(s.Status, "Tap it again") {
		t.Errorf("after a tap the status says %q", s.Status)
	}
	tip, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!document.getElementById("graph-tip").hidden`))
	if err != nil || !tip {
		t.Errorf("after a tap no tooltip names the node (%v)", err)
	}
	// Two fingers 60 px apart spread to 200 px: the drawing zooms in.
	before := s.Scale
	cx, cy := s.Left+s.Width/2, s.Top+s.Height/2
	touch(t, ctx, [][2]float64{{cx - 30, cy}, {cx + 30, cy}}, [][2]float64{{cx - 100, cy}, {cx + 100, cy}})
	if s = state(t, ctx); s.Scale <= before*1.5 {
		t.Errorf("a pinch left the scale at %v, from %v", s.Scale, before)
	}
	if s.Selected != fmt.Sprint(hub) {
		t.Errorf("after a pinch the node selected is %q, want %d", s.Selected, hub)
	}
	// The node, tapped again where it is once the drawing is fitted
	// again, opens its page.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-zoom="fit"]`))); err != nil {
		t.Fatal(err)
	}
	settle(t, ctx)
	s = state(t, ctx)
	x, y = s.at(nodes[hub])
	touch(t, ctx, [][2]float64{{x, y}}, [][2]float64{{x, y}})
	deadline := time.Now().Add(10 * time.Second)
	for location(t, ctx) != nodes[hub].URL && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if path := location(t, ctx); path != nodes[hub].URL {
		t.Errorf("a second tap on %s: at %s, want %s", nodes[hub].ID, path, nodes[hub].URL)
	}
}

// touch puts fingers down at from, moves them to to in a few steps, and
// lifts them.
func touch(t *testing.T, ctx context.Context, from, to [][2]float64) {
	t.Helper()
	points := func(f float64) []*input.TouchPoint {
		var ps []*input.TouchPoint
		for k := range from {
			id := float64(k + 1)
			ps = append(ps, &input.TouchPoint{X: from[k][0] + f*(to[k][0]-from[k][0]), Y: from[k][1] + f*(to[k][1]-from[k][1]), ID: &id})
		}
		return ps
	}
	steps := []input.DispatchTouchEventParams{{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: points(0)}}
	if from[0] != to[0] {
		for _, f := range []float64{0.25, 0.5, 0.75, 1} {
			steps = append(steps, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchMove, TouchPoints: points(f)})
		}
	}
	steps = append(steps, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
	for _, p := range steps {
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, p); err != nil {
			t.Fatal(err)
		}
	}
	settle(t, ctx)
}

// openGraphAt loads /graph/ in a window of w×h CSS px, as a phone (touch,
// twice the pixels) when it is narrow, and waits for the drawing.
func openGraphAt(t *testing.T, ctx context.Context, base string, w, h int64, scheme string) graphState {
	t.Helper()
	phone := w < 800
	scale := 1.0
	if phone {
		scale = 2
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h, chromedp.EmulateScale(scale))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: phone, MaxTouchPoints: 5}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/graph/")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !state(t, ctx).Ready {
		if time.Now().After(deadline) {
			t.Fatal("the explorer never got ready")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("graph-canvas").scrollIntoView({block: "center"})`)); err != nil {
		t.Fatal(err)
	}
	settle(t, ctx)
	return state(t, ctx)
}

func state(t *testing.T, ctx context.Context) graphState {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[graphState](graphStateJS))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func location(t *testing.T, ctx context.Context) string {
	p, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`)) // "" while a page replaces another
	return p
}

// settle waits for the page to draw what it has scheduled: two
// animation frames.
func settle(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(function (resolve) {
	  requestAnimationFrame(function () { requestAnimationFrame(function () { resolve(true); }); });
	})`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
}

// shot saves a screenshot of the window into $ENGRAM_SCREENSHOT_DIR,
// when set (as site's browser tests do).
func shot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("ENGRAM_SCREENSHOT_DIR")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Error(err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Error(err)
	}
}
