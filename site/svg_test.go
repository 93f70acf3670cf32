package site

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
)

// hostile is a label that would run a script if it reached the page
// unescaped, as text or in an attribute.
const hostile = `<script>alert(1)</script>" onload="x' onclick='y & more`

// svgElement is an element of a parsed chart with its attributes by name.
type svgElement struct {
	name  string
	attrs map[string]string
}

func (e svgElement) class(c string) bool { return slices.Contains(strings.Fields(e.attrs["class"]), c) }

// checkSVG parses a chart as XML and fails on anything that the site's
// CSP forbids or that a note could turn into script: a style attribute or
// element, an event handler, a script, a link that is neither a site path
// nor http(s). It also checks the accessible name and that ids are unique
// and every url(#id) and aria reference resolves.
func checkSVG(t *testing.T, s string) []svgElement {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	var els []svgElement
	ids := map[string]bool{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, s)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		el := svgElement{se.Name.Local, map[string]string{}}
		switch strings.ToLower(el.name) {
		case "script", "style", "foreignobject", "iframe", "image", "use":
			t.Errorf("<%s> in a chart", el.name)
		}
		for _, a := range se.Attr {
			name := strings.ToLower(a.Name.Local)
			el.attrs[name] = a.Value
			switch {
			case name == "style" || strings.HasPrefix(name, "on"):
				t.Errorf("attribute %s=%q on <%s>", a.Name.Local, a.Value, el.name)
			case name == "href" && !(strings.HasPrefix(a.Value, "/") || strings.HasPrefix(a.Value, "https://") || strings.HasPrefix(a.Value, "http://")):
				t.Errorf("href %q", a.Value)
			case name == "id" && ids[a.Value]:
				t.Errorf("duplicate id %q", a.Value)
			case name == "id":
				ids[a.Value] = true
			}
		}
		els = append(els, el)
	}
	if len(els) == 0 || els[0].name != "svg" || els[0].attrs["viewbox"] == "" || els[0].attrs["role"] == "" {
		t.Fatalf("not an svg with a viewBox and a role:\n%s", s)
	}
	refs := strings.Fields(els[0].attrs["aria-labelledby"])
	for _, el := range els {
		for _, v := range el.attrs {
			if ref, ok := strings.CutPrefix(v, "url(#"); ok {
				refs = append(refs, strings.TrimSuffix(ref, ")"))
			}
		}
	}
	for _, r := range refs {
		if !ids[r] {
			t.Errorf("reference to a missing id %q", r)
		}
	}
	if strings.Contains(strings.ToLower(s), "<script") {
		t.Errorf("unescaped <script in\n%s", s)
	}
	return els
}

// texts are the character data of a chart, joined by newlines.
func texts(t *testing.T, s string) string {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	var b strings.Builder
	for {
		tok, err := dec.Token()
		if err != nil {
			return b.String()
		}
		if cd, ok := tok.(xml.CharData); ok {
			b.Write(cd)
			b.WriteByte('\n')
		}
	}
}

func dated(date, outcome string) export.EpisodeSummary {
	return export.EpisodeSummary{ID: "EP-" + date, Date: date, Outcome: outcome}
}

// barCounts sums data-count of the bars by outcome class.
func barCounts(els []svgElement) (map[string]int, int) {
	counts, periods := map[string]int{}, 0
	for _, el := range els {
		if el.class("oc-ocPeriod") {
			periods++
		}
		if n, ok := el.attrs["data-count"]; ok {
			k, _ := strconv.Atoi(n)
			for _, o := range ocKinds {
				if el.class("oc-" + o.class) {
					counts[o.class] += k
				}
			}
		}
	}
	return counts, periods
}

// episodesEvery makes n episodes step apart from start, outcomes in turn.
func episodesEvery(n int, start time.Time, step time.Duration) []export.EpisodeSummary {
	eps := make([]export.EpisodeSummary, n)
	for i := range eps {
		eps[i] = dated(start.Add(time.Duration(i)*step).Format(time.RFC3339), []string{"success", "partial", "failure", "", "success"}[i%5])
	}
	return eps
}

