// engram: the episodes page's combined filter (outcome, tag and date at
// once). Without JavaScript the page lists the newest episodes and links
// to one-facet pages (outcomes, tags, timeline); with it, this script reads
// the page's JSON twin (every episode summary) the first time the form is
// used, and lists the episodes that match all the choices. No inline code:
// the site's Content-Security-Policy allows only its own files.
(function () {
  "use strict";
  var form = document.getElementById("episode-filter");
  var out = document.getElementById("filter-results");
  if (!form || !out) return;
  var MAX = 500;
  var episodes = null;

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

  function load() {
    if (episodes) return Promise.resolve(episodes);
    return fetch(form.getAttribute("data-src")).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    }).then(function (doc) {
      episodes = doc.items || [];
      return episodes;
    });
  }

  function text(tag, s, cls) {
    var e = document.createElement(tag);
    e.textContent = s;
    if (cls) e.className = cls;
    return e;
  }

  function matches(e, f) {
    var o = e.outcome || "unknown";
    if (f.outcome && o !== f.outcome) return false;
    if (f.tag && (e.tags || []).map(function (t) { return t.toLowerCase(); }).indexOf(f.tag) < 0) return false;
    var d = (e.date || "").slice(0, 10);
    if (f.from && d < f.from) return false;
    if (f.to && d > f.to) return false;
    return true;
  }

  function render(list, f) {
    out.textContent = "";
    var hits = list.filter(function (e) { return matches(e, f); });
    var p = text("p", hits.length + (hits.length === 1 ? " episode matches" : " episodes match") +
      (hits.length > MAX ? "; the newest " + MAX + " are listed." : "."));
    p.setAttribute("role", "status");
    out.appendChild(p);
    if (!hits.length) return;
    var table = document.createElement("table");
    var head = table.createTHead().insertRow();
    ["Date", "Outcome", "Episode", "Task"].forEach(function (h) {
      var th = text("th", h);
      th.scope = "col";
      head.appendChild(th);
    });
    var body = table.createTBody();
    hits.slice(0, MAX).forEach(function (e) {
      var row = body.insertRow();
      row.insertCell().appendChild(text("time", (e.date || "").slice(0, 10)));
      row.insertCell().appendChild(text("span", e.outcome || "unknown", "badge " + (e.outcome || "")));
      var a = text("a", e.title || e.id);
      if (/^(\/|https?:)/.test(e.url || "")) a.href = pageURL(e.url);
      row.insertCell().appendChild(a);
      row.insertCell().textContent = e.task || "";
    });
    out.appendChild(table);
  }

  function apply(ev) {
    if (ev) ev.preventDefault();
    var f = {
      outcome: form.elements.outcome.value,
      tag: form.elements.tag.value.trim().replace(/^#/, "").toLowerCase(),
      from: form.elements.from.value,
      to: form.elements.to.value
    };
    if (!f.outcome && !f.tag && !f.from && !f.to) {
      out.textContent = "";
      return;
    }
    load().then(function (list) { render(list, f); }, function () {
      out.textContent = "";
      out.appendChild(text("p", "The episode list could not be loaded."));
    });
  }

  // Opened from disk, a page cannot read its JSON twin: the filter stays
  // hidden and the links by outcome, tag and month do its work.
  if (location.protocol === "file:") return;
  form.hidden = false;
  form.addEventListener("submit", apply);
  form.addEventListener("change", apply);
  form.addEventListener("reset", function () { out.textContent = ""; });
})();
