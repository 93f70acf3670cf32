package chart

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
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

func fptr(f float64) *float64 { return &f }
func iptr(n int) *int         { return &n }

// measured makes a pattern's statistics as the export stage publishes
// them: rate and confidence rounded to four decimals.
func measured(id string, outcomes ...string) export.Pattern {
	p := export.Pattern{ID: id, StatsSource: "evidence", Occurrences: len(outcomes)}
	sum := 0.0
	for i, o := range outcomes {
		p.Evidence = append(p.Evidence, export.EvidenceRef{ID: fmt.Sprint("EP-", i), Outcome: note.Outcome(o)})
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
			got := Interval(tt.p)
			if !tt.measured && !tt.declared {
				if got != "" {
					t.Fatalf("want no chart, got\n%s", got)
				}
				return
			}
			if again := Interval(tt.p); again != got {
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
					got := Interval(pat)
					i := strings.Index(got, `data-lo="`)
					if want := strconv.FormatFloat(*pat.Confidence, 'f', 4, 64); i < 0 || got[i+9:i+9+len(want)] != want {
						t.Fatalf("%d success, %d partial of %d (evidence listed: %v): interval does not start at %s", s, p, n, full, want)
					}
				}
			}
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
