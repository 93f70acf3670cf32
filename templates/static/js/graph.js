// engram causal graph explorer (/graph/). engram lays the graph out at
// build time (site/internal/graphlayout) and publishes it as
// /graph/index.json; this script only draws it on the page's canvas and
// lets the reader pan, zoom, filter by type and open a node's page. No
// dependencies, no eval, nothing inline: it runs under the site's strict
// Content-Security-Policy, and note text only ever reaches the canvas or
// textContent.
//
// The connected structure comes first: the view fits the layout's core
// box, and the small chains (nodes marked small: components of one to
// three nodes) are left out until the reader asks for them. Labels go to
// the most linked nodes first, a budget of them for the area drawn,
// never over one another: zooming in names more nodes. A label is what
// the site's pages call the node (an episode's task, a pattern's name).
//
// Drawing is on demand (one requestAnimationFrame per change), culled to
// the view, and batched: one path per edge type and per node type, into
// an offscreen layer that frames copy while the reader pans (see draw). A
// uniform grid over the layout answers "which node is under the pointer".
//
// For tests and measurements the canvas carries its state as data
// attributes: data-ready, data-nodes and data-edges (what is drawn after
// filtering), data-scale, data-tx and data-ty (screen = layout × scale +
// t, in CSS pixels from the canvas's top-left corner; with data-swapped
// "1" the layout's x and y are swapped first, see orient), data-labels (the
// labels inside the view when the layer was drawn, most linked first, as
// JSON [[node, x0, y0, x1, y1], ...] in CSS pixels of the view),
// data-small ("shown" or "hidden"), data-selected (the node tapped, -1
// for none, once a tap happened), data-frames and data-draw-ms (draws
// so far and their total time), data-ready-ms (performance.now() when the
// first drawing was done).
(function () {
  "use strict";

  var canvas = document.getElementById("graph-canvas");
  var box = document.getElementById("graph-explorer");
  if (!canvas || !box || !canvas.getContext || !window.fetch) return;
  var ctx = canvas.getContext("2d");
  var tip = document.getElementById("graph-tip");
  var status = document.getElementById("graph-status");
  var form = document.getElementById("graph-controls"); // the type filters
  var smallBox = document.getElementById("graph-small");
  var smallText = document.getElementById("graph-small-text");
  var smallButton = document.getElementById("graph-small-toggle");
  var openLink = document.getElementById("graph-open"); // the tapped node's page

  var MIN_PX = 1.5;        // smallest node radius on screen
  var HIT_PX = 6;          // pointer tolerance around a node
  var LABEL_EDGE_PX = 26;  // labels try to keep clear of nodes once an edge is this long
  var LABEL_NODE_PX = 10;  // and of more linked nodes once an edge is this long
  var ARROW_EDGE_PX = 40;  // draw arrowheads once an edge is this long
  var MAX_LABELS = 160;
  var LABEL_AREA = 36000;  // CSS px² of drawing per label: the budget
  var LABEL_CHARS = 30;    // a label's longest text on the canvas
  var LABEL_GAP = 8;       // CSS px between two labels on a line, so that they read as two
  var LABEL_FONT = "12px system-ui, sans-serif";
  var HUB_FONT = "600 12.5px system-ui, sans-serif";
  var HUBS = 12;           // the most linked nodes, labelled in bold
  var FIT_PAD = 24;        // CSS px around what a fit shows
  var CLICK_PX = 4;        // a press that moves less than this is a click
  var LAYER_MARGIN = 0.3;  // the layer's margin, a share of the view
  var ZOOM_REST_MS = 150;  // a smooth zoom rests after this long without a step

  var g = null;            // the loaded graph, see load()
  var view = { scale: 1, tx: 0, ty: 0, w: 0, h: 0, dpr: 1, fitted: false };
  var colours = { bg: "#fff", fg: "#000", muted: "#666", line: "#ccc", accent: "#00f", panel: "#eee" };
  var hover = -1;          // node under the pointer
  var picked = -1;         // node picked with the keyboard
  var selected = -1;       // node tapped on a touch screen: named, its page a tap away
  var keyboard = false;    // the last interaction was the keyboard
  var pending = 0;
  var frames = 0, drawMs = 0;

  box.hidden = false;

  // --- data -------------------------------------------------------------

  function load(doc) {
    var n = doc.nodes.length, m = doc.edges.length, i;
    var ntypes = doc.node_types.map(function (t) { return t.type; });
    var etypes = doc.edge_types.map(function (t) { return t.type; });
    var nt = index(ntypes), et = index(etypes);
    g = {
      doc: doc, n: n, m: m, unit: doc.unit || 20,
      x: new Float64Array(n), y: new Float64Array(n), r: new Float64Array(n), small: new Uint8Array(n),
      ntype: new Int32Array(n), src: new Int32Array(m), dst: new Int32Array(m), etype: new Int32Array(m),
      ntypes: doc.node_types, etypes: doc.edge_types, showSmall: !doc.small_chains,
      showNode: ntypes.map(function () { return true; }), showEdge: etypes.map(function () { return true; }),
      text: new Array(n), textW: new Float64Array(n)
    };
    for (i = 0; i < n; i++) {
      var nd = doc.nodes[i];
      g.x[i] = +nd.x || 0;
      g.y[i] = +nd.y || 0;
      g.ntype[i] = nt[nd.type] || 0;
      g.small[i] = nd.small ? 1 : 0;
    }
    for (i = 0; i < m; i++) {
      var e = doc.edges[i];
      g.src[i] = e.source; g.dst[i] = e.target; g.etype[i] = et[e.type] || 0;
    }
    g.nodesByType = buckets(g.ntype, ntypes.length);
    g.bigByType = g.nodesByType.map(function (list) {
      var c = 0;
      for (var k = 0; k < list.length; k++) if (!g.small[list[k]]) c++;
      return c;
    });
    g.edgesByType = buckets(g.etype, etypes.length);
    g.incident = incidence(g);
    // A node's size says how linked it is, its own parts counted: an
    // episode is the centre of its decisions and events.
    for (i = 0; i < n; i++) g.r[i] = g.unit * Math.min(0.5, 0.14 + 0.045 * Math.sqrt(g.incident[i].length));
    g.rank = order(g, doc.nodes);
    g.hub = new Uint8Array(n);
    g.pos = new Int32Array(n);
    for (i = 0; i < n; i++) g.pos[g.rank[i]] = i;
    for (i = 0; i < Math.min(HUBS, n); i++) g.hub[g.rank[i]] = 1;
    g.grid = grid(g);
    g.width = Math.max(doc.width || 0, 1);
    g.height = Math.max(doc.height || 0, 1);
    var c = doc.core;
    g.core = c && c.width >= 0 ? { x0: c.x, y0: c.y, x1: c.x + c.width, y1: c.y + c.height } : { x0: 0, y0: 0, x1: g.width, y1: g.height };
  }

  function index(list) {
    var m = Object.create(null);
    list.forEach(function (v, i) { m[v] = i; });
    return m;
  }

  // buckets lists the indexes of each kind, in order.
  function buckets(kinds, count) {
    var out = [], i;
    for (i = 0; i < count; i++) out.push([]);
    for (i = 0; i < kinds.length; i++) out[kinds[i]].push(i);
    return out.map(function (b) { return Int32Array.from(b); });
  }

  // incidence lists each node's edges.
  function incidence(g) {
    var out = [], i;
    for (i = 0; i < g.n; i++) out.push([]);
    for (i = 0; i < g.m; i++) {
      if (g.src[i] >= 0 && g.src[i] < g.n) out[g.src[i]].push(i);
      if (g.dst[i] !== g.src[i] && g.dst[i] >= 0 && g.dst[i] < g.n) out[g.dst[i]].push(i);
    }
    return out;
  }

  // order is the notes before their parts (an episode's decisions and
  // events: a reader knows an episode by its task, not a commit inside it
  // by its hash), each most linked first, counting the links to their own
  // parts (an episode is the centre of its decisions and events), then by
  // degree and index: labels go to them first.
  function order(g, nodes) {
    var key = new Float64Array(g.n), idx = new Int32Array(g.n);
    for (var i = 0; i < g.n; i++) {
      key[i] = (nodes[i].part ? 0 : 1099511627776) + Math.min(g.incident[i].length, 1048575) * 1048576 + Math.min(nodes[i].degree || 0, 1048575);
      idx[i] = i;
    }
    return idx.sort(function (a, b) { return key[b] - key[a] || a - b; });
  }

  // shown tells whether node i passes the filters and the small chains' toggle.
  function shown(i) { return g.showNode[g.ntype[i]] && (g.showSmall || !g.small[i]); }

  // grid buckets the nodes by cell of the layout, for hit tests.
  function grid(g) {
    var cell = g.unit * 2, maxX = 0, maxY = 0, i;
    for (i = 0; i < g.n; i++) { maxX = Math.max(maxX, g.x[i]); maxY = Math.max(maxY, g.y[i]); }
    var cols = Math.floor(maxX / cell) + 1, rows = Math.floor(maxY / cell) + 1;
    var start = new Int32Array(cols * rows + 1), items = new Int32Array(g.n), key = new Int32Array(g.n);
    for (i = 0; i < g.n; i++) {
      key[i] = clamp(Math.floor(g.y[i] / cell), 0, rows - 1) * cols + clamp(Math.floor(g.x[i] / cell), 0, cols - 1);
      start[key[i] + 1]++;
    }
    for (i = 0; i < cols * rows; i++) start[i + 1] += start[i];
    var fill = start.slice(0, cols * rows);
    for (i = 0; i < g.n; i++) items[fill[key[i]]++] = i;
    return { cell: cell, cols: cols, rows: rows, start: start, items: items };
  }

  function clamp(v, lo, hi) { return v < lo ? lo : v > hi ? hi : v; }

  // --- view -------------------------------------------------------------

  function readColours() {
    var cs = getComputedStyle(document.documentElement);
    Object.keys(colours).forEach(function (k) {
      var v = cs.getPropertyValue("--" + k).trim();
      if (v) colours[k] = v;
    });
    ["ok", "part", "fail"].forEach(function (k) {
      colours[k] = cs.getPropertyValue("--" + k).trim() || colours.fg;
    });
  }

  function colour(name) { return colours[name] || colours.fg; }

  function resize() {
    var rect = canvas.getBoundingClientRect();
    var dpr = window.devicePixelRatio || 1;
    var w = Math.max(1, Math.round(rect.width)), h = Math.max(1, Math.round(rect.height));
    if (w === view.w && h === view.h && dpr === view.dpr) return;
    // Keep the middle of the view in the middle.
    if (view.fitted) {
      view.tx += (w - view.w) / 2;
      view.ty += (h - view.h) / 2;
    }
    view.w = w; view.h = h; view.dpr = dpr;
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
    if (g && !view.fitted) {
      orient();
      fit();
    }
    schedule();
  }

  // orient turns the layout a quarter (swaps x and y: a graph has no up)
  // when its core is wide and the view tall, as on a phone held upright,
  // so that the drawing fills the screen; once, before the first fit.
  function orient() {
    var c = g.core;
    if (g.swapped || !(view.h > view.w && c.x1 - c.x0 > c.y1 - c.y0)) return;
    var t = g.x;
    g.x = g.y; g.y = t;
    t = g.width; g.width = g.height; g.height = t;
    g.core = { x0: c.y0, y0: c.x0, x1: c.y1, y1: c.x1 };
    g.grid = grid(g);
    g.swapped = true;
    canvas.dataset.swapped = "1";
  }

  // fit shows the core: the largest connected groups.
  function fit() { fitBox(g.core); }

  // fitAll shows every node drawn, or the whole picture if none is.
  function fitAll() {
    var b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    for (var i = 0; i < g.n; i++) {
      if (!shown(i)) continue;
      b.x0 = Math.min(b.x0, g.x[i]); b.x1 = Math.max(b.x1, g.x[i]);
      b.y0 = Math.min(b.y0, g.y[i]); b.y1 = Math.max(b.y1, g.y[i]);
    }
    fitBox(b.x0 <= b.x1 ? b : { x0: 0, y0: 0, x1: g.width, y1: g.height });
  }

  function scaleFor(b) {
    var s = Math.min((view.w - 2 * FIT_PAD) / Math.max(b.x1 - b.x0, g.unit), (view.h - 2 * FIT_PAD) / Math.max(b.y1 - b.y0, g.unit));
    return s > 0 && isFinite(s) ? s : 1;
  }

  // fitBox centres a box of the layout in the view, as large as fits.
  // Zooming out goes down to half the scale that shows the whole picture.
  function fitBox(b) {
    var s = scaleFor(b), whole = scaleFor({ x0: 0, y0: 0, x1: g.width, y1: g.height });
    view.scale = s;
    view.tx = view.w / 2 - (b.x0 + b.x1) / 2 * s;
    view.ty = view.h / 2 - (b.y0 + b.y1) / 2 * s;
    view.fitted = true;
    view.minScale = Math.min(s, whole) / 2;
    view.maxScale = Math.max(s * 4, 400 / g.unit);
  }

  // zoomAt zooms about a point of the view. A smooth zoom (the wheel, a
  // pinch) comes in many small steps: until it rests, frames stretch the
  // layer instead of drawing it anew.
  var zooming = 0;
  function zoomAt(factor, sx, sy, smooth) {
    if (smooth) {
      clearTimeout(zooming);
      zooming = setTimeout(function () { zooming = 0; schedule(); }, ZOOM_REST_MS);
    }
    var s = clamp(view.scale * factor, view.minScale, view.maxScale);
    factor = s / view.scale;
    view.tx = sx - (sx - view.tx) * factor;
    view.ty = sy - (sy - view.ty) * factor;
    view.scale = s;
    schedule();
  }

  function pan(dx, dy) {
    view.tx += dx;
    view.ty += dy;
    schedule();
  }

  function schedule() {
    if (!pending && g) pending = requestAnimationFrame(draw);
  }

  // --- drawing ----------------------------------------------------------

  // The edges, nodes and labels are drawn into a layer, an offscreen
  // canvas a margin larger than the view; a frame copies it, offset by how
  // far the view has moved since, and draws the focus on top. Panning at
  // one scale then costs one copy a frame, not thousands of paths: the
  // layer is drawn again only when the scale, the filters, the colours or
  // the size change, or the view moves past the margin.
  var layer = document.createElement("canvas"), pen = layer.getContext("2d");
  var lay = null;          // how the layer was drawn: see drawLayer
  var version = 0;         // bumped when the filters or colours change
  var counts = { nodes: 0, edges: 0 };

  function draw() {
    pending = 0;
    var t0 = performance.now();
    var dpr = view.dpr, s = view.scale;
    var mx = Math.round(view.w * LAYER_MARGIN), my = Math.round(view.h * LAYER_MARGIN);
    var stale = !lay || lay.version !== version || lay.w !== view.w || lay.h !== view.h || lay.dpr !== dpr;
    var k = lay ? s / lay.scale : 1;
    // While the wheel or a pinch zooms, the layer is stretched; it is
    // drawn anew once the zoom rests.
    var stretch = !stale && zooming && k !== 1 && k > 0.5 && k < 2;
    if (!stretch && (stale || k !== 1 || Math.abs(view.tx - lay.tx) > mx || Math.abs(view.ty - lay.ty) > my)) {
      drawLayer(mx, my);
      k = 1;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = colours.bg;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    var bx = (view.tx - lay.ox * k) * dpr, by = (view.ty - lay.oy * k) * dpr;
    if (k === 1) {
      ctx.drawImage(layer, Math.round(bx), Math.round(by));
    } else {
      ctx.drawImage(layer, bx, by, layer.width * k, layer.height * k);
    }
    ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * view.tx, dpr * view.ty);
    drawFocus();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (keyboard && document.activeElement === canvas) drawCross();
    if (selected >= 0 && hover < 0 && !keyboard && !tip.hidden) placeTip(selected);
    frames++;
    drawMs += performance.now() - t0;
    var d = canvas.dataset;
    d.nodes = String(counts.nodes);
    d.edges = String(counts.edges);
    d.scale = String(s);
    d.tx = String(view.tx);
    d.ty = String(view.ty);
    d.frames = String(frames);
    d.drawMs = drawMs.toFixed(1);
    if (!d.ready) ready();
  }

  // drawLayer draws the view and a margin of mx, my CSS pixels around it.
  // In the layer, a point of the layout is at layout × scale + (ox, oy).
  function drawLayer(mx, my) {
    var dpr = view.dpr, s = view.scale;
    lay = { scale: s, tx: view.tx, ty: view.ty, w: view.w, h: view.h, dpr: dpr, version: version,
      mx: mx, my: my, ox: view.tx + mx, oy: view.ty + my, lw: view.w + 2 * mx, lh: view.h + 2 * my };
    var pw = Math.round(lay.lw * dpr), ph = Math.round(lay.lh * dpr);
    if (layer.width !== pw || layer.height !== ph) {
      layer.width = pw;
      layer.height = ph;
    }
    pen.setTransform(dpr, 0, 0, dpr, 0, 0);
    pen.clearRect(0, 0, lay.lw, lay.lh);
    var vis = { x0: -lay.ox / s, y0: -lay.oy / s, x1: (lay.lw - lay.ox) / s, y1: (lay.lh - lay.oy) / s };
    pen.setTransform(dpr * s, 0, 0, dpr * s, dpr * lay.ox, dpr * lay.oy);
    counts.edges = drawEdges(vis);
    counts.nodes = drawNodes(vis);
    pen.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawLabels();
  }

  function ready() {
    canvas.dataset.ready = "1";
    canvas.dataset.readyMs = performance.now().toFixed(1);
    document.documentElement.dataset.graphReady = "1";
  }

  function edgeVisible(i) {
    return g.showEdge[g.etype[i]] && shown(g.src[i]) && shown(g.dst[i]);
  }

  // drawEdges strokes the visible edges, one path per type, and returns
  // how many pass the filters (in view or not).
  function drawEdges(vis) {
    var count = 0, arrows = g.unit * view.scale >= ARROW_EDGE_PX;
    pen.lineWidth = 1 / view.scale;
    for (var t = 0; t < g.etypes.length; t++) {
      if (!g.showEdge[t]) continue;
      var list = g.edgesByType[t];
      pen.beginPath();
      for (var k = 0; k < list.length; k++) {
        var i = list[k];
        if (!edgeVisible(i)) continue;
        count++;
        var a = g.src[i], b = g.dst[i];
        var x0 = g.x[a], y0 = g.y[a], x1 = g.x[b], y1 = g.y[b];
        if (Math.max(x0, x1) < vis.x0 || Math.min(x0, x1) > vis.x1 || Math.max(y0, y1) < vis.y0 || Math.min(y0, y1) > vis.y1) continue;
        pen.moveTo(x0, y0);
        pen.lineTo(x1, y1);
        if (arrows) arrowHead(x0, y0, x1, y1, g.r[b]);
      }
      pen.strokeStyle = colour(g.etypes[t].colour);
      pen.globalAlpha = g.etypes[t].colour === "muted" ? 0.45 : 0.7;
      pen.stroke();
    }
    pen.globalAlpha = 1;
    return count;
  }

  // arrowHead adds a "V" at the target end of an edge to the current path.
  function arrowHead(x0, y0, x1, y1, r) {
    var dx = x1 - x0, dy = y1 - y0, len = Math.sqrt(dx * dx + dy * dy);
    if (len === 0) return;
    var ux = dx / len, uy = dy / len, size = 7 / view.scale;
    var tx = x1 - ux * Math.max(r, MIN_PX / view.scale), ty = y1 - uy * Math.max(r, MIN_PX / view.scale);
    pen.moveTo(tx - ux * size - uy * size * 0.5, ty - uy * size + ux * size * 0.5);
    pen.lineTo(tx, ty);
    pen.lineTo(tx - ux * size + uy * size * 0.5, ty - uy * size - ux * size * 0.5);
  }

  function radius(i) { return Math.max(g.r[i], MIN_PX / view.scale); }

  // drawNodes fills the visible nodes, one path per type, and returns how
  // many pass the filters.
  function drawNodes(vis) {
    var count = 0, tiny = 2.5 / view.scale;
    for (var t = 0; t < g.ntypes.length; t++) {
      if (!g.showNode[t]) continue;
      var list = g.nodesByType[t];
      count += g.showSmall ? list.length : g.bigByType[t];
      pen.beginPath();
      for (var k = 0; k < list.length; k++) {
        var i = list[k], x = g.x[i], y = g.y[i], r = radius(i);
        if (g.small[i] && !g.showSmall) continue;
        if (x + r < vis.x0 || x - r > vis.x1 || y + r < vis.y0 || y - r > vis.y1) continue;
        if (r <= tiny) {
          pen.rect(x - r, y - r, 2 * r, 2 * r);
        } else {
          pen.moveTo(x + r, y);
          pen.arc(x, y, r, 0, 2 * Math.PI);
        }
      }
      pen.fillStyle = colour(g.ntypes[t].colour);
      pen.fill();
    }
    return count;
  }

  // drawFocus rings the node under the pointer (or picked with the
  // keyboard) and draws its edges over the others.
  function drawFocus() {
    var i = focused();
    if (i < 0) return;
    ctx.beginPath();
    g.incident[i].forEach(function (e) {
      if (!edgeVisible(e)) return;
      ctx.moveTo(g.x[g.src[e]], g.y[g.src[e]]);
      ctx.lineTo(g.x[g.dst[e]], g.y[g.dst[e]]);
    });
    ctx.lineWidth = 2 / view.scale;
    ctx.strokeStyle = colours.fg;
    ctx.globalAlpha = 0.8;
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.beginPath();
    ctx.arc(g.x[i], g.y[i], radius(i) + 3 / view.scale, 0, 2 * Math.PI);
    ctx.lineWidth = 2 / view.scale;
    ctx.stroke();
  }

  function focused() {
    var i = keyboard ? picked : hover >= 0 ? hover : selected;
    return i >= 0 && shown(i) ? i : -1;
  }

  // drawLabels names the most linked nodes in the layer, a budget of
  // them for its area, the notes before their parts and the parts only
  // zoomed in: beside the node (right, left, below, above), never
  // over another label or a named node, nor across the edge of the view,
  // nor, once nodes are large enough to see, over any node (a hub's
  // label, if it has no other room, over a node less linked than its
  // own). A label stands on a patch of the background, so it reads over
  // edges.
  function drawLabels() {
    // Zoomed in, nodes are larger and farther apart: room for more.
    var edge = g.unit * view.scale, placed = [], inView = [];
    var budget = clamp(Math.round(lay.lw * lay.lh / LABEL_AREA * clamp(edge / 16, 1, 2)), 6, MAX_LABELS);
    var near = edge >= LABEL_EDGE_PX, rule = edge >= LABEL_NODE_PX ? "ranked" : "";
    var tries = 0, s = view.scale;
    pen.textBaseline = "middle";
    for (var k = 0; k < g.n && placed.length < budget && tries < budget * 16; k++) {
      var i = g.rank[k];
      // The parts come last in the order, and are named only once they
      // are far enough apart to tell which episode they belong to.
      if (!near && g.doc.nodes[i].part) break;
      if (!shown(i)) continue;
      var cx = g.x[i] * s + lay.ox, cy = g.y[i] * s + lay.oy;
      if (cx < 0 || cx > lay.lw || cy < 0 || cy > lay.lh) continue;
      tries++;
      var w = textWidth(i) + 6, r = radius(i) * s;
      var spots = [[cx + r + 3, cy - 8], [cx - r - 3 - w, cy - 8], [cx - w / 2, cy + r + 2], [cx - w / 2, cy - r - 18]];
      // Once nodes can be seen, a label covers none of them, but a hub's
      // may cover a less linked node rather than go unnamed.
      var rect = rule ? spot(spots, w, placed, i, "all") || (g.hub[i] ? spot(spots, w, placed, i, rule) : null) : spot(spots, w, placed, i, "");
      if (!rect) continue;
      rect.i = i;
      rect.node = { x0: cx - r, y0: cy - r, x1: cx + r, y1: cy + r };
      placed.push(rect);
      if (rect.x0 >= lay.mx && rect.x1 <= lay.mx + lay.w && rect.y0 >= lay.my && rect.y1 <= lay.my + lay.h) {
        inView.push([i, rect.x0 - lay.mx, rect.y0 - lay.my, rect.x1 - lay.mx, rect.y1 - lay.my].map(round1));
      }
    }
    pen.globalAlpha = 0.88;
    pen.fillStyle = colours.bg;
    for (k = 0; k < placed.length; k++) pen.fillRect(placed[k].x0, placed[k].y0, placed[k].x1 - placed[k].x0, 16);
    pen.globalAlpha = 1;
    pen.fillStyle = colours.fg;
    for (k = 0; k < placed.length; k++) {
      pen.font = g.hub[placed[k].i] ? HUB_FONT : LABEL_FONT;
      pen.fillText(g.text[placed[k].i], placed[k].x0 + 3, placed[k].y0 + 8.5);
    }
    canvas.dataset.labels = JSON.stringify(inView);
  }

  // spot is the first of the places for node i's label, w wide, that is
  // free (see free for the rule).
  function spot(spots, w, placed, i, rule) {
    for (var p = 0; p < spots.length; p++) {
      var q = { x0: spots[p][0], y0: spots[p][1], x1: spots[p][0] + w, y1: spots[p][1] + 16 };
      if (free(q, placed, i, rule)) return q;
    }
    return null;
  }

  function round1(v) { return Math.round(v * 10) / 10; }

  // textWidth is node i's label on the canvas, shortened, and its width,
  // measured once. A pattern's label is its name, then " — " and its
  // rule: the canvas names it, the tooltip has the rule.
  function textWidth(i) {
    if (!g.text[i]) {
      var text = label(i), t = g.doc.nodes[i].type;
      if (t === "pattern" || t === "antipattern") text = text.split(" — ")[0];
      g.text[i] = short(text, LABEL_CHARS);
      pen.font = g.hub[i] ? HUB_FONT : LABEL_FONT;
      g.textW[i] = pen.measureText(g.text[i]).width;
    }
    return g.textW[i];
  }

  // free tells whether a label's rectangle in the layer is clear of the
  // labels placed so far and their nodes, and does not cross the edge of
  // the layer or of the view; by rule "all", it is clear of every shown
  // node but its own too, by rule "ranked" of every node more linked than
  // its own.
  function free(rect, placed, self, rule) {
    if (rect.x0 < 0 || rect.x1 > lay.lw || rect.y0 < 0 || rect.y1 > lay.lh) return false;
    if (across(rect.x0, rect.x1, lay.mx) || across(rect.x0, rect.x1, lay.mx + lay.w) ||
        across(rect.y0, rect.y1, lay.my) || across(rect.y0, rect.y1, lay.my + lay.h)) return false;
    for (var p = 0; p < placed.length; p++) {
      if (nearLabel(rect, placed[p]) || overlap(rect, placed[p].node)) return false;
    }
    return !rule || clearOfNodes(rect, self, rule === "all");
  }

  function overlap(a, b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

  // nearLabel: two labels on a line end to end read as one ("Make ending"
  // then "Commit a checked…" read "Make endingCommit…"), so a label keeps
  // LABEL_GAP from another beside it.
  function nearLabel(a, b) { return a.x0 < b.x1 + LABEL_GAP && b.x0 < a.x1 + LABEL_GAP && a.y0 < b.y1 && b.y0 < a.y1; }

  function clearOfNodes(rect, self, all) {
    var s = view.scale, gr = g.grid, reach = g.unit;
    var c0 = clamp(Math.floor(((rect.x0 - lay.ox) / s - reach) / gr.cell), 0, gr.cols - 1);
    var c1 = clamp(Math.floor(((rect.x1 - lay.ox) / s + reach) / gr.cell), 0, gr.cols - 1);
    var r0 = clamp(Math.floor(((rect.y0 - lay.oy) / s - reach) / gr.cell), 0, gr.rows - 1);
    var r1 = clamp(Math.floor(((rect.y1 - lay.oy) / s + reach) / gr.cell), 0, gr.rows - 1);
    for (var row = r0; row <= r1; row++) {
      for (var col = c0; col <= c1; col++) {
        var cell = row * gr.cols + col;
        for (var k = gr.start[cell]; k < gr.start[cell + 1]; k++) {
          var i = gr.items[k];
          if (i === self || !shown(i) || !all && g.pos[i] > g.pos[self]) continue;
          var x = g.x[i] * s + lay.ox, y = g.y[i] * s + lay.oy, r = radius(i) * s + 1;
          if (x + r > rect.x0 && x - r < rect.x1 && y + r > rect.y0 && y - r < rect.y1) return false;
        }
      }
    }
    return true;
  }

  function across(a, b, edge) { return a < edge && b > edge; }

  function drawCross() {
    var cx = view.w / 2, cy = view.h / 2;
    ctx.beginPath();
    ctx.moveTo(cx - 8, cy); ctx.lineTo(cx + 8, cy);
    ctx.moveTo(cx, cy - 8); ctx.lineTo(cx, cy + 8);
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = colours.accent;
    ctx.stroke();
  }

  function label(i) {
    var nd = g.doc.nodes[i];
    return nd.label || nd.id;
  }

  function short(s, n) { return s.length > n ? s.slice(0, n - 1) + "…" : s; }

  // --- hit tests, tooltip, status -----------------------------------------

  // nodeAt is the nearest visible node within reach of a point on screen,
  // or -1.
  function nodeAt(sx, sy) {
    var s = view.scale, wx = (sx - view.tx) / s, wy = (sy - view.ty) / s;
    var reach = Math.max(g.unit * 0.6, (MIN_PX + HIT_PX) / s), gr = g.grid;
    var c0 = clamp(Math.floor((wx - reach) / gr.cell), 0, gr.cols - 1), c1 = clamp(Math.floor((wx + reach) / gr.cell), 0, gr.cols - 1);
    var r0 = clamp(Math.floor((wy - reach) / gr.cell), 0, gr.rows - 1), r1 = clamp(Math.floor((wy + reach) / gr.cell), 0, gr.rows - 1);
    var best = -1, bestD = Infinity;
    for (var row = r0; row <= r1; row++) {
      for (var col = c0; col <= c1; col++) {
        var cell = row * gr.cols + col;
        for (var k = gr.start[cell]; k < gr.start[cell + 1]; k++) {
          var i = gr.items[k];
          if (!shown(i)) continue;
          var dx = g.x[i] - wx, dy = g.y[i] - wy, d = Math.sqrt(dx * dx + dy * dy);
          if (d <= radius(i) + HIT_PX / s && d < bestD) { best = i; bestD = d; }
        }
      }
    }
    return best;
  }

  function showTip(i) {
    if (i < 0) {
      tip.hidden = true;
      return;
    }
    var nd = g.doc.nodes[i];
    tip.textContent = "";
    tip.appendChild(document.createTextNode(label(i)));
    var meta = document.createElement("span");
    meta.className = "muted";
    meta.textContent = nd.type + " · " + (nd.degree || 0) + (nd.degree === 1 ? " link" : " links") + (nd.label && nd.label !== nd.id ? " · " + nd.id : "");
    tip.appendChild(meta);
    tip.hidden = false;
    placeTip(i);
  }

  // placeTip puts the tooltip beside node i, inside the view.
  function placeTip(i) {
    var sx = g.x[i] * view.scale + view.tx, sy = g.y[i] * view.scale + view.ty;
    var left = clamp(sx + 12, 0, Math.max(0, view.w - tip.offsetWidth));
    var top = sy + 12 + tip.offsetHeight > view.h ? sy - 12 - tip.offsetHeight : sy + 12;
    tip.style.transform = "translate(" + Math.round(left) + "px," + Math.round(Math.max(0, top)) + "px)";
  }

  function setHover(i) {
    if (i === hover) return;
    hover = i;
    canvas.classList.toggle("over-link", i >= 0 && !!g.doc.nodes[i].url);
    showTip(i);
    schedule();
  }

  function pickCentre() {
    var i = nodeAt(view.w / 2, view.h / 2);
    if (i < 0) i = nearest(view.w / 2, view.h / 2, 40);
    if (i === picked) return;
    picked = i;
    showTip(i);
    if (i >= 0) {
      var nd = g.doc.nodes[i];
      say(label(i) + " (" + nd.type + ", " + (nd.degree || 0) + " links)" + (nd.url ? ". Enter opens its page." : "."));
    }
  }

  // nearest widens the hit test to px pixels, for the keyboard's cross.
  function nearest(sx, sy, px) {
    var best = -1, bestD = Infinity;
    for (var dy = -px; dy <= px; dy += 8) {
      for (var dx = -px; dx <= px; dx += 8) {
        var i = nodeAt(sx + dx, sy + dy);
        if (i < 0) continue;
        var ex = g.x[i] * view.scale + view.tx - sx, ey = g.y[i] * view.scale + view.ty - sy, d = ex * ex + ey * ey;
        if (d < bestD) { best = i; bestD = d; }
      }
    }
    return best;
  }

  function say(text) { status.textContent = text; }

  function summary() {
    var nodes = 0, edges = 0, t, i;
    for (t = 0; t < g.ntypes.length; t++) if (g.showNode[t]) nodes += g.showSmall ? g.nodesByType[t].length : g.bigByType[t];
    for (i = 0; i < g.m; i++) if (edgeVisible(i)) edges++;
    say("Showing " + nodes + " of " + g.n + " nodes and " + edges + " of " + g.m + " edges.");
  }

  // showSmall shows or hides the small chains, and fits what is drawn.
  function showSmall(on) {
    g.showSmall = on;
    canvas.dataset.small = on ? "shown" : "hidden";
    if (smallBox) {
      var k = g.doc.small_chains;
      smallText.textContent = k + (k === 1 ? " small chain " : " small chains ") + (on ? "drawn below the rest" : "not drawn");
      smallButton.textContent = on ? "Hide them" : "Show them";
    }
    if (hover >= 0 && !shown(hover)) setHover(-1);
    version++;
    summary();
  }

  // pageURL is the address of a page whose url the JSON gives. A site
  // built without a base URL links its API relatively (engram-api is
  // "../api/v1/"), and its urls are paths from the site's root, wherever
  // that is served; otherwise a url is what it says.
  function pageURL(u) {
    var meta = (document.querySelector("meta[name=engram-api]") || {}).content || "/api/v1/";
    if (/^\/(?!\/)/.test(u) && !/^(\/|[a-z][a-z0-9+.-]*:)/i.test(meta)) {
      return new URL(u.slice(1), new URL("../../", new URL(meta, location.href))).href;
    }
    return new URL(u, location.href).href;
  }

  // open goes to node i's page, if it has one on the web.
  function open(i) {
    var url = i >= 0 ? g.doc.nodes[i].url : "";
    if (!url) return;
    var u = new URL(pageURL(url));
    if (u.protocol === "http:" || u.protocol === "https:") window.location.assign(u.href);
  }

  // --- input ------------------------------------------------------------

  var pointers = new Map(), press = null, pinch = 0;

  function local(e) {
    var rect = canvas.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  }

  canvas.addEventListener("pointerdown", function (e) {
    if (!g || (e.pointerType === "mouse" && e.button !== 0)) return;
    try { canvas.setPointerCapture(e.pointerId); } catch (err) { /* a synthetic pointer: nothing to capture */ }
    var p = local(e);
    pointers.set(e.pointerId, p);
    keyboard = false;
    press = pointers.size === 1 ? { x: p.x, y: p.y, moved: false } : null;
    pinch = pointers.size === 2 ? spread() : 0;
  });

  canvas.addEventListener("pointermove", function (e) {
    if (!g) return;
    var p = local(e), prev = pointers.get(e.pointerId);
    if (!prev) {
      setHover(nodeAt(p.x, p.y));
      return;
    }
    pointers.set(e.pointerId, p);
    if (pointers.size === 2) {
      var d = spread(), mid = middle();
      if (pinch > 0 && d > 0) zoomAt(d / pinch, mid.x, mid.y, true);
      pinch = d;
      return;
    }
    if (press && !press.moved && Math.abs(p.x - press.x) + Math.abs(p.y - press.y) >= CLICK_PX) {
      press.moved = true;
      canvas.classList.add("dragging");
      setHover(-1);
    }
    if (press && press.moved) pan(p.x - prev.x, p.y - prev.y);
  });

  function release(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    canvas.classList.remove("dragging");
    if (e.type === "pointerup" && press && !press.moved && pointers.size === 0) {
      var p = local(e), i = nodeAt(p.x, p.y);
      if (e.pointerType === "mouse") open(i); else tap(i);
    }
    press = null;
    pinch = 0;
  }
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  // A finger leaves the canvas as it lifts: only a mouse's leaving ends
  // the pointing.
  canvas.addEventListener("pointerleave", function (e) { if (e.pointerType === "mouse" && pointers.size === 0) setHover(-1); });

  // tap names the node under a finger (a touch screen has no pointing
  // without a press) and offers its page; the same node tapped again
  // opens it, and a tap off the nodes lets it go.
  function tap(i) {
    if (i >= 0 && i === selected) {
      open(i);
      return;
    }
    select(i);
  }

  function select(i) {
    selected = i;
    canvas.dataset.selected = String(i);
    keyboard = false;
    hover = -1;
    showTip(i);
    var url = i >= 0 ? g.doc.nodes[i].url : "";
    if (openLink) {
      openLink.hidden = !url;
      if (url) {
        openLink.href = pageURL(url);
        openLink.textContent = "Open " + short(label(i), 60);
      }
    }
    if (i >= 0) {
      var nd = g.doc.nodes[i];
      say(label(i) + " (" + nd.type + ", " + (nd.degree || 0) + " links)" + (url ? ". Tap it again to open its page." : "."));
    }
    schedule();
  }

  function spread() {
    var ps = Array.from(pointers.values());
    return ps.length < 2 ? 0 : Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y);
  }

  function middle() {
    var ps = Array.from(pointers.values());
    return { x: (ps[0].x + ps[1].x) / 2, y: (ps[0].y + ps[1].y) / 2 };
  }

  canvas.addEventListener("wheel", function (e) {
    if (!g) return;
    e.preventDefault();
    var dy = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? view.h : 1);
    var p = local(e);
    zoomAt(Math.exp(-clamp(dy, -300, 300) * 0.002), p.x, p.y, true);
  }, { passive: false });

  canvas.addEventListener("keydown", function (e) {
    if (!g || e.altKey || e.ctrlKey || e.metaKey) return;
    var stepPx = (e.shiftKey ? 0.5 : 0.15) * Math.min(view.w, view.h);
    switch (e.key) {
      case "+": case "=": zoomAt(1.5, view.w / 2, view.h / 2); break;
      case "-": case "_": zoomAt(1 / 1.5, view.w / 2, view.h / 2); break;
      case "0": fit(); schedule(); break;
      case "ArrowLeft": pan(stepPx, 0); break;
      case "ArrowRight": pan(-stepPx, 0); break;
      case "ArrowUp": pan(0, stepPx); break;
      case "ArrowDown": pan(0, -stepPx); break;
      case "Enter": open(picked); break;
      case "Escape": picked = -1; showTip(-1); schedule(); break;
      default: return;
    }
    e.preventDefault();
    if (e.key !== "Enter" && e.key !== "Escape") {
      keyboard = true;
      hover = -1;
      pickCentre();
    }
  });

  canvas.addEventListener("blur", function () {
    if (keyboard) { showTip(-1); schedule(); }
  });

  // filter applies a type checkbox.
  function filter(input) {
    var list = input.name === "edge" ? g.etypes : g.ntypes, show = input.name === "edge" ? g.showEdge : g.showNode;
    for (var k = 0; k < list.length; k++) if (list[k].type === input.value) show[k] = input.checked;
  }

  form.addEventListener("change", function (e) {
    var t = e.target;
    if (!g || t.type !== "checkbox") return;
    filter(t);
    if (hover >= 0 && !shown(hover)) setHover(-1);
    if (selected >= 0 && !shown(selected)) select(-1);
    version++;
    summary();
    schedule();
  });

  box.addEventListener("click", function (e) {
    var b = e.target.closest ? e.target.closest("button[data-zoom]") : null;
    if (!b || !g) return;
    var z = b.getAttribute("data-zoom");
    if (z === "fit") { fit(); schedule(); } else if (z === "all") { fitAll(); schedule(); } else zoomAt(z === "in" ? 1.5 : 1 / 1.5, view.w / 2, view.h / 2);
  });

  if (smallButton) {
    smallButton.addEventListener("click", function () {
      if (!g) return;
      showSmall(!g.showSmall);
      if (g.showSmall) fitAll(); else fit();
      schedule();
    });
  }

  // --- start ------------------------------------------------------------

  readColours();
  if (window.matchMedia) {
    var dark = window.matchMedia("(prefers-color-scheme: dark)");
    var recolour = function () { readColours(); version++; schedule(); };
    if (dark.addEventListener) dark.addEventListener("change", recolour);
  }

  fetch(canvas.getAttribute("data-src"), { credentials: "same-origin" })
    .then(function (r) {
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    })
    .then(function (doc) {
      load(doc);
      // Back from a node's page, the browser may restore the checkboxes.
      Array.prototype.forEach.call(form.querySelectorAll("input[type=checkbox]"), filter);
      showSmall(g.showSmall);
      view.w = 0;
      resize();
      if (window.ResizeObserver) new ResizeObserver(resize).observe(canvas);
      window.addEventListener("resize", resize);
    })
    .catch(function () {
      say(location.protocol === "file:" ? "The drawing reads the graph's JSON, which a browser does not let a page opened from disk do: serve the folder (engram serve, or python3 -m http.server). The tables below list the nodes." : "The drawing could not be loaded; the tables below list the nodes.");
      canvas.hidden = true;
    });
})();
