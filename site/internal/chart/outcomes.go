package chart

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

// ocKinds are the outcomes of episodes (note.Outcomes, best first), then
// no outcome, in stacking order from the axis up; class and label are
// the outcome's name.
func ocKinds() []struct{ class, label string } {
	var ks []struct{ class, label string }
	for _, o := range note.Outcomes() {
		ks = append(ks, struct{ class, label string }{string(o), string(o)})
	}
	return append(ks, struct{ class, label string }{"none", "no outcome"})
}

// ocKind is the index in ocKinds of an episode's outcome.
func ocKind(o note.Outcome) int {
	for i, v := range note.Outcomes() {
		if v == o {
			return i
		}
	}
	return len(note.Outcomes())
}

// ocPeriod is the width of a bar of the outcomes chart: a week, or months.
type ocPeriod struct {
	months int // 0 for a week
}

// ocMaxBars bounds the bars of the outcomes chart; the period grows to fit.
const ocMaxBars = 36

// ocChoosePeriod picks weeks for a range under ten weeks, else the shortest
// of 1, 2, 3, 6 and 12 months, then 2, 5, 10, 20, 50… years, that needs
// at most ocMaxBars bars.
func ocChoosePeriod(first, last time.Time) ocPeriod {
	if last.Sub(first) < 10*7*24*time.Hour {
		return ocPeriod{}
	}
	var p ocPeriod
	for _, m := range []int{1, 2, 3, 6, 12} {
		if p = (ocPeriod{months: m}); p.index(last)-p.index(first) < ocMaxBars {
			return p
		}
	}
	for years := 2; ; years *= 10 {
		for _, y := range []int{years, years * 5 / 2} {
			if p = (ocPeriod{months: 12 * y}); p.index(last)-p.index(first) < ocMaxBars {
				return p
			}
		}
	}
}

// ocMonday0 is a Monday: weeks are counted from it.
var ocMonday0 = time.Date(1970, 1, 5, 0, 0, 0, 0, time.UTC)

// index numbers the period holding t, counting from year 0 (from a
// Monday in 1970 for weeks), so a multi-month period starts at a quarter,
// a half-year or a year.
func (p ocPeriod) index(t time.Time) int {
	if p.months == 0 {
		days := int(math.Floor(t.Sub(ocMonday0).Hours() / 24))
		return svgFloorDiv(days, 7)
	}
	return svgFloorDiv(t.Year()*12+int(t.Month())-1, p.months)
}

func svgFloorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// start is the first day of period i.
func (p ocPeriod) start(i int) time.Time {
	if p.months == 0 {
		return ocMonday0.AddDate(0, 0, 7*i)
	}
	m := i * p.months
	return time.Date(m/12, time.Month(m%12+1), 1, 0, 0, 0, 0, time.UTC)
}

// label names period i on the axis; long names it in a sentence.
func (p ocPeriod) label(i int, long bool) string {
	t := p.start(i)
	switch {
	case p.months == 0 && long:
		return "the week of " + t.Format("2 January 2006")
	case p.months == 0:
		return t.Format("Jan 2")
	case p.months == 3:
		return fmt.Sprintf("Q%d %d", int(t.Month()-1)/3+1, t.Year())
	case p.months == 6:
		return fmt.Sprintf("H%d %d", int(t.Month()-1)/6+1, t.Year())
	case p.months == 12:
		return strconv.Itoa(t.Year())
	case p.months > 12:
		return fmt.Sprintf("%d–%d", t.Year(), t.Year()+p.months/12-1)
	case long:
		return t.Format("January 2006")
	}
	return t.Format("Jan 2006")
}

// name is the period in "by …".
func (p ocPeriod) name() string {
	switch p.months {
	case 0:
		return "week"
	case 1:
		return "month"
	case 3:
		return "quarter"
	case 6:
		return "half-year"
	case 12:
		return "year"
	}
	if p.months < 12 {
		return strconv.Itoa(p.months) + " months"
	}
	return strconv.Itoa(p.months/12) + " years"
}