func TestOutcomesChart(t *testing.T) {
	day := 24 * time.Hour
	start := time.Date(2024, 3, 14, 9, 30, 0, 0, time.UTC)
	tests := []struct {
		name     string
		eps      []export.EpisodeSummary
		bars     int      // bars drawn (periods with episodes)
		maxSlots int      // at most this many periods on the axis
		desc     []string // in the description
	}{
		{name: "none"},
		{name: "only undated", eps: []export.EpisodeSummary{dated("", "success"), dated("soon", "failure")}},
		{name: "one", eps: []export.EpisodeSummary{dated("2026-11-17T16:40:00Z", "success")}, bars: 1, maxSlots: 1,
			desc: []string{"1 episode in the week of 16 November 2026: 1 success."}},
		{name: "a few weeks, by week", eps: episodesEvery(30, start, day), bars: 5, maxSlots: 5,
			desc: []string{"30 episodes from the week of 11 March 2024 to the week of 8 April 2024, counted by week"}},
		{name: "months with a gap", bars: 3, maxSlots: 7,
			eps:  []export.EpisodeSummary{dated("2025-01-31", "success"), dated("2025-02-01", "partial"), dated("2025-07-04T00:00:00Z", "failure"), dated("2025-07-05", "")},
			desc: []string{"4 episodes from January 2025 to July 2025, counted by month: 1 success, 1 partial, 1 failure, 1 no outcome.", "The busiest month was July 2025, with 2 episodes."}},
		{name: "undated and odd dates are counted, not drawn", bars: 1, maxSlots: 1,
			eps:  []export.EpisodeSummary{dated("2025-01-31", "success"), dated("", "success"), dated("2025-13-01", "failure"), dated("31/01/2025", ""), dated("2025-01-3x", "")},
			desc: []string{"1 episode in the week of 27 January 2025: 1 success. 4 episodes without a date are not shown."}},
		{name: "ten years", eps: episodesEvery(10000, start, 9*time.Hour), bars: 21, maxSlots: 21, desc: []string{"counted by half-year"}},
		{name: "millennia", eps: []export.EpisodeSummary{dated("0001-01-01", "success"), dated("9999-12-31", "failure")}, bars: 2, maxSlots: 36,
			desc: []string{"counted by 500 years"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := outcomesChart(tt.eps)
			if tt.bars == 0 {
				if got != "" {
					t.Fatalf("want no chart, got\n%s", got)
				}
				return
			}
			if again := outcomesChart(tt.eps); again != got {
				t.Fatal("two charts of the same episodes differ")
			}
			els := checkSVG(t, got)
			counts, bars := barCounts(els)
			want := map[string]int{}
			for _, e := range tt.eps {
				if _, ok := ocEpisodeDate(e.Date); ok {
					want[ocKinds[ocKind(e.Outcome)].class]++
				}
			}
			if fmt.Sprint(counts) != fmt.Sprint(want) {
				t.Errorf("bars count %v, want %v", counts, want)
			}
			if bars != tt.bars {
				t.Errorf("%d bars, want %d", bars, tt.bars)
			}
			c := ocCount(tt.eps)
			if len(c.counts) > tt.maxSlots || len(c.counts) > ocMaxBars {
				t.Errorf("%d periods on the axis, want at most %d", len(c.counts), tt.maxSlots)
			}
			desc := texts(t, got)
			for _, d := range tt.desc {
				if !strings.Contains(desc, d) {
					t.Errorf("description lacks %q:\n%s", d, desc)
				}
			}
		})
	}
}

// TestOutcomesBarHeights: stacked heights are proportional to the counts
// and no stack rises above the plot.
func TestOutcomesBarHeights(t *testing.T) {
	els := checkSVG(t, outcomesChart(episodesEvery(237, time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC), 2*24*time.Hour)))
	perUnit := -1.0
	for _, el := range els {
		n, ok := el.attrs["data-count"]
		if !ok {
			continue
		}
		k, _ := strconv.Atoi(n)
		h, _ := strconv.ParseFloat(el.attrs["height"], 64)
		y, _ := strconv.ParseFloat(el.attrs["y"], 64)
		if perUnit < 0 {
			perUnit = h / float64(k)
		}
		if math.Abs(h-perUnit*float64(k)) > 0.11 || y < ocTop-0.1 || y+h > ocBase+0.1 {
			t.Errorf("bar of %d: y %v height %v; %v a unit, plot %v to %v", k, y, h, perUnit, ocTop, ocBase)
		}
	}
}

