package export

import (
	"math"
	"strings"
	"time"
)

// Decay holds the settings of time-decayed scores (SPEC §3).
type Decay struct {
	// Lambda is λ in score = raw × exp(−λ × age_days).
	Lambda float64
	// StaleDays: an item older than this with no echo is stale, and its
	// score is halved.
	StaleDays float64
	// TTL is, by lower-case observation category, the age in days after
	// which the observations of that category are left out. The indexer
	// applies it before the export stage.
	TTL map[string]float64
}

// DefaultDecay is SPEC §3's: λ = 0.01, stale after 90 days.
func defaultDecay() Decay { return Decay{Lambda: 0.01, StaleDays: 90} }

// Feedback counts the echoes (an agent used the note) and fizzles (it was
// injected and ignored) of one note (SPEC §2.6).
type Feedback struct {
	Echo   int `json:"echo"`
	Fizzle int `json:"fizzle"`
}

// Priority is the feedback's share of a score: +0.1 per echo, −0.05 per
// fizzle, clamped to [−1, 1].
func (f Feedback) Priority() float64 {
	return math.Max(-1, math.Min(1, 0.1*float64(f.Echo)-0.05*float64(f.Fizzle)))
}

// Decayed is an item's time-decayed score, with what a reader needs to
// decay it again later: score × exp(−λ × days since reference_time).
type Decayed struct {
	Score         float64 `json:"score"`
	Raw           float64 `json:"raw"`
	AgeDays       float64 `json:"age_days"`
	Stale         bool    `json:"stale"`
	Lambda        float64 `json:"lambda"`
	ReferenceTime string  `json:"reference_time"`
}

// decay scores an item of raw value raw (before feedback) whose age runs
// from since. A since after the reference time is age 0 (the indexer
// reports it).
func (x *exporter) decay(raw float64, since time.Time, fb Feedback) Decayed {
	d := x.in.Decay
	age := 0.0
	if !since.IsZero() {
		age = math.Max(0, x.in.ReferenceTime.Sub(since).Hours()/24)
	}
	raw += fb.Priority()
	score := raw * math.Exp(-d.Lambda*age)
	stale := age > d.StaleDays && fb.Echo == 0
	if stale {
		score /= 2
	}
	return Decayed{Score: round(score), Raw: round(raw), AgeDays: round(age), Stale: stale, Lambda: d.Lambda, ReferenceTime: formatTime(x.in.ReferenceTime)}
}

// strength is an observation's confidence by its tag (SPEC §2.3):
// #explicit 0.9, #implied 0.7, #inferred 0.5, untagged 0.9. With several,
// the weakest wins.
func strength(tags []string) float64 {
	s := 0.9
	for _, t := range tags {
		switch strings.ToLower(strings.TrimPrefix(t, "#")) {
		case "implied":
			s = math.Min(s, 0.7)
		case "inferred":
			s = math.Min(s, 0.5)
		}
	}
	return s
}
