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

// Decayed is an item's score at the reference time (SPEC §3): the values
// that move with the clock. Only the list files, the bootstrap and the
// list pages carry them (issue 30, decision 3): a note's own page and API
// file carry its Scoring instead, so that a push moves only the notes it
// changes. A reader decays a score again later: score × exp(−λ × days
// since the list's reference_time).
type Decayed struct {
	Score   float64 `json:"score"`
	AgeDays float64 `json:"age_days"`
	Stale   bool    `json:"stale"`
}

// Scoring is what an item's score is made of, none of which moves with
// the clock: score = raw × exp(−lambda × days from age_from to the
// reference time), halved when stale (older than the stale age, with no
// echo).
type Scoring struct {
	// Raw is the item's value before decay, feedback priority included.
	Raw    float64 `json:"raw"`
	Lambda float64 `json:"lambda"`
	// AgeFrom is when the item's age starts.
	AgeFrom string `json:"age_from"`
}

// decay scores an item of raw value raw (before feedback) whose age runs
// from since. A since after the reference time is age 0 (the indexer
// reports it).
func (x *exporter) decay(raw float64, since time.Time, fb Feedback) (Scoring, Decayed) {
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
	return Scoring{Raw: round(raw), Lambda: d.Lambda, AgeFrom: formatTime(since)},
		Decayed{Score: round(score), AgeDays: round(age), Stale: stale}
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