// TestChoosePeriod: weeks under ten weeks, then the shortest period that
// needs at most ocMaxBars bars.
func TestChoosePeriod(t *testing.T) {
	d := func(y, m, day int) time.Time { return time.Date(y, time.Month(m), day, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		first, last time.Time
		want        string
	}{
		{d(2026, 1, 1), d(2026, 1, 1), "week"},
		{d(2026, 1, 1), d(2026, 3, 11), "week"},
		{d(2026, 1, 1), d(2026, 3, 12), "month"},
		{d(2024, 1, 1), d(2026, 12, 31), "month"},
		{d(2024, 1, 1), d(2027, 1, 1), "2 months"},
		{d(2020, 1, 1), d(2028, 12, 1), "quarter"},
		{d(2010, 1, 1), d(2027, 12, 31), "half-year"},
		{d(1990, 1, 1), d(2025, 12, 31), "year"},
		{d(1990, 1, 1), d(2026, 1, 1), "2 years"},
		{d(1, 1, 1), d(9999, 12, 31), "500 years"},
	}
	for _, tt := range tests {
		t.Run(tt.first.Format("2006-01-02")+"/"+tt.last.Format("2006-01-02"), func(t *testing.T) {
			p := ocChoosePeriod(tt.first, tt.last)
			if p.name() != tt.want {
				t.Errorf("ocPeriod %s, want %s", p.name(), tt.want)
			}
			if n := p.index(tt.last) - p.index(tt.first) + 1; n > ocMaxBars {
				t.Errorf("%d bars", n)
			}
		})
	}
}

func fptr(f float64) *float64 { return &f }
func iptr(n int) *int         { return &n }

// measured makes a pattern's statistics as the export stage publishes
// them: rate and confidence rounded to four decimals.
func measured(id string, outcomes ...string) export.Pattern {
	p := export.Pattern{ID: id, StatsSource: "evidence", Occurrences: len(outcomes)}
	sum := 0.0
	for i, o := range outcomes {
		p.Evidence = append(p.Evidence, export.EvidenceRef{ID: fmt.Sprint("EP-", i), Outcome: o})
		sum += map[string]float64{"success": 1, "partial": 0.5}[o]
	}
	r := sum / float64(len(outcomes))
	p.SuccessRate = fptr(math.Round(r*1e4) / 1e4)
	p.Confidence = fptr(math.Round(causal.Wilson(r, len(outcomes))*1e4) / 1e4)
	return p
}

func TestIntervalChart(t *testing.T) {
	declared := export.Pattern{ID: "PATTERN-d", StatsSource: "declared", SuccessRate: fptr(0.9), Occurrences: 9, Confidence: fptr(0.5),
		Declared: export.Declared{SuccessRate: fptr(0.9), Occurrences: iptr(9)}}
	both := measured("PATTERN-both", "success", "partial", "failure", "partial", "partial")
	both.Declared.SuccessRate = fptr(0.9)
	thirds := measured("PATTERN-thirds", "success", "partial", "partial")
	thirds.Evidence = nil // a summary without its evidence list: successes from the rate
	hostileID := measured(hostile, "failure")
	tests := []struct {
		name      string
		p         export.Pattern
		measured  bool
		declared  bool
		labels    []string
		notLabels []string
	}{
		{name: "no statistics", p: export.Pattern{ID: "PATTERN-none"}},
		{name: "declared only", p: declared, declared: true, labels: []string{"declared 90% over 9 episodes"}, notLabels: []string{"measured"}},
		{name: "measured only", p: measured("PATTERN-m", "success", "success", "failure", "success", "failure"), measured: true,
			labels: []string{"measured 60% (95% CI 23–88%) over 5 episodes"}, notLabels: []string{"declared"}},
		{name: "both", p: both, measured: true, declared: true, labels: []string{"measured 50% (95% CI 17–83%) over 5 episodes", "declared 90%"}},
		{name: "partial counts half, rate rounded", p: thirds, measured: true, labels: []string{"measured 67% (95% CI 21–94%) over 3 episodes"}},
		{name: "one episode, hostile id", p: hostileID, measured: true, labels: []string{"measured 0% (95% CI 0–79%) over 1 episode", hostile}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := intervalChart(tt.p)
			if !tt.measured && !tt.declared {
				if got != "" {
					t.Fatalf("want no chart, got\n%s", got)
				}
				return
			}
			if again := intervalChart(tt.p); again != got {
				t.Fatal("two charts of the same pattern differ")
			}
			els := checkSVG(t, got)
			var ci, decl int
			for _, el := range els {
				if el.class("ic-ci") {
					ci++
					// The drawn interval starts at the published confidence.
					if want := strconv.FormatFloat(*tt.p.Confidence, 'f', 4, 64); el.attrs["data-lo"] != want {
						t.Errorf("interval from %s, want the confidence %s", el.attrs["data-lo"], want)
					}
					lo, _ := strconv.ParseFloat(el.attrs["data-lo"], 64)
					hi, _ := strconv.ParseFloat(el.attrs["data-hi"], 64)
					if r := *tt.p.SuccessRate; lo > r || hi < r || hi > 1 {
						t.Errorf("interval [%v, %v] does not hold the rate %v", lo, hi, r)
					}
				}
				if el.class("ic-declared") && el.attrs["data-rate"] != "" {
					decl++
				}
			}
			if (ci == 1) != tt.measured || (decl == 1) != tt.declared {
				t.Errorf("%d intervals and %d declared markers; want measured %v, declared %v", ci, decl, tt.measured, tt.declared)
			}
			txt := texts(t, got)
			for _, l := range tt.labels {
				if !strings.Contains(txt, l) {
					t.Errorf("no %q in\n%s", l, txt)
				}
			}
			for _, l := range tt.notLabels {
				if strings.Contains(txt, l) {
					t.Errorf("%q in\n%s", l, txt)
				}
			}
		})
	}
}