// ocEpisodeDate reads the day of a summary's date ("2026-11-17T16:40:00Z"
// or "2026-11-17"); ok is false for a missing or malformed date.
func ocEpisodeDate(s string) (time.Time, bool) {
	if len(s) < 10 {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02", s[:10])
	return t, err == nil && (len(s) == 10 || s[10] == 'T' || s[10] == ' ')
}

// ocBars counts episodes by period and outcome.
type ocBars struct {
	p        ocPeriod
	first    int      // index of the first period
	counts   [][4]int // by period from first, by outcome kind
	undated  int
	total    [4]int
	maxStack int
}

func ocCount(eps []export.EpisodeHead) ocBars {
	var b ocBars
	type dated struct {
		t    time.Time
		kind int
	}
	ds := make([]dated, 0, len(eps))
	var lo, hi time.Time
	for _, e := range eps {
		t, ok := ocEpisodeDate(e.Date)
		if !ok {
			b.undated++
			continue
		}
		if len(ds) == 0 || t.Before(lo) {
			lo = t
		}
		if len(ds) == 0 || t.After(hi) {
			hi = t
		}
		ds = append(ds, dated{t, ocKind(e.Outcome)})
	}
	if len(ds) == 0 {
		return b
	}
	b.p = ocChoosePeriod(lo, hi)
	b.first = b.p.index(lo)
	b.counts = make([][4]int, b.p.index(hi)-b.first+1)
	for _, d := range ds {
		b.counts[b.p.index(d.t)-b.first][d.kind]++
		b.total[d.kind]++
	}
	for _, c := range b.counts {
		b.maxStack = max(b.maxStack, c[0]+c[1]+c[2]+c[3])
	}
	return b
}

// ocNiceStep is the gridline step, 1, 2 or 5 × 10ⁿ, for at most five
// gridlines up to max.
func ocNiceStep(max int) int {
	for step := 1; ; step *= 10 {
		for _, s := range []int{step, 2 * step, 5 * step} {
			if (max+s-1)/s <= 5 {
				return s
			}
		}
	}
}

// Geometry of the outcomes chart.
const (
	ocW, ocH        = 720.0, 250.0
	ocLeft, ocRight = 48.0, 712.0
	ocTop, ocBase   = 56.0, 212.0
	// ocLegendRow is the widest a row of the legend runs: what a phone
	// shows of the chart as it opens (it scrolls, at 11 px a 12-unit
	// label: 291 px of 320 at 42rem for 720 units).
	ocLegendRow      = 300.0
	ocMaxBar, ocFill = 56.0, 0.72
)

// Outcomes draws episodes' outcomes over time: one stacked bar per
// period (weeks under ten weeks of history, else months or longer so that
// there are at most ocMaxBars bars), periods without episodes left empty.
// It is "" when no episode has a date.
func Outcomes(eps []export.EpisodeHead) string {
	c := ocCount(eps)
	if len(c.counts) == 0 {
		return ""
	}
	var b strings.Builder
	id := "outcomes"
	svgOpen(&b, id, "outcomes-chart", "img", ocW, ocH, "Episode outcomes by "+c.p.name(), c.describe())
	c.legend(&b)
	step := ocNiceStep(c.maxStack)
	top := (c.maxStack + step - 1) / step * step
	scale := (ocBase - ocTop) / float64(top)
	for v := step; v <= top; v += step {
		y := ocBase - float64(v)*scale
		fmt.Fprintf(&b, `<line class="oc-grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, svgNum(ocLeft), svgNum(y), svgNum(ocRight), svgNum(y))
		fmt.Fprintf(&b, `<text class="oc-tick" x="%s" y="%s" text-anchor="end">%d</text>`, svgNum(ocLeft-6), svgNum(y+4), v)
	}
	fmt.Fprintf(&b, `<text class="oc-tick" x="%s" y="%s" text-anchor="end">0</text>`, svgNum(ocLeft-6), svgNum(ocBase+4))
	c.bars(&b, scale)
	fmt.Fprintf(&b, `<line class="oc-axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`, svgNum(ocLeft), svgNum(ocBase), svgNum(ocRight), svgNum(ocBase))
	c.axis(&b)
	b.WriteString("</svg>")
	return b.String()
}

// describe says in words what the chart shows.
func (c ocBars) describe() string {
	n := c.total[0] + c.total[1] + c.total[2] + c.total[3]
	var parts []string
	for k, o := range ocKinds() {
		if c.total[k] > 0 {
			parts = append(parts, strconv.Itoa(c.total[k])+" "+o.label)
		}
	}
	last := c.first + len(c.counts) - 1
	d := fmt.Sprintf("%s from %s to %s, counted by %s: %s.", svgPlural(n, "episode", "episodes"),
		c.p.label(c.first, true), c.p.label(last, true), c.p.name(), strings.Join(parts, ", "))
	if len(c.counts) == 1 {
		d = fmt.Sprintf("%s in %s: %s.", svgPlural(n, "episode", "episodes"), c.p.label(c.first, true), strings.Join(parts, ", "))
	}
	busiest := 0
	for i, k := range c.counts {
		if k[0]+k[1]+k[2]+k[3] > c.counts[busiest][0]+c.counts[busiest][1]+c.counts[busiest][2]+c.counts[busiest][3] {
			busiest = i
		}
	}
	if len(c.counts) > 1 {
		d += fmt.Sprintf(" The busiest %s was %s, with %s.", c.p.name(), c.p.label(c.first+busiest, true), svgPlural(c.maxStack, "episode", "episodes"))
	}
	if c.undated > 0 {
		d += fmt.Sprintf(" %s without a date %s not shown.", svgPlural(c.undated, "episode", "episodes"), svgIsAre(c.undated))
	}
	return d
}

// legend names the outcomes present, in stacking order, on rows of at
// most ocLegendRow from the plot's left edge (two rows fit above ocTop).
func (c ocBars) legend(b *strings.Builder) {
	x, y := ocLeft, 12.0
	for k, o := range ocKinds() {
		if c.total[k] == 0 {
			continue
		}
		w := 17 + svgTextWidth(o.label)
		if x > ocLeft && x+w > ocLeft+ocLegendRow {
			x, y = ocLeft, y+18
		}
		fmt.Fprintf(b, `<rect class="oc-bar oc-%s" x="%s" y="%s" width="12" height="12" rx="2"/>`, o.class, svgNum(x), svgNum(y))
		fmt.Fprintf(b, `<text class="oc-legend" x="%s" y="%s">%s</text>`, svgNum(x+17), svgNum(y+10), o.label)
		x += w + 18
	}
}

// bars draws one stack per period that has episodes; each rect carries
// its count in data-count.
func (c ocBars) bars(b *strings.Builder, scale float64) {
	slot := (ocRight - ocLeft) / float64(len(c.counts))
	w := math.Min(slot*ocFill, ocMaxBar)
	for i, k := range c.counts {
		n := k[0] + k[1] + k[2] + k[3]
		if n == 0 {
			continue
		}
		x := ocLeft + slot*float64(i) + (slot-w)/2
		var parts []string
		for kind, o := range ocKinds() {
			if k[kind] > 0 {
				parts = append(parts, strconv.Itoa(k[kind])+" "+o.label)
			}
		}
		fmt.Fprintf(b, `<g class="oc-period"><title>%s: %s (%s)</title>`, c.p.label(c.first+i, true), svgPlural(n, "episode", "episodes"), strings.Join(parts, ", "))
		y := ocBase
		for kind, o := range ocKinds() {
			if k[kind] == 0 {
				continue
			}
			h := float64(k[kind]) * scale
			fmt.Fprintf(b, `<rect class="oc-bar oc-%s" data-count="%d" x="%s" y="%s" width="%s" height="%s"/>`,
				o.class, k[kind], svgNum(x), svgNum(y-h), svgNum(w), svgNum(h))
			y -= h
		}
		b.WriteString("</g>")
	}
}

// axis labels every step-th period, step large enough that labels do not
// touch, counted from year 0 so labels fall on the same months everywhere.
func (c ocBars) axis(b *strings.Builder) {
	slot := (ocRight - ocLeft) / float64(len(c.counts))
	widest := 0.0
	for i := range c.counts {
		widest = math.Max(widest, svgTextWidth(c.p.label(c.first+i, false)))
	}
	step := 1
	for _, s := range []int{1, 2, 3, 4, 6, 12, 24, 48} {
		if step = s; slot*float64(s) >= widest+10 {
			break
		}
	}
	for i := range c.counts {
		if ((c.first+i)%step+step)%step != 0 {
			continue
		}
		x := ocLeft + slot*(float64(i)+0.5)
		fmt.Fprintf(b, `<line class="oc-axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`, svgNum(x), svgNum(ocBase), svgNum(x), svgNum(ocBase+4))
		fmt.Fprintf(b, `<text class="oc-tick" x="%s" y="%s" text-anchor="middle">%s</text>`, svgNum(x), svgNum(ocBase+20), c.p.label(c.first+i, false))
	}
}
