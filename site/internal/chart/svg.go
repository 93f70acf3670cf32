// Package chart draws the site's charts as inline SVG, at build time:
// the outcomes of episodes over time (Outcomes), a pattern's success rate
// on its Wilson interval (Interval) and a node's causal neighbourhood
// (Neighbourhoods). It takes export documents and returns SVG text, and
// knows nothing of Hugo or of the pages that place it.
//
// The contract: the site's CSP allows no inline style, so an SVG here
// carries geometry only: every colour, stroke and font comes from a class
// in static/css/engram.css. Every text that comes from a note is escaped,
// every number is formatted the same way on every machine, and nothing
// ranges over a map: the same documents give the same bytes.
package chart

import (
	"fmt"
	"hash/fnv"
	"html"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

// svgText escapes s for XML text or a double-quoted attribute. What XML
// 1.0 cannot hold (control characters; invalid UTF-8 already reads as
// U+FFFD) becomes U+FFFD, and line breaks become spaces.
func svgText(s string) string {
	return html.EscapeString(strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case r < 0x20 || r == 0xfffe || r == 0xffff:
			return utf8.RuneError
		}
		return r
	}, s))
}

// svgURL is u escaped for an href, or "" unless it is a site path or an
// http(s) URL: engram makes every URL, but a link is never a script.
func svgURL(u string) string {
	site := strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//")
	web := strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")
	if !site && !web || strings.ContainsFunc(u, func(r rune) bool { return r <= ' ' || r == '\\' || r == 0x7f }) {
		return ""
	}
	return svgText(u)
}

// svgNum formats a coordinate with at most one decimal and no "-0".
func svgNum(f float64) string {
	f = math.Round(f*10) / 10
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return "0"
	}
	return strings.TrimSuffix(strconv.FormatFloat(f, 'f', 1, 64), ".0")
}

// svgPct formats a rate in [0, 1] as a whole percentage.
func svgPct(f float64) string { return strconv.Itoa(int(math.Round(f*100))) + "%" }

// svgID is a prefix for the ids of one chart, unique on a page as long
// as a page draws one chart of a kind per key.
func svgID(kind, key string) string {
	h := fnv.New32a()
	h.Write([]byte(key))
	return fmt.Sprintf("%s-%08x", kind, h.Sum32())
}

// svgTextWidth estimates the width of s at the charts' 12px font: enough to
// keep labels apart, not a measurement.
func svgTextWidth(s string) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case strings.ContainsRune("il.,:;'|!()[] ", r):
			w += 3.6
		case r >= 'A' && r <= 'Z' || r == 'm' || r == 'w' || r == '%' || r == '…' || r > 0x2e80:
			w += 8.2
		default:
			w += 6.6
		}
	}
	return w
}

// svgPlural is "1 episode", "2 episodes".
func svgPlural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// svgIsAre is the verb for n things.
func svgIsAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// svgOpen starts an SVG with its accessible name and description; role is
// "img" for a picture and "group" for one whose links must stay reachable.
func svgOpen(b *strings.Builder, id, class, role string, w, h float64, title, desc string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" class="svg-chart %s" viewBox="0 0 %s %s" width="%s" height="%s" role="%s" aria-labelledby="%s-title %s-desc">`,
		class, svgNum(w), svgNum(h), svgNum(w), svgNum(h), role, id, id)
	fmt.Fprintf(b, `<title id="%s-title">%s</title><desc id="%s-desc">%s</desc>`, id, svgText(title), id, svgText(desc))
}

// icSuccesses is the sum of a pattern's evidence outcomes (success
// 1, partial 0.5, failure 0) as the graph stage counts it: from the
// evidence list when it is complete, else from the rounded rate, which
// is exact to the half at any realistic count.
func icSuccesses(p export.Pattern) float64 {
	if len(p.Evidence) == p.Occurrences {
		sum := 0.0
		for _, e := range p.Evidence {
			v, _ := note.Outcome(e.Outcome).Value()
			sum += v
		}
		return sum
	}
	return math.Round(*p.SuccessRate*float64(p.Occurrences)*2) / 2
}

// Geometry of the interval chart: 0% at icLeft, 100% at icRight.
const (
	icW, icLeft, icRight = 560.0, 22.0, 536.0
	icRow                = 20.0
)

