// Package bootstrap makes what an agent reads at session start (SPEC
// §4.1): the practice (what the repository's agents do again and again),
// warnings, recent failures, recent work, best patterns, recurring
// lessons and due notes of a memory, each section at most ten items, the whole within a token budget counted with a real BPE
// tokenizer. When the candidates do not fit, the lowest-scored items are
// dropped first, and every non-empty section keeps its best item for as
// long as one item per section fits. Only advice worth taking goes in: a
// pattern that graph health flags is never offered. Nothing of a note
// flagged for memory poisoning (text that addresses an agent with
// instructions) goes in: not the note, not a lesson cluster with its
// lesson, not its due date.
package bootstrap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/routes"
	"github.com/engramhq/engram/indexer/tokens"
)

// MaxItems is the cap of each section (the seeds' inject cap).
const MaxItems = 10

// RecentDays and DueDays are the windows of recent_failures and due.
const (
	recentDays = 7
	dueDays    = 7
)

// MaxText is how long an item's text may be, in characters; longer text
// is cut at a word, with an ellipsis.
const maxText = 240

// Item is one line of the bootstrap: text and a link. Score orders the
// items for the budget and is not published.
type Item struct {
	ID    string  `json:"id,omitempty"`
	Text  string  `json:"text"`
	URL   string  `json:"url"`
	Score float64 `json:"-"`
}

// Sections are the seven lists, in SPEC §4.1's order.
type Sections struct {
	Practice       []Item `json:"practice"`
	Warnings       []Item `json:"warnings"`
	RecentFailures []Item `json:"recent_failures"`
	Recent         []Item `json:"recent"`
	Patterns       []Item `json:"patterns"`
	Lessons        []Item `json:"lessons"`
	Due            []Item `json:"due"`
}

func (s *Sections) lists() []*[]Item {
	return []*[]Item{&s.Practice, &s.Warnings, &s.RecentFailures, &s.Recent, &s.Patterns, &s.Lessons, &s.Due}
}

// sectionNames are the JSON names of the sections, sectionTitles their
// headings in bootstrap.md, in the order of lists.
var (
	sectionNames  = []string{"practice", "warnings", "recent_failures", "recent", "patterns", "lessons", "due"}
	sectionTitles = []string{"Practice: what this repository's agents do again and again", "Warnings: what to avoid", "Recent failures", "Recent work", "Patterns that work", "Lessons", "Due"}
)

// dropOrder is the order in which whole sections give way when not even
// one item of each fits: what is due and what was learned go before the
// practice, and that before what went wrong and what to avoid.
var dropOrder = []int{6, 5, 4, 3, 0, 2, 1}

// Docs are the families of the bootstrap's files, for the registry of
// what a build publishes: the whole bootstrap and each area's slice, each
// as JSON and as Markdown.
func Docs() []export.Doc {
	const title = "engram bootstrap: what an agent reads at session start"
	return []export.Doc{
		{Path: routes.Bootstrap, Schema: "bootstrap", Title: title, Type: Bootstrap{}},
		{Path: routes.BootstrapSlice("*") + ".json", Schema: "bootstrap", Title: title, Type: Bootstrap{}},
		{Path: routes.BootstrapText},
		{Path: routes.BootstrapSlice("*") + ".md"},
	}
}

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
	// Omitted counts, by section, the candidates left out to fit the
	// budget, so that a short section is never mistaken for a quiet one.
	Omitted map[string]int `json:"omitted,omitempty"`
}

// Candidates are every item that may go into a bootstrap, before the
// budget: what the build computes once and the CLI cuts to any budget.
type Candidates struct {
	Title         string
	ReferenceTime string
	Sections
}

// ErrBudget is a budget too small for even one item.
var errBudget = errors.New("bootstrap budget too small")

