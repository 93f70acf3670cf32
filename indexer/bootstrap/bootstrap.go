// Package bootstrap makes what an agent reads at session start (SPEC
// §4.1): the warnings, recent failures, best patterns, recurring lessons
// and due notes of a memory, each section at most ten items, the whole
// within a token budget counted with a real BPE tokenizer. When the
// candidates do not fit, the lowest-scored items are dropped first.
package bootstrap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/tokens"
)

// MaxItems is the cap of each section (the seeds' inject cap).
const MaxItems = 10

// RecentDays and DueDays are the windows of recent_failures and due.
const (
	RecentDays = 7
	DueDays    = 7
)

// Item is one line of the bootstrap: text and a link. Score orders the
// items for the budget and is not published.
type Item struct {
	ID    string  `json:"id,omitempty"`
	Text  string  `json:"text"`
	URL   string  `json:"url"`
	Score float64 `json:"-"`
}

// Sections are the five lists, in SPEC §4.1's order.
type Sections struct {
	Warnings       []Item `json:"warnings"`
	RecentFailures []Item `json:"recent_failures"`
	Patterns       []Item `json:"patterns"`
	Lessons        []Item `json:"lessons"`
	Due            []Item `json:"due"`
}

func (s *Sections) lists() []*[]Item {
	return []*[]Item{&s.Warnings, &s.RecentFailures, &s.Patterns, &s.Lessons, &s.Due}
}

var sectionTitles = []string{"Warnings: antipatterns to avoid", "Recent failures", "Patterns that work", "Recurring lessons", "Due"}

// Bootstrap is bootstrap.json.
type Bootstrap struct {
	Version       int    `json:"version"`
	Title         string `json:"title"`
	ReferenceTime string `json:"reference_time"`
	// BudgetTokens is the budget; Tokens what this file takes (the
	// Markdown form is smaller).
	BudgetTokens int `json:"budget_tokens"`
	Tokens       int `json:"tokens"`
	Sections
}

// Candidates are every item that may go into a bootstrap, before the
// budget: what the build computes once and the CLI cuts to any budget.
type Candidates struct {
	Title         string
	ReferenceTime string
	Sections
}

// ErrBudget is a budget too small for even one item.
var ErrBudget = errors.New("bootstrap budget too small")

// Fit cuts the candidates to the budget: while the JSON or the Markdown
// form is over budget tokens, the lowest-scored item goes, scores taken
// relative to the best of their section (an antipattern's failure rate
// and an episode's recency are not on one scale; relative to its section,
// every section's best item scores 1, so a small budget keeps the best of
// every section rather than all of one). Ties go to the lower score, then
// the later section. It fails with ErrBudget when not even one item fits,
// or when there are no items and the empty bootstrap does not fit.
func Fit(c Candidates, budget int) (Bootstrap, []byte, []byte, error) {
	b := Bootstrap{Version: export.SchemaVersion, Title: c.Title, ReferenceTime: c.ReferenceTime, BudgetTokens: budget}
	for i, l := range c.lists() {
		items := append([]Item{}, (*l)...)
		if len(items) > MaxItems {
			items = items[:MaxItems]
		}
		*b.lists()[i] = items
	}
	total := b.count()
	for {
		js, md, err := b.encode()
		if err != nil {
			return b, nil, nil, err
		}
		if b.Tokens <= budget && tokens.Count(string(md)) <= budget {
			return b, js, md, nil
		}
		if b.count() == 0 || b.count() == 1 && total > 0 {
			empty := Bootstrap{Version: b.Version, Title: b.Title, ReferenceTime: b.ReferenceTime, BudgetTokens: budget}
			_, emd, _ := empty.encode()
			return b, nil, nil, fmt.Errorf("%w: %d tokens fit no item (the bootstrap takes %d tokens with none, %d with the smallest); raise --budget",
				ErrBudget, budget, max(empty.Tokens, tokens.Count(string(emd))), b.Tokens)
		}
		b.dropLowest()
	}
}

func (b *Bootstrap) count() int {
	n := 0
	for _, l := range b.lists() {
		n += len(*l)
	}
	return n
}

// dropLowest removes the item with the lowest score relative to the best
// of its section.
func (b *Bootstrap) dropLowest() {
	lists := b.lists()
	pick, pickItem, pickRel := -1, 0, 0.0
	for i, l := range lists {
		best := math.Inf(-1)
		for _, it := range *l {
			best = math.Max(best, it.Score)
		}
		for j, it := range *l {
			rel := 1 - float64(j)/float64(len(*l)) // by rank when no score is positive
			if best > 0 {
				rel = it.Score / best
			}
			if pick < 0 || rel < pickRel || rel == pickRel && it.Score <= (*lists[pick])[pickItem].Score {
				pick, pickItem, pickRel = i, j, rel
			}
		}
	}
	l := lists[pick]
	*l = append((*l)[:pickItem:pickItem], (*l)[pickItem+1:]...)
}

// encode renders both forms and sets Tokens to the JSON form's own count
// (found by iterating: the number is part of what it counts).
func (b *Bootstrap) encode() ([]byte, []byte, error) {
	var js []byte
	for range 5 {
		// Compact: indentation would spend the budget on white space.
		var buf bytes.Buffer
		if err := json.NewEncoder(&buf).Encode(b); err != nil {
			return nil, nil, err
		}
		js = buf.Bytes()
		n := tokens.Count(string(js))
		if n == b.Tokens {
			break
		}
		b.Tokens = n
	}
	return js, b.markdown(), nil
}

