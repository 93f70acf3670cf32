package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The quality checks (issue 18) run tools from npm that .ci/run installs,
// pinned, outside the clone, and names in these variables.
const (
	// AxeEnv names axe-core's axe.min.js.
	AxeEnv = "ENGRAM_AXE"
	// HTMLValidateEnv names html-validate's command (node_modules/.bin).
	HTMLValidateEnv = "ENGRAM_HTML_VALIDATE"
	// LighthouseEnv names Lighthouse's command (node_modules/.bin).
	LighthouseEnv = "ENGRAM_LIGHTHOUSE"
)

// toolNames say what each variable names, for the message when it is unset.
var toolNames = map[string]string{AxeEnv: "axe-core's axe.min.js", HTMLValidateEnv: "the html-validate command", LighthouseEnv: "the lighthouse command"}

// NPMTools returns the paths the variables envs name, in order. Without
// one the test is skipped, naming it, or fails when $CI is set (as
// Chromium).
func NPMTools(t testing.TB, envs ...string) []string {
	t.Helper()
	var missing, paths []string
	for _, env := range envs {
		p := os.Getenv(env)
		paths = append(paths, p)
		if p == "" {
			missing = append(missing, fmt.Sprintf("%s (%s=unset)", toolNames[env], env))
		} else if _, err := os.Stat(p); err != nil {
			missing = append(missing, fmt.Sprintf("%s (%s=%s: %v)", toolNames[env], env, p, err))
		}
	}
	if len(missing) > 0 {
		msg := "missing " + strings.Join(missing, ", ") + ": .ci/run installs them from npm and sets the variables"
		if os.Getenv("CI") != "" {
			t.Fatal(msg + ", and CI is set")
		}
		t.Skip(msg)
	}
	return paths
}

// Emulate sets the viewport (a phone's at 390 px, a desktop's at 1280)
// and the colour scheme the page is shown in.
func Emulate(ctx context.Context, width int, theme string) error {
	height, mobile := int64(900), false
	if width < 600 {
		height, mobile = 844, true
	}
	if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(width), Height: height, DeviceScaleFactor: 1, Mobile: mobile}); err != nil {
		return err
	}
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}})
	return err
}

// overflowJS measures the document against the viewport and, when it is
// wider, names the elements that stick out: those whose box passes the
// viewport's edge further than their parent's does (the parent only
// holds them), outside any scrolling or clipping box that fits, widest
// reach first. The viewport is the width asked for: a phone (mobile
// emulation) zooms out to show a page that overflows, and innerWidth
// then grows to the page's width, so scrollWidth <= innerWidth would
// always hold; clientWidth leaves out a desktop's scroll bar.
const overflowJS = `(function(width){
  var vw = Math.min(width, window.innerWidth, document.documentElement.clientWidth);
  var sw = document.documentElement.scrollWidth, sx = window.scrollX;
  var res = {width: vw, innerWidth: window.innerWidth, scrollWidth: sw, culprits: []};
  if (sw <= vw) return res;
  function name(e) {
    var parts = [];
    for (; e && e.nodeType === 1 && e !== document.documentElement; e = e.parentElement) {
      var s = e.tagName.toLowerCase();
      if (e.id) { parts.unshift(s + '#' + CSS.escape(e.id)); break; }
      if (e.classList.length) s += '.' + Array.from(e.classList).map(CSS.escape).join('.');
      var p = e.parentElement;
      if (p) {
        var same = Array.from(p.children).filter(function(c){ return c.tagName === e.tagName; });
        if (same.length > 1) s += ':nth-of-type(' + (same.indexOf(e) + 1) + ')';
      }
      parts.unshift(s);
    }
    return parts.join(' > ');
  }
  // Only the right edge: what passes the left one cannot be scrolled to
  // (a skip link kept off screen until it has the focus).
  function outside(r) { return r.right + sx > vw + 0.5; }
  function held(e) {
    for (var a = e.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible' && !outside(a.getBoundingClientRect())) return true;
    }
    return false;
  }
  // The longest line of text inside e: what most likely keeps it wide
  // (a long URL, a code span, a cell that does not wrap).
  function longest(e) {
    var best = null, w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (var n = w.nextNode(); n; n = w.nextNode()) {
      if (!n.data.trim()) continue;
      var r = document.createRange();
      r.selectNodeContents(n);
      Array.from(r.getClientRects()).forEach(function(c){
        if (!best || c.width > best.width) best = {el: n.parentElement, width: c.width, text: n.data.trim()};
      });
    }
    return best;
  }
  var groups = new Map();
  document.querySelectorAll('body *').forEach(function(e){
    var r = e.getBoundingClientRect();
    if ((r.width === 0 && r.height === 0) || !outside(r) || held(e)) return;
    var p = e.parentElement;
    if (p && p !== document.body && p.getBoundingClientRect().right >= r.right - 0.5) return;
    // Siblings that stick out of the same parent (the items of a grid
    // or a list) are one finding, named by the parent.
    var g = groups.get(p);
    if (!g) { g = {parent: p, items: []}; groups.set(p, g); }
    g.items.push(e);
  });
  groups.forEach(function(g){
    var right = 0, left = Infinity, line = null;
    g.items.forEach(function(x){
      var r = x.getBoundingClientRect(), l = longest(x);
      right = Math.max(right, r.right + sx); left = Math.min(left, r.left + sx);
      if (l && (!line || l.width > line.width)) line = l;
    });
    var sel = g.items.length === 1 ? name(g.items[0]) : name(g.parent) + ' > ' + Array.from(new Set(g.items.map(function(x){ return x.tagName.toLowerCase(); }))).join(', ') + ' (' + g.items.length + ' children)';
    res.culprits.push({selector: sel, left: left, right: right, html: g.items[0].outerHTML.replace(/\s+/g, ' ').slice(0, 100),
      line: line ? line.text.slice(0, 80) : '', lineIn: line ? name(line.el) : '', lineWidth: line ? line.width : 0});
  });
  res.culprits.sort(function(a, b){ return b.right - a.right; });
  res.culprits = res.culprits.slice(0, 8);
  return res;
})`