// Fit cuts the candidates to the budget: while the JSON or the Markdown
// form is over budget tokens, an item goes. Each section's first (best)
// item is kept while any section has a second one: among the others, the
// lowest-scored goes, scores taken relative to the best of their section
// (an antipattern's failure rate and an episode's recency are not on one
// scale; relative to its section every section's best scores 1). Ties go
// to the lower score, then the later section. Only when every section is
// down to its best item do whole sections go, in dropOrder. It fails with
// ErrBudget when not even one item fits, or when there are no items and
// the empty bootstrap does not fit.
func Fit(c Candidates, budget int) (Bootstrap, []byte, []byte, error) {
	b := Bootstrap{Version: export.SchemaVersion, Title: c.Title, ReferenceTime: c.ReferenceTime, BudgetTokens: budget}
	total := 0
	for i, l := range c.lists() {
		items := append([]Item{}, (*l)...)
		if len(items) > MaxItems {
			items = items[:MaxItems]
		}
		*b.lists()[i] = items
		total += len(items)
	}
	candidates := b.counts()
	for {
		b.omitted(candidates)
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
				errBudget, budget, max(empty.Tokens, tokens.Count(string(emd))), b.Tokens)
		}
		if !b.dropLowest() {
			b.dropSection()
		}
	}
}

func (b *Bootstrap) count() int {
	n := 0
	for _, l := range b.lists() {
		n += len(*l)
	}
	return n
}

func (b *Bootstrap) counts() []int {
	out := make([]int, len(sectionNames))
	for i, l := range b.lists() {
		out[i] = len(*l)
	}
	return out
}

// omitted records how many candidates of each section are left out.
func (b *Bootstrap) omitted(candidates []int) {
	b.Omitted = nil
	for i, l := range b.lists() {
		if n := candidates[i] - len(*l); n > 0 {
			if b.Omitted == nil {
				b.Omitted = map[string]int{}
			}
			b.Omitted[sectionNames[i]] = n
		}
	}
}

// dropLowest removes, among the items that are not their section's best,
// the one with the lowest score relative to that best; false when every
// section is down to one item.
func (b *Bootstrap) dropLowest() bool {
	lists := b.lists()
	pick, pickItem, pickRel := -1, 0, 0.0
	for i, l := range lists {
		best := math.Inf(-1)
		for _, it := range *l {
			best = math.Max(best, it.Score)
		}
		for j, it := range *l {
			if j == 0 {
				continue
			}
			rel := 1 - float64(j)/float64(len(*l)) // by rank when no score is positive
			if best > 0 {
				rel = it.Score / best
			}
			if pick < 0 || rel < pickRel || rel == pickRel && it.Score <= (*lists[pick])[pickItem].Score {
				pick, pickItem, pickRel = i, j, rel
			}
		}
	}
	if pick < 0 {
		return false
	}
	l := lists[pick]
	*l = append((*l)[:pickItem:pickItem], (*l)[pickItem+1:]...)
	return true
}

