package chart

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

func dated(date, outcome string) export.EpisodeHead {
	return export.EpisodeHead{ID: "EP-" + date, Date: date, Outcome: note.Outcome(outcome)}
}

// barCounts sums data-count of the bars by outcome class.
func barCounts(els []svgElement) (map[string]int, int) {
	counts, periods := map[string]int{}, 0
	for _, el := range els {
		if el.class("oc-period") {
			periods++
		}
		if n, ok := el.attrs["data-count"]; ok {
			k, _ := strconv.Atoi(n)
			for _, o := range ocKinds() {
				if el.class("oc-" + o.class) {
					counts[o.class] += k
				}
			}
		}
	}
	return counts, periods
}

// episodesEvery makes n episodes step apart from start, outcomes in turn.
func episodesEvery(n int, start time.Time, step time.Duration) []export.EpisodeHead {
	eps := make([]export.EpisodeHead, n)
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
		eps      []export.EpisodeHead
		bars     int      // bars drawn (periods with episodes)
		maxSlots int      // at most this many periods on the axis
		desc     []string // in the description
	}{
		{name: "none"},
		{name: "only undated", eps: []export.EpisodeHead{dated("", "success"), dated("soon", "failure")}},
		{name: "one", eps: []export.EpisodeHead{dated("2026-11-17T16:40:00Z", "success")}, bars: 1, maxSlots: 1,
			desc: []string{"1 episode in the week of 16 November 2026: 1 success."}},
		{name: "a few weeks, by week", eps: episodesEvery(30, start, day), bars: 5, maxSlots: 5,
			desc: []string{"30 episodes from the week of 11 March 2024 to the week of 8 April 2024, counted by week"}},
		{name: "months with a gap", bars: 3, maxSlots: 7,
			eps:  []export.EpisodeHead{dated("2025-01-31", "success"), dated("2025-02-01", "partial"), dated("2025-07-04T00:00:00Z", "failure"), dated("2025-07-05", "")},
			desc: []string{"4 episodes from January 2025 to July 2025, counted by month: 1 success, 1 partial, 1 failure, 1 no outcome.", "The busiest month was July 2025, with 2 episodes."}},
		{name: "undated and odd dates are counted, not drawn", bars: 1, maxSlots: 1,
			eps:  []export.EpisodeHead{dated("2025-01-31", "success"), dated("", "success"), dated("2025-13-01", "failure"), dated("31/01/2025", ""), dated("2025-01-3x", "")},
			desc: []string{"1 episode in the week of 27 January 2025: 1 success. 4 episodes without a date are not shown."}},
		{name: "ten years", eps: episodesEvery(10000, start, 9*time.Hour), bars: 21, maxSlots: 21, desc: []string{"counted by half-year"}},
		{name: "millennia", eps: []export.EpisodeHead{dated("0001-01-01", "success"), dated("9999-12-31", "failure")}, bars: 2, maxSlots: 36,
			desc: []string{"counted by 500 years"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Outcomes(tt.eps)
			if tt.bars == 0 {
				if got != "" {
					t.Fatalf("want no chart, got\n%s", got)
				}
				return
			}
			if again := Outcomes(tt.eps); again != got {
				t.Fatal("two charts of the same episodes differ")
			}
			els := checkSVG(t, got)
			counts, bars := barCounts(els)
			want := map[string]int{}
			for _, e := range tt.eps {
				if _, ok := ocEpisodeDate(e.Date); ok {
					want[ocKinds()[ocKind(e.Outcome)].class]++
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
	els := checkSVG(t, Outcomes(episodesEvery(237, time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC), 2*24*time.Hour)))
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

func BenchmarkOutcomesChart(b *testing.B) {
	eps := episodesEvery(10000, time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), 5*time.Hour)
	for b.Loop() {
		Outcomes(eps)
	}
}

// TestOutcomesCrowdedMonth is issue 33's bad input: 10,000 episodes in
// one month, one in each month around it. The chart counts by month, the
// crowded bar fills most of the plot and no more, every bar stays in the
// drawing.
func TestOutcomesCrowdedMonth(t *testing.T) {
	var eps []export.EpisodeHead
	for m := 1; m <= 8; m++ {
		eps = append(eps, dated(fmt.Sprintf("2026-%02d-20T10:00:00Z", m), "success"))
	}
	eps = append(eps, episodesEvery(10000, time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), 4*time.Minute)...)
	svg := Outcomes(eps)
	if !strings.Contains(svg, "counted by month") || !strings.Contains(svg, "The busiest month was May 2026") {
		t.Errorf("description: %s", svg[:min(len(svg), 600)])
	}
	top, total := ocBase, 0
	for _, el := range checkSVG(t, svg) {
		x, _ := strconv.ParseFloat(el.attrs["x"], 64)
		y, _ := strconv.ParseFloat(el.attrs["y"], 64)
		if n, ok := el.attrs["data-count"]; ok {
			k, _ := strconv.Atoi(n)
			total += k
			w, _ := strconv.ParseFloat(el.attrs["width"], 64)
			h, _ := strconv.ParseFloat(el.attrs["height"], 64)
			top = math.Min(top, y)
			if x < ocLeft || x+w > ocRight || y < ocTop-0.1 || y+h > ocBase+0.1 {
				t.Errorf("bar of %d at x %v..%v, y %v..%v: outside the plot %v..%v × %v..%v", k, x, x+w, y, y+h, ocLeft, ocRight, ocTop, ocBase)
			}
		}
	}
	if total != len(eps) {
		t.Errorf("bars count %d episodes, want %d", total, len(eps))
	}
	if top > ocBase-(ocBase-ocTop)/2 {
		t.Errorf("the crowded month's bar tops out at y %v: it should fill most of the plot (%v..%v)", top, ocTop, ocBase)
	}
}

// TestOutcomesLegendFitsAPhone: with every outcome present the legend's
// entries each end within ocLegendRow of the plot's left edge, what a
// 320 px phone shows as the chart opens (issue 33), and stay above the
// plot.
func TestOutcomesLegendFitsAPhone(t *testing.T) {
	els := checkSVG(t, Outcomes(episodesEvery(40, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 24*time.Hour)))
	n := 0
	for _, el := range els {
		if !el.class("oc-legend") {
			continue
		}
		x, _ := strconv.ParseFloat(el.attrs["x"], 64)
		y, _ := strconv.ParseFloat(el.attrs["y"], 64)
		label := ocKinds()[min(n, 3)].label // every outcome is present, in order
		n++
		if x+svgTextWidth(label) > ocLeft+ocLegendRow || y > ocTop-4 {
			t.Errorf("legend entry %q at %v,%v: past %v or below %v", label, x, y, ocLeft+ocLegendRow, ocTop)
		}
	}
	if n != 4 {
		t.Errorf("%d legend entries, want 4", n)
	}
}