// TestIntervalMatchesConfidence: for every count of evidence up to 40 and
// every mix of outcomes, the interval's lower end is the confidence the
// export publishes.
func TestIntervalMatchesConfidence(t *testing.T) {
	for n := 1; n <= 40; n++ {
		for s := 0; s <= n; s++ {
			for p := 0; s+p <= n; p++ {
				outcomes := slices.Repeat([]string{"success"}, s)
				outcomes = append(outcomes, slices.Repeat([]string{"partial"}, p)...)
				outcomes = append(outcomes, slices.Repeat([]string{"failure"}, n-s-p)...)
				pat := measured("PATTERN-x", outcomes...)
				for _, full := range []bool{true, false} {
					if !full {
						pat.Evidence = nil
					}
					got := intervalChart(pat)
					i := strings.Index(got, `data-lo="`)
					if want := strconv.FormatFloat(*pat.Confidence, 'f', 4, 64); i < 0 || got[i+9:i+9+len(want)] != want {
						t.Fatalf("%d success, %d partial of %d (evidence listed: %v): interval does not start at %s", s, p, n, full, want)
					}
				}
			}
		}
	}
}

// gnode and gedge make a graph by hand.
func gnode(id, typ string) export.GraphNode {
	return export.GraphNode{ID: id, Type: typ, Label: id, URL: "/n/" + strings.ToLower(id) + "/"}
}

func gedge(s, t, typ string, w float64) export.GraphEdge {
	return export.GraphEdge{Edge: export.Edge{Source: s, Target: t, Type: typ, Weight: w, EvidenceCount: 1}}
}

