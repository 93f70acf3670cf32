package query

import (
	"cmp"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

// Decisions is `engram decisions EPISODE`: an episode's decisions in the
// order they were taken.
type Decisions struct {
	Version       int               `json:"version"`
	ReferenceTime string            `json:"reference_time"`
	Episode       string            `json:"episode"`
	URL           string            `json:"url"`
	Outcome       note.Outcome      `json:"outcome"`
	Items         []export.Decision `json:"items"`
}

// Decisions returns the decision sequence of an episode: by timestamp
// when every decision has one, else as written (the file order is the
// order the agent recorded them).
func (s *Snapshot) Decisions(episode string) (Decisions, error) {
	e, err := s.Episode(episode)
	if err != nil {
		return Decisions{}, err
	}
	items := append([]export.Decision{}, e.Decisions...)
	timed := true
	for _, d := range items {
		timed = timed && d.Timestamp != ""
	}
	if timed {
		sort.SliceStable(items, func(i, j int) bool { return items[i].Timestamp < items[j].Timestamp })
	}
	return Decisions{Version: export.SchemaVersion, ReferenceTime: s.refTime(), Episode: e.ID, URL: e.URL, Outcome: e.Outcome, Items: items}, nil
}

// WhatIf is `engram whatif` (SPEC §5.1): for each other option of a
// decision, what happened in the past episodes whose decision of the same
// type chose it.
type WhatIf struct {
	Version       int    `json:"version"`
	ReferenceTime string `json:"reference_time"`
	Episode       string `json:"episode"`
	// Decision is the decision asked about; its outcome is its own, else
	// its episode's.
	Decision export.Decision `json:"decision"`
	Items    []Alternative   `json:"items"`
}

// Alternative is one option not chosen, and its record elsewhere.
type Alternative struct {
	Option string `json:"option"`
	// Episodes are the other episodes whose decision of the same type
	// chose this option, newest first.
	Episodes []Precedent `json:"episodes"`
	Count    int         `json:"count"`
	// SuccessRate is the mean outcome (success 1, partial 0.5, failure 0),
	// Confidence its 95% Wilson lower bound; both null without episodes.
	SuccessRate *float64 `json:"success_rate"`
	Confidence  *float64 `json:"confidence"`
}

// Precedent is one past decision that chose an option.
type Precedent struct {
	ID       string `json:"id"`
	Decision string `json:"decision"`
	Date     string `json:"date"`
	// Outcome is the decision's own outcome when it has one, else its
	// episode's.
	Outcome note.Outcome `json:"outcome"`
	URL     string       `json:"url"`
}

// WhatIf weighs the options of one decision that were not chosen (or only
// option, when given). Options and chosen values match when they are the
// same words, ignoring case and punctuation; types match ignoring case,
// and a decision without a type matches only others without one.
func (s *Snapshot) WhatIf(episode, decision, option string) (WhatIf, error) {
	e, err := s.Episode(episode)
	if err != nil {
		return WhatIf{}, err
	}
	d, err := findDecision(e, decision)
	if err != nil {
		return WhatIf{}, err
	}
	w := WhatIf{Version: export.SchemaVersion, ReferenceTime: s.refTime(), Episode: e.ID, Decision: d, Items: []Alternative{}}
	w.Decision.Outcome = cmp.Or(d.Outcome, e.Outcome)
	var options []string
	if option != "" {
		options = []string{option}
		for _, o := range d.Options {
			if normalize(o) == normalize(option) {
				options = []string{o}
			}
		}
	} else {
		for _, o := range d.Options {
			if normalize(o) != normalize(d.Chosen) {
				options = append(options, o)
			}
		}
	}
	for _, o := range options {
		w.Items = append(w.Items, s.alternative(e.ID, d.Type, o))
	}
	return w, nil
}

func (s *Snapshot) alternative(episode string, typ note.DecisionType, option string) Alternative {
	a := Alternative{Option: option, Episodes: []Precedent{}}
	want := normalize(option)
	sum := 0.0
	for _, e := range s.Episodes {
		if e.ID == episode {
			continue
		}
		for _, d := range e.Decisions {
			if !strings.EqualFold(string(d.Type), string(typ)) || normalize(d.Chosen) != want {
				continue
			}
			outcome := cmp.Or(d.Outcome, e.Outcome)
			v, known := outcome.Value()
			if !known {
				continue // an invalid outcome was reported when the note was read
			}
			a.Episodes = append(a.Episodes, Precedent{ID: e.ID, Decision: d.ID, Date: e.Date, Outcome: outcome, URL: e.URL})
			sum += v
		}
	}
	if a.Count = len(a.Episodes); a.Count > 0 {
		rate := sum / float64(a.Count)
		conf := causal.Wilson(rate, a.Count)
		rate, conf = round(rate), round(conf)
		a.SuccessRate, a.Confidence = &rate, &conf
	}
	return a
}

func findDecision(e *Episode, id string) (export.Decision, error) {
	names := make([]string, len(e.Decisions))
	for i, d := range e.Decisions {
		if strings.EqualFold(d.ID, id) {
			return d, nil
		}
		names[i] = d.ID
	}
	return export.Decision{}, &NotFoundError{What: "decision in " + e.ID, Name: id, Suggestions: names}
}

// normalize compares option texts: lower case, words only.
func normalize(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

func round(f float64) float64 { return math.Round(f*1e4) / 1e4 }

func itoa(i int) string { return strconv.Itoa(i) }
