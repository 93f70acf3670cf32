package layouttest_test

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