// hubGraph is a pattern with n evidence episodes, each also evidence for a
// pattern of its own, and a hostile antipattern that causes and prevents
// it, with a javascript: URL.
func hubGraph(n int) export.Graph {
	g := export.Graph{Nodes: []export.GraphNode{gnode("PATTERN-hub", "pattern")}}
	for i := range n {
		ep, p := fmt.Sprintf("EP-%03d", i), fmt.Sprintf("PATTERN-%03d", i)
		g.Nodes = append(g.Nodes, gnode(ep, "episode"), gnode(p, "pattern"))
		g.Edges = append(g.Edges, gedge(ep, "PATTERN-hub", "evidence_for", 0.5), gedge(ep, p, "evidence_for", float64(i%3)/4))
	}
	bad := gnode(hostile, "antipattern")
	bad.URL = "javascript:alert(1)"
	g.Nodes = append(g.Nodes, bad)
	g.Edges = append(g.Edges, gedge(hostile, "PATTERN-hub", "causes", 0.9), gedge("PATTERN-hub", hostile, "prevents", 0.4), gedge(hostile, "PATTERN-hub", "correlates", 0.3))
	return g
}

func TestLocalGraph(t *testing.T) {
	small := export.Graph{
		Nodes: []export.GraphNode{gnode("PATTERN-a", "pattern"), gnode("EP-1", "episode"), gnode("EP-1#d001", "decision"), gnode("PATTERN-alone", "pattern")},
		Edges: []export.GraphEdge{gedge("EP-1", "PATTERN-a", "evidence_for", 0.5), gedge("EP-1#d001", "EP-1#d002", "leads_to", 0.5), gedge("EP-1#d001", "PATTERN-gone", "correlates", 0.3),
			gedge("PATTERN-a", "PATTERN-gone", "enables", 0.8), gedge("EP-1", "EP-1#d001", "causes", 0.5), gedge("PATTERN-alone", "PATTERN-alone", "causes", 1)},
	}
	tests := []struct {
		name    string
		g       export.Graph
		id      string
		nodes   int
		more    int
		classes []string
	}{
		{name: "unknown node", g: small, id: "PATTERN-nothing"},
		{name: "only a self-loop", g: small, id: "PATTERN-alone"},
		{name: "small, with a node missing from the list", g: small, id: "PATTERN-a", nodes: 4,
			classes: []string{"edge-evidence_for", "edge-enables", "edge-causes", "edge-correlates", "lg-cross", "node-pattern", "node-episode", "node-decision", "node-other"}},
		{name: "hub, capped", g: hubGraph(60), id: "PATTERN-hub", nodes: lgMaxNodes, more: 61 + 60 - (lgMaxNodes - 1),
			classes: []string{"edge-causes", "edge-prevents", "edge-correlates", "edge-evidence_for"}},
		{name: "hostile centre", g: hubGraph(3), id: hostile, nodes: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := localGraph(tt.g, tt.id)
			if tt.nodes == 0 {
				if got != "" {
					t.Fatalf("want no drawing, got\n%s", got)
				}
				return
			}
			if again := localGraph(tt.g, tt.id); again != got {
				t.Fatal("two drawings of the same graph differ")
			}
			els := checkSVG(t, got)
			nodes, centre := 0, 0
			classes := map[string]bool{}
			for _, el := range els {
				for _, c := range strings.Fields(el.attrs["class"]) {
					classes[c] = true
				}
				if el.class("lg-node") {
					nodes++
				}
				if el.class("lg-centre") {
					centre++
				}
				if el.name == "a" && strings.Contains(el.attrs["href"], "javascript") {
					t.Errorf("link to %q", el.attrs["href"])
				}
			}
			if nodes != tt.nodes || centre != 1 {
				t.Errorf("%d nodes with %d centres, want %d with 1", nodes, centre, tt.nodes)
			}
			for _, c := range tt.classes {
				if !classes[c] {
					t.Errorf("no class %s", c)
				}
			}
			txt := texts(t, got)
			if more := fmt.Sprintf("and %d more within two steps", tt.more); (tt.more > 0) != strings.Contains(txt, more) {
				t.Errorf("want %q: %v, in\n%s", more, tt.more > 0, txt)
			}
			if strings.Contains(got, "javascript:") {
				t.Error("a javascript: URL is in the drawing")
			}
			if tt.id == hostile && !strings.Contains(txt, hostile) {
				t.Errorf("the hostile label is not shown as text:\n%s", txt)
			}
		})
	}
}