// dropSection empties the first non-empty section of dropOrder.
func (b *Bootstrap) dropSection() {
	lists := b.lists()
	for _, i := range dropOrder {
		if len(*lists[i]) > 0 {
			*lists[i] = (*lists[i])[:0]
			return
		}
	}
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

// markdown is bootstrap.md: the same items as a Markdown list. Note text
// is escaped so that it reads as text (export.MarkdownText): nothing in a
// note becomes a link, an image or HTML in the agent's context. A section
// with no item is left out (SPEC §4.1): a heading over "None." costs
// tokens and says nothing. Each item names its note by the link at its
// end, and no note is named twice (SPEC §4.1: each id once): an item
// about a note already linked above says under which section instead. The JSON form has
// every item's id and link.
func (b *Bootstrap) markdown() []byte {
	var w strings.Builder
	fmt.Fprintf(&w, "# %s: session start\n\n", export.MarkdownText(oneLine(b.Title)))
	fmt.Fprintf(&w, "Memory as of %s. Each line ends with the link to its note (a line without one shares the line above's); follow it for the whole record.\n", b.ReferenceTime)
	linked := map[string]string{} // a note's link -> the section that gave it
	for i, l := range b.lists() {
		n := b.Omitted[sectionNames[i]]
		if len(*l) == 0 && n == 0 {
			continue
		}
		fmt.Fprintf(&w, "\n## %s\n\n", sectionTitles[i])
		prev := ""
		for _, it := range *l {
			link := " (" + it.URL + ")"
			switch {
			case it.URL == prev:
				link = "" // the line above links the same page (the lessons)
			case linked[it.URL] != "":
				link = " (same note as under " + linked[it.URL] + " above)"
			default:
				linked[it.URL] = shortTitle(sectionTitles[i])
			}
			prev = it.URL
			fmt.Fprintf(&w, "- %s%s\n", export.MarkdownText(it.Text), link)
		}
		if n > 0 {
			fmt.Fprintf(&w, "- %d more left out to fit the budget of %d tokens.\n", n, b.BudgetTokens)
		}
	}
	return []byte(w.String())
}

// shortTitle is a section's title up to its colon: "Practice".
func shortTitle(title string) string {
	short, _, _ := strings.Cut(title, ":")
	return short
}

// Build makes the candidates of a site: its practice (phrases that
// many episodes share), antipatterns and the lessons that warn, failures
// and partial successes of the last RecentDays, its latest episodes,
// best patterns, lessons (recurring first) and the notes due within
// DueDays, each best first. Patterns that graph health flags and flagged
// episodes (fixtures, nearly empty) are never candidates.
func Build(s *export.Site) Candidates {
	return buildWith(s, newPhrases(s.Episodes))
}

// buildWith is Build with the episodes' phrases found once, so that the
// slices (one bootstrap per area) reuse them.
func buildWith(s *export.Site, ph *phrases) Candidates {
	c := Candidates{Title: oneLine(s.Title), ReferenceTime: s.Manifest.ReferenceTime}
	var warned map[string]bool
	c.Warnings, warned = warnings(s)
	for _, p := range s.Patterns {
		if p.Antipattern || p.SuccessRate == nil || len(p.Flags) > 0 {
			continue
		}
		c.Patterns = append(c.Patterns, Item{ID: p.ID, URL: p.URL, Score: p.Score,
			Text: Cut(fmt.Sprintf("%s, %s%s", upperFirst(condition(p.Trigger)), lowerFirst(sentence(p.Action)), rateNote(p)))})
	}
	c.RecentFailures, c.Recent = episodes(s, warned)
	c.Lessons = lessons(s, warned)
	c.Due = due(s)
	// The practice's examples are episodes the other sections do not
	// name, so that a note is linked once (bootstrap.md).
	listed := map[string]bool{}
	for _, l := range c.lists() {
		for _, it := range *l {
			listed[it.URL] = true
		}
	}
	c.Practice = ph.practice(s.Episodes, listed)
	sort.SliceStable(c.Patterns, func(i, j int) bool { return c.Patterns[i].Score > c.Patterns[j].Score })
	for _, l := range c.lists() {
		if len(*l) > MaxItems {
			*l = (*l)[:MaxItems]
		}
	}
	return c
}

// lessons are the recurring lessons, most recurring and recent first: a
// cluster from two or more episodes (the same lesson), or an advice
// family of related clusters from familyEpisodes or more (a theme
// restated in other words, a looser claim, docs/lessons.md), said once
// by its best-scored wording; then, to fill the section, lessons seen
// once, newest first, at most two from one episode, labelled so and
// linked to their episode. A wording listed among the warnings is not
// listed again (its family may be, in another wording).
func lessons(s *export.Site, warned map[string]bool) []Item {
	urls := map[string]string{}
	for _, e := range s.Episodes {
		urls[e.ID] = e.URL
	}
	said := map[string]bool{} // families said
	var out, once []Item
	perEpisode := map[string]int{}
	for _, l := range s.Lessons {
		if len(l.Flags) > 0 {
			continue // a wording is a lesson flagged for memory poisoning
		}
		family, eps := "", l.Episodes // the family, when it is enough to recur
		if len(l.FamilyEpisodes) >= familyEpisodes {
			family, eps = l.Family, l.FamilyEpisodes
		}
		if warned[l.Text] || family != "" && said[family] {
			continue // listed among the warnings, or its family said: said once
		}
		if len(eps) >= 2 {
			said[family] = family != ""
			out = append(out, Item{URL: s.BaseURL + "lessons/", Score: l.Score,
				Text: Cut(fmt.Sprintf("Recurring in %d episodes: %s", len(eps), sentence(l.Text)))})
			continue
		}
		if len(l.Episodes) == 1 && urls[l.Episodes[0]] != "" && perEpisode[l.Episodes[0]] < 2 {
			perEpisode[l.Episodes[0]]++
			// Filler: under the budget, a lesson seen once goes before a
			// warning or a recurring lesson of the same age.
			once = append(once, Item{URL: urls[l.Episodes[0]], Score: l.Score / 2,
				Text: Cut("Recent: " + sentence(l.Text))})
		}
	}
	// Lessons come most recurring and recent first: within "once", the
	// most recent first.
	return append(out, once...)
}

// familyEpisodes is how many episodes an advice family needs to be
// said to recur: its clusters are related, not the same lesson (the
// families' purity on the labelled real pairs is 0.90, the duplicates'
// precision 1.00), so two episodes are not enough.
const familyEpisodes = 3

// due lists the notes due from today to DueDays ahead, soonest first.
func due(s *export.Site) []Item {
	ref := s.ReferenceTime
	today := ref.UTC().Truncate(24 * time.Hour)
	var out []Item
	for _, d := range s.DueItems {
		if slices.Contains(d.Flags, causal.FlagPoisoning) || d.Due.Before(today) || d.Due.After(ref.AddDate(0, 0, dueDays)) {
			continue
		}
		out = append(out, Item{ID: d.ID, URL: d.URL, Score: 1, Text: fmt.Sprintf("%s: due %s", d.ID, d.Due.UTC().Format(time.DateOnly))})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}

// warningScore ranks an antipattern by how reliably it fails: the Wilson
// lower bound of its failure rate (0.5 without statistics), decayed as
// its score is.
func warningScore(p export.PatternSummary) float64 {
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
	if p.StatsSource == "declared" {
		// A claim the note makes, not counted from evidence episodes.
		return fmt.Sprintf(" (%.0f%% success over %d, declared)", 100**p.SuccessRate, p.Occurrences)
	}
	return fmt.Sprintf(" (%.0f%% success over %d)", 100**p.SuccessRate, p.Occurrences)
}

func day(rfc3339 string) string {
	if len(rfc3339) >= 10 {
		return rfc3339[:10]
	}
	return rfc3339
}

// oneLine keeps the first line of s.
func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(s)
}

// sentence is a note's text as one clean line: its first line, spaces
// collapsed, a doubled full stop (ai-agents joins a lesson's title and
// body with "..") made one, no full stop at the end: the item adds its
// own punctuation.
func sentence(s string) string {
	s = strings.Join(strings.Fields(oneLine(s)), " ")
	s = strings.TrimSpace(doubledStop.ReplaceAllString(s, "$1. "))
	return strings.TrimRight(s, ". ")
}

var doubledStop = regexp.MustCompile(`([^.])\.\.(\s|$)`)

// Cut shortens text to MaxText characters at a word boundary, ending it
// with an ellipsis; a text that fits is unchanged.
func Cut(s string) string { return cutTo(s, maxText) }

// cutTo is Cut to n characters.
func cutTo(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := n - 1
	for cut > 0 && !unicode.IsSpace(r[cut]) {
		cut--
	}
	if cut == 0 { // one long word: cut it, there is no boundary
		cut = n - 1
	}
	return strings.TrimRight(string(r[:cut]), " ,;:.-–—") + "…"
}

// conditionWords open a trigger that is already a condition: it is
// used as it is, never behind another "when".
var conditionWords = map[string]bool{"when": true, "whenever": true, "if": true, "before": true, "after": true, "once": true,
	"while": true, "on": true, "during": true, "as": true, "until": true, "unless": true}

// condition is a trigger as a clause that can follow a verb or open a
// sentence: "when a deploy fails", and a trigger that starts with
// "When", "If" or "Before" is kept as it is written, lower-cased.
func condition(trigger string) string {
	t := sentence(trigger)
	if t == "" {
		return ""
	}
	first, _, _ := strings.Cut(t, " ")
	if conditionWords[strings.ToLower(first)] {
		return lowerFirst(t)
	}
	return "when " + lowerFirst(t)
}

// quote puts an action in quotation marks.
func quote(action string) string { return "“" + sentence(action) + "”" }

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	// "A call" and "When" lose their capital; "CI fails" keeps it.
	r := []rune(s)
	if unicode.IsUpper(r[0]) && (len(r) == 1 || !unicode.IsUpper(r[1])) {
		r[0] = unicode.ToLower(r[0])
	}
	return string(r)
}

func upperFirst(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}
