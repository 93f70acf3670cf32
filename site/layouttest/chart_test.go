package layouttest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// minChartText is the smallest a chart's text may be drawn, in CSS px.
const minChartText = 11

// chartJS lists what keeps the outcomes chart (svg.outcomes-chart) from
// reading as it opens, one sentence each:
//
//   - text drawn smaller than minChartText px (its font size times the
//     scale of the drawing);
//   - a legend entry or a label of the axis of counts (the ticks not
//     centred under a bar) outside what its scrolling box shows, even
//     in part;
//   - a box that scrolls with no visible word in the figure saying so
//     (a caption that mentions scrolling).
const chartJS = `(function(min){
  var out = [];
  document.querySelectorAll('svg.outcomes-chart').forEach(function(svg){
    var vb = svg.viewBox.baseVal, r = svg.getBoundingClientRect(), scale = vb && vb.width ? r.width / vb.width : 1;
    var small = 0, smallest = Infinity;
    svg.querySelectorAll('text').forEach(function(t){
      var px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (px < min - 0.05) { small++; smallest = Math.min(smallest, px); }
    });
    if (small) out.push(small + ' texts of the chart are drawn at ' + smallest.toFixed(1) + ' px, under ' + min);
    var box = svg.parentElement;
    while (box && box !== document.body && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
    if (!box || box === document.body) return;
    var br = box.getBoundingClientRect();
    function seen(t) { var q = t.getBoundingClientRect(); return q.left >= br.left - 0.5 && q.right <= br.right + 0.5; }
    svg.querySelectorAll('text.oc-legend').forEach(function(t){ if (!seen(t)) out.push('the legend entry "' + t.textContent + '" is cut or out of view'); });
    var ticks = Array.from(svg.querySelectorAll('text.oc-tick')).filter(function(t){ return t.getAttribute('text-anchor') !== 'middle'; });
    if (!ticks.length || !ticks.some(seen)) out.push('no label of the axis of counts is in view');
    if (box.scrollWidth > box.clientWidth + 1) {
      var fig = box.closest('figure') || box, hint = Array.from(fig.querySelectorAll('figcaption, figcaption *')).some(function(e){
        var q = e.getBoundingClientRect();
        return /scroll/i.test(e.textContent) && q.width > 0 && q.height > 0 && getComputedStyle(e).visibility === 'visible';
      });
      if (!hint) out.push('the chart scrolls (' + box.scrollWidth + ' px in ' + box.clientWidth + ') and nothing says so');
    }
  });
  return out;
})`

func checkChart(t *testing.T, ctx context.Context, f *findings, where string) {
	t.Helper()
	cut, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf("%s(%d)", chartJS, minChartText)))
	if err != nil {
		t.Fatalf("measure the chart: %v", err)
	}
	for _, c := range cut {
		f.add(where, "chart: %s", c)
	}
}