// Interval draws a pattern's success rate on a 0–100% scale: the
// rate measured from evidence as a point on its 95% Wilson interval,
// whose lower end is the published confidence, and the rate its front
// matter declares as a hollow diamond. It is "" when there is neither.
func Interval(p export.Pattern) string {
	measured := p.StatsSource == "evidence" && p.SuccessRate != nil && p.Occurrences > 0
	declared := p.Declared.SuccessRate != nil
	if !measured && !declared {
		return ""
	}
	var rows, desc []string
	var rate, lo, hi float64
	if measured {
		rate = icSuccesses(p) / float64(p.Occurrences)
		lo, hi = causal.WilsonInterval(rate, p.Occurrences)
		over := svgPlural(p.Occurrences, "episode", "episodes")
		rows = append(rows, fmt.Sprintf("measured %s (95%% CI %s–%s) over %s", svgPct(rate), strings.TrimSuffix(svgPct(lo), "%"), svgPct(hi), over))
		desc = append(desc, fmt.Sprintf("Measured success rate %s over %s of evidence; the 95%% Wilson interval runs from %s to %s.", svgPct(rate), over, svgPct(lo), svgPct(hi)))
	}
	if declared {
		row := "declared " + svgPct(*p.Declared.SuccessRate)
		if o := p.Declared.Occurrences; o != nil && *o > 0 {
			row += " over " + svgPlural(*o, "episode", "episodes")
		}
		rows = append(rows, row)
		desc = append(desc, "Declared success rate "+strings.TrimPrefix(row, "declared ")+".")
	}
	trackY := 12 + icRow*float64(len(rows)) + 8
	h := trackY + 30
	id := svgID("rate", p.ID)
	var b strings.Builder
	svgOpen(&b, id, "rate-chart", "img", icW, h, "Success rate of "+p.ID, strings.Join(desc, " "))
	for i, r := range rows {
		y := 12 + icRow*float64(i)
		if measured && i == 0 {
			fmt.Fprintf(&b, `<circle class="ic-measured" cx="%s" cy="%s" r="5"/>`, svgNum(icLeft+5), svgNum(y+1))
		} else {
			b.WriteString(`<path class="ic-declared" d="` + icDiamond(icLeft+5, y+1, 6) + `"/>`)
		}
		fmt.Fprintf(&b, `<text class="ic-text" x="%s" y="%s">%s</text>`, svgNum(icLeft+18), svgNum(y+5), r)
	}
	icScale(&b, trackY)
	x := func(f float64) float64 { return icLeft + f*(icRight-icLeft) }
	if measured {
		fmt.Fprintf(&b, `<rect class="ic-ci" data-lo="%s" data-hi="%s" x="%s" y="%s" width="%s" height="8"/>`,
			strconv.FormatFloat(lo, 'f', 4, 64), strconv.FormatFloat(hi, 'f', 4, 64), svgNum(x(lo)), svgNum(trackY-4), svgNum(x(hi)-x(lo)))
		for _, end := range []float64{lo, hi} {
			fmt.Fprintf(&b, `<line class="ic-cap" x1="%s" y1="%s" x2="%s" y2="%s"/>`, svgNum(x(end)), svgNum(trackY-8), svgNum(x(end)), svgNum(trackY+8))
		}
		fmt.Fprintf(&b, `<circle class="ic-measured" data-rate="%s" cx="%s" cy="%s" r="6"/>`, strconv.FormatFloat(rate, 'f', 4, 64), svgNum(x(rate)), svgNum(trackY))
	}
	if declared {
		fmt.Fprintf(&b, `<path class="ic-declared" data-rate="%s" d="%s"/>`, strconv.FormatFloat(*p.Declared.SuccessRate, 'f', 4, 64), icDiamond(x(math.Min(1, math.Max(0, *p.Declared.SuccessRate))), trackY, 8))
	}
	b.WriteString("</svg>")
	return b.String()
}

// icScale draws the 0–100% track with a tick and label every 25%.
func icScale(b *strings.Builder, y float64) {
	fmt.Fprintf(b, `<line class="ic-track" x1="%s" y1="%s" x2="%s" y2="%s"/>`, svgNum(icLeft), svgNum(y), svgNum(icRight), svgNum(y))
	for q := 0; q <= 4; q++ {
		x := icLeft + float64(q)/4*(icRight-icLeft)
		fmt.Fprintf(b, `<line class="ic-tick" x1="%s" y1="%s" x2="%s" y2="%s"/>`, svgNum(x), svgNum(y+6), svgNum(x), svgNum(y+10))
		fmt.Fprintf(b, `<text class="ic-axis" x="%s" y="%s" text-anchor="middle">%d%%</text>`, svgNum(x), svgNum(y+24), q*25)
	}
}

// icDiamond is the path of a diamond of half-diagonal r centred on x, y.
func icDiamond(x, y, r float64) string {
	return fmt.Sprintf("M%s %sL%s %sL%s %sL%s %sZ", svgNum(x), svgNum(y-r), svgNum(x+r), svgNum(y), svgNum(x), svgNum(y+r), svgNum(x-r), svgNum(y))
}
