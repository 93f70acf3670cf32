// engram site search: a static index, no server. The index is built by
// engram (indexer/search/static.go) with the analysis of its bleve index;
// this script repeats that analysis on the query (Unicode word
// segmentation, possessive, lower case, stop words, Porter stemmer),
// fetches only the postings files of the query's terms and the display
// rows of the best hits, and adds BM25 scores. No dependencies, no eval,
// nothing inline: it runs under a strict Content-Security-Policy.
(function () {
  "use strict";

  // --- Porter stemmer: a port of github.com/blevesearch/go-porterstemmer,
  // quirks included (a suffix must be shorter than the word; words of two
  // letters or fewer are left alone), on arrays of code points.
  function isConsonant(s, i) {
    switch (s[i]) {
      case "a": case "e": case "i": case "o": case "u": return false;
      case "y": return i === 0 ? true : !isConsonant(s, i - 1);
      default: return true;
    }
  }
  function measure(s) {
    var n = s.length, m = 0, i = 0;
    if (n === 0) return 0;
    while (isConsonant(s, i)) { i++; if (i >= n) return m; }
    for (;;) {
      while (!isConsonant(s, i)) { i++; if (i >= n) return m; }
      while (isConsonant(s, i)) { i++; if (i >= n) return m + 1; }
      m++;
    }
  }
  function hasSuffix(s, suf) {
    if (s.length <= suf.length) return false;
    for (var i = 0; i < suf.length; i++) {
      if (s[s.length - suf.length + i] !== suf[i]) return false;
    }
    return true;
  }
  function containsVowel(s) {
    for (var i = 0; i < s.length; i++) if (!isConsonant(s, i)) return true;
    return false;
  }
  function doubleConsonant(s) {
    var n = s.length;
    return n >= 2 && s[n - 1] === s[n - 2] && isConsonant(s, n - 1);
  }
  function cvc(s) {
    var n = s.length;
    return n >= 3 && isConsonant(s, n - 3) && !isConsonant(s, n - 2) && isConsonant(s, n - 1);
  }
  function step1a(s) {
    if (hasSuffix(s, "sses")) return s.slice(0, -2);
    if (hasSuffix(s, "ies")) return s.slice(0, -2);
    if (hasSuffix(s, "ss")) return s;
    if (hasSuffix(s, "s")) return s.slice(0, -1);
    return s;
  }
  function step1bTail(s, stem) {
    // stem: the word without "ed" or "ing", which contains a vowel.
    var c = stem[stem.length - 1];
    if (hasSuffix(stem, "at") || hasSuffix(stem, "bl") || hasSuffix(stem, "iz")) return stem.concat(["e"]);
    if (c !== "l" && c !== "s" && c !== "z" && doubleConsonant(stem)) return stem.slice(0, -1);
    if (measure(stem) === 1 && cvc(stem) && c !== "w" && c !== "x" && c !== "y") return stem.concat(["e"]);
    return stem;
  }
  function step1b(s) {
    var stem;
    if (hasSuffix(s, "eed")) {
      return measure(s.slice(0, -3)) > 0 ? s.slice(0, -1) : s;
    }
    if (hasSuffix(s, "ed")) {
      stem = s.slice(0, -2);
      return containsVowel(stem) ? step1bTail(s, stem) : s;
    }
    if (hasSuffix(s, "ing")) {
      stem = s.slice(0, -3);
      return containsVowel(stem) ? step1bTail(s, stem) : s;
    }
    return s;
  }
  function step1c(s) {
    var n = s.length;
    if (n < 2) return s;
    if (s[n - 1] === "y" && containsVowel(s.slice(0, -1))) return s.slice(0, -1).concat(["i"]);
    if (s[n - 1] === "Y" && containsVowel(s.slice(0, -1))) return s.slice(0, -1).concat(["I"]);
    return s;
  }
  // Each rule: [suffix, replacement]; applies when the measure of the
  // stem before the suffix is above the step's minimum.
  var step2Rules = [
    ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"],
    ["bli", "ble"], ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"],
    ["ization", "ize"], ["ation", "ate"], ["ator", "ate"], ["alism", "al"], ["iveness", "ive"],
    ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"], ["iviti", "ive"], ["biliti", "ble"], ["logi", "log"]
  ];
  var step3Rules = [["icate", "ic"], ["ative", ""], ["alize", "al"], ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""]];
  var step4Suffixes = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];
  function applyRules(s, rules, min) {
    for (var i = 0; i < rules.length; i++) {
      var suf = rules[i][0];
      if (hasSuffix(s, suf)) {
        var stem = s.slice(0, s.length - suf.length);
        return measure(stem) > min ? stem.concat(Array.from(rules[i][1])) : s;
      }
    }
    return s;
  }
  function step4(s) {
    for (var i = 0; i < step4Suffixes.length; i++) {
      var suf = step4Suffixes[i];
      if (hasSuffix(s, suf)) {
        var stem = s.slice(0, s.length - suf.length);
        if (suf === "ion") {
          var c = stem[stem.length - 1];
          return measure(stem) > 1 && (c === "s" || c === "t") ? stem : s;
        }
        return measure(stem) > 1 ? stem : s;
      }
    }
    return s;
  }
  function step5a(s) {
    var n = s.length;
    if (n === 0 || s[n - 1] !== "e") return s;
    var stem = s.slice(0, -1), m = measure(stem), c = stem[stem.length - 1];
    if (m > 1) return stem;
    if (m === 1 && !(cvc(stem) && c !== "w" && c !== "x" && c !== "y")) return stem;
    return s;
  }
  function step5b(s) {
    var n = s.length;
    if (n > 2 && s[n - 2] === "l" && s[n - 1] === "l" && measure(s.slice(0, -1)) > 1) return s.slice(0, -1);
    return s;
  }
  function stem(word) {
    var s = Array.from(word);
    if (s.length <= 2) return word;
    s = step5b(step5a(step4(applyRules(applyRules(step1c(step1b(step1a(s))), step2Rules, 0), step3Rules, 0))));
    return s.join("");
  }

  // --- Analysis, as bleve's "en" analyzer.
  var ideographic = /[\p{Script=Han}\p{Script=Hiragana}]/u;
  var katakana = /\p{Script=Katakana}|\u30FC/u;
  var dropped = /^[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+$/u;
  var wordLike = /[\p{L}\p{N}]/u;
  // Word segmentation as UAX #29, which bleve's tokenizer follows: the
  // browser's Intl.Segmenter, then the joins some browsers' segmenters
  // skip: letters or digits around a single "." "'" "’" ":" (time.Now,
  // go.sum) and digits around "," or ";" (1,000) stay one word.
  var letterOrDigit = /^[\p{L}\p{N}_]/u, endsLetterOrDigit = /[\p{L}\p{N}_]$/u;
  var midLetter = { ".": 1, "'": 1, "’": 1, ":": 1, "·": 1, "＇": 1, "．": 1 };
  var midNum = { ",": 1, ";": 1, "．": 1, "'": 1, "’": 1, ".": 1 };
  var digitEnd = /\p{N}$/u, digitStart = /^\p{N}/u, letterEnd = /\p{L}$/u, letterStart = /^\p{L}/u;
  function segments(text) {
    var raw = [];
    if (typeof Intl !== "undefined" && Intl.Segmenter) {
      for (var seg of new Intl.Segmenter("en", { granularity: "word" }).segment(text)) raw.push(seg.segment);
    } else {
      raw = text.match(/[\p{L}\p{N}_]+|[^\p{L}\p{N}_]/gu) || [];
    }
    var out = [];
    for (var i = 0; i < raw.length; i++) {
      var w = raw[i];
      if (!wordLike.test(w)) continue;
      while (i + 2 < raw.length && letterOrDigit.test(raw[i + 2]) && endsLetterOrDigit.test(w)) {
        var sep = raw[i + 1], next = raw[i + 2];
        var letters = midLetter[sep] && letterEnd.test(w) && letterStart.test(next);
        var digits = midNum[sep] && digitEnd.test(w) && digitStart.test(next);
        if (!letters && !digits) break;
        w += sep + next;
        i += 2;
      }
      out.push(w);
    }
    return out;
  }
  // Han and Hiragana are one term a character; a Katakana run is one term.
  function splitScripts(word) {
    if (!ideographic.test(word) && !katakana.test(word)) return [word];
    var out = [], run = "";
    for (var ch of word) {
      if (ideographic.test(ch)) {
        if (run) { out.push(run); run = ""; }
        out.push(ch);
      } else {
        run += ch;
      }
    }
    if (run) out.push(run);
    return out;
  }
  function analyze(text, stop) {
    var terms = [];
    segments(text).forEach(function (w) {
      if (dropped.test(w)) return;
      splitScripts(w).forEach(function (t) {
        t = t.replace(/['’＇][sS]$/u, "").toLowerCase();
        if (!t || stop.has(t)) return;
        terms.push(stem(t));
      });
    });
    return terms;
  }

  // --- The index.
  function fnv1a(term) {
    var h = 0x811c9dc5, bytes = new TextEncoder().encode(term);
    for (var i = 0; i < bytes.length; i++) {
      h ^= bytes[i];
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h >>> 0;
  }
  var base = (document.querySelector("meta[name=engram-api]") || {}).content || "/api/v1/";
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
  var cache = {};
  function fetchJSON(path) {
    if (!cache[path]) {
      cache[path] = fetch(base + "search/" + path, { credentials: "same-origin" }).then(function (r) {
        if (r.status === 404) return null;
        if (!r.ok) throw new Error(path + ": HTTP " + r.status);
        return r.json();
      });
    }
    return cache[path];
  }
  var maxQuery = 1000; // characters: a query is words, not a document

  // search mirrors StaticSearch (indexer/search/staticquery.go), which
  // the tests hold it to: the first tier of each term's postings, then,
  // while a document outside the best `limit` could still overtake the
  // last of them, the next tier of the term that could add the most, up
  // to a budget of postings.
  function search(query, limit) {
    return fetchJSON("meta.json").then(function (meta) {
      var stop = new Set(meta.stop_words);
      var terms = Array.from(new Set(analyze(query.slice(0, maxQuery), stop))).slice(0, 32);
      if (!terms.length) return { terms: terms, hits: [] };
      return Promise.all(terms.map(function (t) {
        return fetchJSON("t/" + (fnv1a(t) & (meta.term_shards - 1)).toString(16) + ".json").then(function (shard) {
          var term = { name: t, scores: new Map(), more: [], tier: 1, size: meta.first_tier * meta.tier_growth };
          if (shard) {
            addPostings(term.scores, (shard.p && shard.p[t]) || []);
            term.more = (shard.more && shard.more[t]) || [];
          }
          return term;
        });
      })).then(function (ts) {
        return settle(ts, limit, { left: meta.tier_budget, growth: meta.tier_growth }).then(function (ranked) {
          return Promise.all(ranked.map(function (r) {
            return fetchJSON("d/" + Math.floor(r.doc / meta.doc_shard) + ".json").then(function (rows) {
              var row = rows[r.doc % meta.doc_shard];
              return { id: row[0], type: row[1], outcome: row[2], url: row[3], title: row[4], snippet: row[5], score: r.lo / ts.length / 1000 };
            });
          }));
        }).then(function (hits) { return { terms: terms, hits: hits }; });
      });
    });
  }
  // addPostings adds a tier (document gaps and scores) to a term's scores.
  function addPostings(scores, flat) {
    for (var i = 0, doc = 0; i + 1 < flat.length; i += 2) {
      doc += flat[i];
      scores.set(doc, flat[i + 1]);
    }
  }
  function bound(t) { return t.more.length ? t.more[0] : 0; }
  // settle ranks the documents read so far, reading further tiers until
  // no other document could enter the best `limit`, or the budget of
  // postings is spent. Scores are kept times the number of terms:
  // integers, as StaticSearch keeps them.
  function settle(ts, limit, budget) {
    var sum = new Map(), matched = new Map(), open = 0, openCount = 0;
    ts.forEach(function (t) {
      t.scores.forEach(function (s, d) {
        sum.set(d, (sum.get(d) || 0) + s);
        matched.set(d, (matched.get(d) || 0) + 1);
      });
      if (bound(t) > 0) { open += bound(t); openCount++; }
    });
    var ranked = [];
    sum.forEach(function (s, d) {
      var more = s, count = matched.get(d);
      ts.forEach(function (t) {
        if (bound(t) > 0 && !t.scores.has(d)) { more += bound(t); count++; }
      });
      ranked.push({ doc: d, lo: s * matched.get(d), hi: more * count });
    });
    ranked.sort(function (a, b) { return b.lo - a.lo || a.doc - b.doc; });
    var settled = openCount === 0;
    if (!settled && ranked.length >= limit) {
      var last = ranked[limit - 1].lo;
      settled = open * openCount < last;
      for (var i = limit; settled && i < ranked.length; i++) {
        if (ranked[i].hi >= last) settled = false;
      }
    }
    if (settled) return Promise.resolve(ranked.slice(0, limit));
    var next = ts[0];
    ts.forEach(function (t) { if (bound(t) > bound(next)) next = t; });
    if (next.size > budget.left) return Promise.resolve(ranked.slice(0, limit));
    budget.left -= next.size;
    var path = "t/" + ("0000000" + fnv1a(next.name).toString(16)).slice(-8) + "-" + next.tier + ".json";
    return fetchJSON(path).then(function (tier) {
      addPostings(next.scores, (tier && tier[next.name]) || []);
      next.more = next.more.slice(1);
      next.tier++;
      next.size *= budget.growth;
      return settle(ts, limit, budget);
    });
  }

  // --- The page.
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }
  function render(box, query, result) {
    box.replaceChildren();
    var status = el("p", "muted");
    status.setAttribute("role", "status");
    if (!result.terms.length) {
      status.textContent = query.trim() ? "Nothing to search for: only common words or punctuation." : "Type a query.";
      box.append(status);
      return;
    }
    status.textContent = result.hits.length ? result.hits.length + " best matches for “" + query + "”" : "No matches for “" + query + "”.";
    box.append(status);
    if (!result.hits.length) return;
    var ol = el("ol", "results");
    result.hits.forEach(function (h) {
      var li = el("li", "result");
      var a = el("a", null, h.title || h.id);
      a.href = pageURL(h.url);
      var p = el("p");
      p.append(a, " ");
      if (h.title && h.title !== h.id) p.append(el("span", "id", h.id), " ");
      p.append(el("span", "badge", h.type));
      if (h.outcome) p.append(" ", el("span", "badge " + h.outcome, h.outcome));
      li.append(p);
      if (h.snippet) li.append(el("p", "muted", h.snippet));
      ol.append(li);
    });
    box.append(ol);
  }
  function start() {
    var box = document.getElementById("search-results");
    if (!box) return;
    var q = new URLSearchParams(location.search).get("q") || "";
    var input = document.querySelector("form[role=search] input[name=q]");
    if (input) input.value = q;
    box.replaceChildren(el("p", "muted", q ? "Searching…" : "Type a query."));
    if (!q) return;
    if (location.protocol === "file:") {
      // Browsers do not let a page opened from disk read the index.
      box.replaceChildren(el("p", "missing", "Search reads the site's index, which a browser does not let a page opened from disk do: serve the folder (engram serve, or python3 -m http.server) and search there."));
      return;
    }
    search(q, 10).then(function (r) { render(box, q, r); }, function (err) {
      box.replaceChildren(el("p", "missing", "Search failed: " + err.message));
    });
  }
  // For tests and for other scripts: the same analysis and search.
  window.engramSearch = { analyze: analyze, stem: stem, search: search, shard: fnv1a };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
