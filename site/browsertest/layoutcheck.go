package browsertest

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// headerCutJS lists what of the site header a reader cannot read whole at
// a viewport width px wide, one sentence each (none when all is well):
//
//   - a link, button or field that is not shown (display, visibility, no
//     box): every section of the navigation must be reachable;
//   - one that passes the viewport's edge, or the box of an ancestor that
//     clips or scrolls (overflow other than visible), even in part;
//   - one whose own text is wider than its box (cut, or an ellipsis);
//     not a field's value, which scrolls in it as a typed one does;
//   - a search field whose placeholder is wider than the field's room for
//     text (measured in the field's font).
//
// The link of the current section (aria-current) is one of the links,
// so it is always on screen as well.
const headerCutJS = `(function(width){
  var vw = Math.min(width, window.innerWidth, document.documentElement.clientWidth);
  var out = [], h = document.querySelector('header.site');
  if (!h) return ['the page has no header.site'];
  function name(e) {
    var s = e.tagName.toLowerCase(), text = (e.textContent || e.getAttribute('placeholder') || e.getAttribute('name') || '').trim();
    if (e.hasAttribute('aria-current')) s += '[aria-current]';
    return s + ' "' + text.slice(0, 60) + '"';
  }
  function px(r) { return Math.round(r.left) + '..' + Math.round(r.right) + ' x ' + Math.round(r.top) + '..' + Math.round(r.bottom); }
  var ctx = document.createElement('canvas').getContext('2d');
  h.querySelectorAll('a, input, button').forEach(function(e){
    var cs = getComputedStyle(e), r = e.getBoundingClientRect();
    if (cs.visibility !== 'visible' || r.width === 0 || r.height === 0) { out.push(name(e) + ' is not shown'); return; }
    if (r.left < -0.5 || r.right > vw + 0.5) out.push(name(e) + ' at ' + px(r) + ' passes the ' + vw + ' px viewport');
    for (var a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      var as = getComputedStyle(a);
      if (as.overflowX === 'visible' && as.overflowY === 'visible') continue;
      var ar = a.getBoundingClientRect();
      if (r.left < ar.left - 0.5 || r.right > ar.right + 0.5 || r.top < ar.top - 0.5 || r.bottom > ar.bottom + 0.5) {
        out.push(name(e) + ' at ' + px(r) + ' is clipped by ' + a.tagName.toLowerCase() + (a.className ? '.' + a.className : '') + ' at ' + px(ar));
        break;
      }
    }
    if (e.tagName !== 'INPUT' && cs.display !== 'inline' && e.scrollWidth > e.clientWidth + 1) out.push(name(e) + ': its text is ' + e.scrollWidth + ' px wide in a box of ' + e.clientWidth + ' px');
    var ph = e.getAttribute('placeholder');
    if (e.tagName === 'INPUT' && ph) {
      ctx.font = cs.font;
      var room = e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight), need = ctx.measureText(ph).width;
      if (need > room + 0.5) out.push(name(e) + ': its placeholder needs ' + Math.round(need) + ' px, the field has ' + Math.round(room));
    }
  });
  return out;
})`

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