// Overflow is what overflowJS measured: the viewport's width, the
// document's, and the elements that stick out, widest reach first.
type Overflow struct {
	Width       int `json:"width"`
	InnerWidth  int `json:"innerWidth"`
	ScrollWidth int `json:"scrollWidth"`
	Culprits    []struct {
		Selector  string  `json:"selector"`
		Left      float64 `json:"left"`
		Right     float64 `json:"right"`
		HTML      string  `json:"html"`
		Line      string  `json:"line"`
		LineIn    string  `json:"lineIn"`
		LineWidth float64 `json:"lineWidth"`
	} `json:"culprits"`
}

// MeasureOverflow measures the page in ctx against a viewport width px
// wide (overflowJS).
func MeasureOverflow(ctx context.Context, width int) (Overflow, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[Overflow](fmt.Sprintf("%s(%d)", overflowJS, width)))
}

// AxeViolation is one rule axe-core found broken, with the elements.
type AxeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  string `json:"target"`
		HTML    string `json:"html"`
		Summary string `json:"summary"`
	} `json:"nodes"`
}

// axeRunJS runs axe-core's default rules (WCAG 2 A and AA, and best
// practices) on the page, and returns the violations.
const axeRunJS = `axe.run(document, {resultTypes: ['violations'], ancestry: true}).then(function(r){
  return r.violations.map(function(v){
    return {id: v.id, impact: v.impact || '', help: v.help, nodes: v.nodes.map(function(n){
      return {target: (n.ancestry || n.target).map(String).join(' ').replace(/^html > body > /, ''),
        html: n.html.replace(/\s+/g, ' ').slice(0, 100), summary: (n.failureSummary || '').replace(/\s+/g, ' ').trim()};
    })};
  });
})`

// RunAxe injects axe-core into the page, unless it is there, and runs it.
// The site's CSP allows no inline script, but what the DevTools protocol
// evaluates is not the page's script, and axe needs no eval.
func RunAxe(ctx context.Context, src []byte) ([]AxeViolation, error) {
	tctx, cancel := context.WithCancel(ctx)
	defer cancel()
	loaded, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`typeof window.axe === 'object'`))
	if err != nil {
		return nil, err
	}
	if !loaded {
		if _, err := chromedp.Run(tctx, chromedp.Evaluate[json.RawMessage](string(src)+";true")); err != nil {
			return nil, fmt.Errorf("inject axe-core: %w", err)
		}
	}
	return chromedp.Run(tctx, chromedp.Evaluate[[]AxeViolation](axeRunJS, chromedp.EvalAwaitPromise))
}

// htmlValidateConfig is html-validate's configuration: its
// recommended preset, the strictest of its presets (the standard one's
// validity of the document and WCAG techniques, and best practices of
// accessibility, security, SEO and style), with no rule turned off. Each
// rule it holds applies to what the templates write and nothing of
// Hugo's own output is in the way: a rule that breaks is fixed in the
// templates. Should one ever have to be turned off, it is listed here
// with the reason.
const htmlValidateConfig = `{
  "root": true,
  "extends": ["html-validate:recommended"]
}`

// HTMLMessage is one of html-validate's findings.
type HTMLMessage struct {
	RuleID   string `json:"ruleId"`
	Severity int    `json:"severity"`
	Message  string `json:"message"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Selector string `json:"selector"`
}

// HTMLValidate runs html-validate once over files, and returns its
// findings by file.
func HTMLValidate(t testing.TB, bin string, files []string) map[string][]HTMLMessage {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "htmlvalidate.json")
	if err := os.WriteFile(cfg, []byte(htmlValidateConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	// The report goes to a file: node can exit before a pipe has taken
	// all of a large one.
	report := filepath.Join(filepath.Dir(cfg), "report.json")
	cmd := exec.Command(bin, append([]string{"--config", cfg, "--formatter", "json=" + report}, files...)...)
	b, err := cmd.CombinedOutput()
	// It exits 1 when it finds an error; anything else is its own failure.
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("html-validate: %v\n%s", err, b)
	}
	stdout, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("html-validate wrote no report: %v\n%s", err, b)
	}
	var results []struct {
		FilePath string        `json:"filePath"`
		Messages []HTMLMessage `json:"messages"`
	}
	if err := json.Unmarshal(stdout, &results); err != nil {
		t.Fatalf("html-validate's report: %v\n%.2000s", err, stdout)
	}
	msgs := map[string][]HTMLMessage{}
	for _, r := range results {
		f := r.FilePath
		if !filepath.IsAbs(f) {
			f, _ = filepath.Abs(f)
		}
		msgs[f] = append(msgs[f], r.Messages...)
	}
	return msgs
}
