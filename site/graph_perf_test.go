package site_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/engramhq/engram/site/browsertest"
)

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
	bin := browsertest.Chromium(t)
	out := generatedSite(t, notes)
	g := readGraphJSON(t, out)
	info, err := os.Stat(filepath.Join(out, "graph", "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := serveSite(t, out)
	ctx := browsertest.New(t, bin)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	drawn, _ := g.drawn()
	t.Logf("%d notes: %d nodes, %d edges, graph/index.json %d KB; drawn at first %d nodes (%d small chains left out)",
		notes, len(g.Nodes), len(g.Edges), info.Size()/1024, drawn, g.SmallChains)
	for _, rate := range []float64{1, 4} {
		if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
			t.Fatal(err)
		}
		var loads []float64
		labels := 0
		for range 5 {
			if _, err := chromedp.Call(ctx, network.ClearBrowserCache, cdp.Empty{}); err != nil {
				t.Fatal(err)
			}
			s := openGraph(t, ctx, srv.URL)
			loads = append(loads, s.ReadyMs)
			labels = len(s.Labels)
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
		t.Logf("CPU ×%v: first load median %.0f ms (of %v), %d labels; %s", rate, loads[len(loads)/2], loads, labels, strings.Join(motion, ", "))
	}
}

type motionResult struct {
	Seconds float64 `json:"seconds"`
	Frames  int     `json:"frames"`
	FPS     float64 `json:"fps"`
	DrawMs  float64 `json:"drawMs"`
	Moved   bool    `json:"moved"`
}