// TestLocalGraphOrderFree: the drawing depends on the graph, not on the
// order of its lists.
func TestLocalGraphOrderFree(t *testing.T) {
	g := hubGraph(40)
	want := localGraph(g, "PATTERN-hub")
	r := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		r.Shuffle(len(g.Nodes), func(i, j int) { g.Nodes[i], g.Nodes[j] = g.Nodes[j], g.Nodes[i] })
		r.Shuffle(len(g.Edges), func(i, j int) { g.Edges[i], g.Edges[j] = g.Edges[j], g.Edges[i] })
		if got := localGraph(g, "PATTERN-hub"); got != want {
			t.Fatal("shuffling the graph's lists changed the drawing")
		}
	}
}

// TestPickPrefersStrongEdges: the neighbours drawn are the strongest, by
// weight then evidence then id.
func TestPickPrefersStrongEdges(t *testing.T) {
	g := export.Graph{Nodes: []export.GraphNode{gnode("C", "pattern")}}
	for i := range 30 {
		id := fmt.Sprintf("N%02d", i)
		g.Nodes = append(g.Nodes, gnode(id, "pattern"))
		e := gedge("C", id, "causes", float64(i%10)/10)
		e.EvidenceCount = i
		g.Edges = append(g.Edges, e)
	}
	n := newNeighbourhoods(g)
	p := n.pick(n.at["C"])
	var got []string
	for _, v := range p.nodes[1 : 1+p.ring1] {
		got = append(got, n.nodes[v].ID)
	}
	want := []string{"N29", "N19", "N09", "N28", "N18", "N08", "N27", "N17", "N07", "N26", "N16", "N06", "N25", "N15"}
	if !slices.Equal(got, want) {
		t.Errorf("ring 1 %v, want %v", got, want)
	}
}

func TestLgLines(t *testing.T) {
	tests := []struct {
		label string
		want  []string
	}{
		{"short", []string{"short"}},
		{"PATTERN-run-tests-before-commit", []string{"PATTERN-run-", "tests-before-co…"}},
		{"Fix flaky TestLedgerDailyClose that fails", []string{"Fix flaky", "TestLedgerDailyCl…"}},
		{strings.Repeat("é", 31), []string{strings.Repeat("é", 14), strings.Repeat("é", 13) + "…"}},
		{"a\nb\tc", []string{"a b c"}},
	}
	for _, tt := range tests {
		if got := lgLines(tt.label); !slices.Equal(got, tt.want) {
			t.Errorf("lgLines(%q) = %q, want %q", tt.label, got, tt.want)
		}
	}
}

func TestChartText(t *testing.T) {
	for in, want := range map[string]string{
		`<a href="x">&'`: "&lt;a href=&#34;x&#34;&gt;&amp;&#39;",
		"a\x00b\x1bc\n":  "a\ufffdb\ufffdc ",
		"bad \xff utf8":  "bad \ufffd utf8",
	} {
		if got := svgText(in); got != want {
			t.Errorf("svgText(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"/patterns/x/":        "/patterns/x/",
		"https://e.com/?a&b":  "https://e.com/?a&amp;b",
		"javascript:alert(1)": "",
		"//evil.example/":     "",
		"/\\evil.example/":    "",
		" /x":                 "",
		"data:text/html,x":    "",
	} {
		if got := svgURL(in); got != want {
			t.Errorf("svgURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkOutcomesChart(b *testing.B) {
	eps := episodesEvery(10000, time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), 5*time.Hour)
	for b.Loop() {
		outcomesChart(eps)
	}
}

// BenchmarkNeighbourhoods draws the neighbourhood of every node of a graph
// of 10,000 patterns with three edges out each: a site's worth.
func BenchmarkNeighbourhoods(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var g export.Graph
	for i := range 10000 {
		g.Nodes = append(g.Nodes, gnode(fmt.Sprintf("PATTERN-%05d", i), "pattern"))
	}
	types := []string{"causes", "enables", "prevents", "correlates"}
	for i := range 10000 {
		for k := range 3 {
			g.Edges = append(g.Edges, gedge(g.Nodes[i].ID, g.Nodes[r.IntN(10000)].ID, types[k], r.Float64()))
		}
	}
	for b.Loop() {
		n := newNeighbourhoods(g)
		for _, v := range g.Nodes {
			n.svg(v.ID)
		}
	}
}