// markdown is bootstrap.md: the same items as a Markdown list.
func (b *Bootstrap) markdown() []byte {
	var w strings.Builder
	fmt.Fprintf(&w, "# %s: session start\n\n", oneLine(b.Title))
	fmt.Fprintf(&w, "Memory as of %s. Read the warnings first; follow a link for the whole note.\n", b.ReferenceTime)
	for i, l := range b.lists() {
		fmt.Fprintf(&w, "\n## %s\n\n", sectionTitles[i])
		if len(*l) == 0 {
			w.WriteString("None.\n")
			continue
		}
		for _, it := range *l {
			fmt.Fprintf(&w, "- %s (%s)\n", it.Text, it.URL)
		}
	}
	return []byte(w.String())
}

// Build makes the candidates of a site: its antipatterns, failures and
// partial successes of the last RecentDays, best patterns, most recurring
// lessons and the notes due within DueDays, each best first.
func Build(s *export.Site) Candidates {
	lessonsURL := s.BaseURL + "lessons/"
	c := Candidates{Title: oneLine(s.Title), ReferenceTime: s.Manifest.ReferenceTime}
	ref := s.ReferenceTime
	for _, p := range s.Antipatterns {
		c.Warnings = append(c.Warnings, Item{ID: p.ID, URL: p.URL, Score: warningScore(p),
			Text: fmt.Sprintf("%s: avoid %q when %s%s", p.ID, oneLine(p.Action), lowerFirst(oneLine(p.Trigger)), rateNote(p))})
	}
	for _, e := range s.Episodes {
		if e.Outcome != "failure" && e.Outcome != "partial" || e.AgeDays > RecentDays {
			continue
		}
		text := fmt.Sprintf("%s (%s, %s): %s", e.ID, e.Outcome, day(e.Date), oneLine(e.Task))
		if len(e.Lessons) > 0 {
			text += ". Lesson: " + oneLine(e.Lessons[0])
		}
		c.RecentFailures = append(c.RecentFailures, Item{ID: e.ID, URL: e.URL, Score: e.Score, Text: text})
	}
	for _, p := range s.Patterns {
		if p.Antipattern || p.SuccessRate == nil {
			continue
		}
		c.Patterns = append(c.Patterns, Item{ID: p.ID, URL: p.URL, Score: p.Score,
			Text: fmt.Sprintf("%s: when %s, %s%s", p.ID, lowerFirst(oneLine(p.Trigger)), lowerFirst(oneLine(p.Action)), rateNote(p))})
	}
	for _, l := range s.Lessons {
		text := oneLine(l.Text)
		if l.Count > 1 {
			text += fmt.Sprintf(" (%d episodes)", len(l.Episodes))
		}
		c.Lessons = append(c.Lessons, Item{Text: text, URL: lessonsURL, Score: l.Score})
	}
	today := ref.UTC().Truncate(24 * time.Hour)
	for _, d := range s.DueItems {
		if d.Due.Before(today) || d.Due.After(ref.AddDate(0, 0, DueDays)) {
			continue
		}
		c.Due = append(c.Due, Item{ID: d.ID, URL: d.URL, Score: 1, Text: fmt.Sprintf("%s: due %s", d.ID, d.Due.UTC().Format(time.DateOnly))})
	}
	for _, l := range c.lists() {
		sort.SliceStable(*l, func(i, j int) bool { return (*l)[i].Score > (*l)[j].Score })
	}
	sort.SliceStable(c.Due, func(i, j int) bool { return c.Due[i].Text < c.Due[j].Text })
	for _, l := range c.lists() {
		if len(*l) > MaxItems {
			*l = (*l)[:MaxItems]
		}
	}
	return c
}

// warningScore ranks an antipattern by how reliably it fails: the Wilson
// lower bound of its failure rate (0.5 without statistics), decayed as
// its score is.
func warningScore(p export.Pattern) float64 {
	rel := 0.5
	if p.SuccessRate != nil && p.Occurrences > 0 {
		rel = causal.Wilson(1-*p.SuccessRate, p.Occurrences)
	}
	f := math.Exp(-p.Lambda * p.AgeDays)
	if p.Stale {
		f /= 2
	}
	return rel * f
}

func rateNote(p export.Pattern) string {
	if p.SuccessRate == nil {
		return ""
	}
	return fmt.Sprintf(" (%.0f%% success over %d)", 100**p.SuccessRate, p.Occurrences)
}

func day(rfc3339 string) string {
	if len(rfc3339) >= 10 {
		return rfc3339[:10]
	}
	return rfc3339
}

// oneLine keeps the first line of s, at most 200 characters: an item is
// one short line.
func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	s = strings.TrimRight(s, ".")
	if r := []rune(s); len(r) > 200 {
		return string(r[:199]) + "…"
	}
	return s
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	// "A call" and "When" lose their capital; "CI fails" keeps it.
	r := []rune(s)
	if r[0] >= 'A' && r[0] <= 'Z' && (len(r) == 1 || r[1] < 'A' || r[1] > 'Z') {
		r[0] += 'a' - 'A'
	}
	return string(r)
}
