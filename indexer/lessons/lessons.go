// Package lessons sorts the lessons of all episodes into two tiers (SPEC
// §3): duplicates, the same lesson reworded, merged into one cluster; and
// related, lessons of one advice family, listed with each cluster and
// never merged. Clusters joined by related links form families of a few
// clusters (Cluster.Family), so that a theme restated across episodes in
// other words can be counted as one. It is deterministic, offline and lexical: docs/lessons.md
// says how it was judged on hand-labelled real lessons, with what
// precision, and where it fails.
//
// What is compared. A lesson's terms come from bleve's English analyzer
// (Unicode word segmentation, possessive stripping, lower-casing, English
// stop words, Porter stemming) with negations kept, through the search
// package; then negation words, a few more words that say nothing about a
// subject (rule.go's extraStops) and identifiers without meaning (numbers,
// hex ids) are dropped. Its features are its terms and the bigrams of
// terms that follow each other, weighted by TF-IDF: a document is a
// lesson, N the number of lessons (repeats included), and a feature's
// weight in a lesson is tf × (ln(N/df) + 1). Bigrams make word order count
// a little: "run the parser tests before touching cache code" and "run the
// cache tests before touching parser code" share their terms, not their
// bigrams.
//
// How much two lessons are alike is the weighted overlap coefficient of
// their features (vector.go), with the number of terms they share. The
// duplicates tier needs similarity above Options.Duplicate and
// DuplicateMinShared shared terms; the related tier above Options.Related
// and RelatedMinShared terms. The defaults were chosen on the labelled
// pairs (docs/lessons.md).
//
// A lesson and its negation are never duplicates. Real lessons are often
// "Rule.. Explanation" or "Avoid: Anti-pattern.. Remedy"; the rule (before
// "..", or the first sentence) is negated by a leading "Avoid" and by each
// "not", "no", "never", "nor" or "without" in it, an odd number of them
// making it negated (rule.go). A cluster holds lessons of one polarity.
// The related tier does list a lesson with its negation, marked Opposite:
// two lessons that contradict each other are worth reading together.
//
// What the analyzer makes of text that is not English:
//   - Han ideographs and Hiragana become one term per character (the
//     segmenter does not split Chinese or Japanese into words), a run of
//     Katakana one term; the bigrams of characters then stand for words.
//   - Arabic, Hebrew, Cyrillic, Greek, Devanagari, Hangul and other
//     scripts written with spaces become one term per word, lower-cased
//     where the script has case, unstemmed and with no stop words removed.
//   - Thai, Lao, Khmer and Myanmar (written without spaces), emoji and
//     punctuation give no terms at all.
//
// No negation is recognised outside English. A lesson with no terms
// (empty, only stop words, only punctuation or emoji, only Thai) cannot be
// compared; it clusters only with lessons whose normalised text (NFC,
// lower case, white space collapsed) is the same.
package lessons

import (
	"slices"
	"strings"
	"time"
)

// Lesson is one item of an episode's "## Lessons Learned".
type Lesson struct {
	Text    string
	Episode string    // the episode's id (title)
	Date    time.Time // when the episode happened; the most recent member's wording wins
}

// Cluster is the duplicates tier: lessons that say the same thing.
type Cluster struct {
	// Text is the wording of the most recent member; among members of the
	// same date, of the one most like the others of that date, then the
	// smaller text.
	Text     string
	Count    int       // number of lessons in the cluster
	Episodes []string  // distinct episode ids, sorted
	Latest   time.Time // date of the most recent member
	Members  []string  // distinct wordings, sorted
	Related  []Related // the related tier, best first; nil when none
	// Family is the place, in the slice Clusters returned, of the first
	// cluster of this one's family: clusters joined through their related
	// links, at most Options.MaxFamily of them (family.go). It is the
	// cluster's own place when it has no family. A family is an advice
	// family, not one lesson: what recurs across episodes in other words.
	Family int
}

// Related is another cluster whose wording is near this one's, but not
// near enough to be the same lesson, or whose rule is its negation.
type Related struct {
	Cluster  int     // index of the other cluster in the slice Clusters returned
	Score    float64 // similarity of the two wordings, rounded to 4 decimal places
	Opposite bool    // one rule is negated and the other not: they may contradict
}

// Options are the thresholds of the two tiers. The zero value, or a zero
// field, means the defaults.
type Options struct {
	// Analyze turns a text into its terms: the search stage's English
	// analyser with negations kept (search.AnalyzeKeepingNegations),
	// given by the orchestrator so that lessons, which export publishes,
	// does not import a stage that comes after export. Required.
	Analyze func(text string) []string
	// Duplicate is the similarity a lesson must exceed with a cluster's
	// wording to join the cluster.
	Duplicate float64
	// Related is the similarity two clusters' wordings must exceed to be
	// related.
	Related float64
	// MaxRelated bounds each cluster's Related; negative means none.
	MaxRelated int
	// MaxFamily bounds the clusters of a family; negative means no
	// families (each cluster is its own).
	MaxFamily int
}

// The defaults, chosen on hand-labelled pairs of real lessons
// (docs/lessons.md), and the shared terms each tier needs whatever the
// threshold: fewer than four common words make a topic, not a lesson, and
// fewer than three are often one word in two senses. A family of up to
// four clusters is the middle of the caps (three to five) whose families
// were pure on the labels; from six, chains of related links joined
// lessons that share a word and not a theme.
const (
	DefaultDuplicate   = 0.15
	DefaultRelated     = 0.1
	DefaultMaxRelated  = 5
	DefaultMaxFamily   = 4
	DuplicateMinShared = 4
	RelatedMinShared   = 3
)

func (o Options) withDefaults() Options {
	if o.Duplicate == 0 {
		o.Duplicate = DefaultDuplicate
	}
	if o.Related == 0 {
		o.Related = DefaultRelated
	}
	if o.MaxRelated == 0 {
		o.MaxRelated = DefaultMaxRelated
	}
	if o.MaxFamily == 0 {
		o.MaxFamily = DefaultMaxFamily
	}
	return o
}

// Clusters makes the two tiers.
//
// The duplicates tier is leader clustering. Lessons with the same features
// and polarity form one group, always together whatever the threshold. The
// groups are taken newest first (order.go), and each joins the first
// cluster, in order of creation, whose leader has its polarity and is
// related to it in the tier, or else starts a cluster and leads it. So
// every member is near the cluster's wording, its leader's; being near
// another member is not enough, and template families ("Run the auth
// tests before touching auth code" ~ "… cache code" ~ "Run the cache tests
// …") do not chain into one cluster published under a wording far from
// most of them, as single linkage made them. The order is defined by the
// lessons, so the result does not depend on the order of ls.
//
// The related tier links two clusters whose wordings are related in it,
// whatever their polarity, when each is among the other's MaxRelated
// nearest: the lists are symmetric.
//
// Families are the related links taken strongest first, each joining two
// families when together they have at most MaxFamily clusters (family.go).
//
// A wording is a lesson's text with surrounding white space trimmed. Count
// counts lessons, so an episode that lists the same lesson twice counts
// twice; Episodes lists it once, and leaves out empty episode ids.
//
// Clusters are sorted by Count descending, then Latest descending, then
// Text. The result is nil when ls is empty.
func Clusters(ls []Lesson, o Options) []Cluster {
	if len(ls) == 0 {
		return nil
	}
	o = o.withDefaults()
	if o.Analyze == nil {
		panic("lessons: Options.Analyze is nil")
	}
	c := analyse(ls, newReader(o.Analyze))
	vs := weigh(c, len(ls))
	win := winners(ls, c.group, len(c.groups))
	dup := tier{o.Duplicate, DuplicateMinShared}
	order := byRecency(ls, win, c.negated, newJoiner(vs, len(c.terms), dup))
	cluster, leader := lead(vs, c.negated, order, len(c.terms), dup)
	out, index := collect(ls, c, cluster, leader, win)
	if o.MaxRelated > 0 {
		relate(out, index, newJoiner(vs, len(c.terms), tier{o.Related, RelatedMinShared}), leader, c.negated, o.MaxRelated)
	}
	families(out, max(o.MaxFamily, 1))
	return out
}

// winners returns, for each group, the index in ls of its most recent
// member.
func winners(ls []Lesson, group []int, groups int) []int {
	win := make([]int, groups)
	for g := range win {
		win[g] = -1
	}
	for i, l := range ls {
		if g := group[i]; win[g] < 0 || newer(l, ls[win[g]]) {
			win[g] = i
		}
	}
	return win
}

// collect turns the groups' clusters into Clusters, sorted, and returns
// the place of each cluster, by number of creation. A cluster's wording is
// its leader's most recent one: the leader came first in order, so it is
// the most recent of all its members.
func collect(ls []Lesson, c *corpus, cluster, leader, win []int) (out []Cluster, index []int) {
	made := make([]Cluster, len(leader))
	for k, g := range leader {
		w := ls[win[g]]
		made[k].Text, made[k].Latest = wording(w.Text), w.Date
	}
	for i, l := range ls {
		cl := &made[cluster[c.group[i]]]
		cl.Count++
		// An episode's lessons come one after the other: skip the
		// repeats before sorting.
		if n := len(cl.Episodes); l.Episode != "" && (n == 0 || cl.Episodes[n-1] != l.Episode) {
			cl.Episodes = append(cl.Episodes, l.Episode)
		}
	}
	for k, w := range c.words {
		cl := &made[cluster[c.wordGroup[k]]]
		cl.Members = append(cl.Members, w)
	}
	order := make([]int, len(made))
	for k := range made {
		made[k].Episodes = distinct(made[k].Episodes)
		slices.Sort(made[k].Members) // distinct already
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return compareClusters(made[a], made[b]) })
	out, index = make([]Cluster, len(made)), make([]int, len(made))
	for i, k := range order {
		out[i], index[k] = made[k], i
	}
	return out, index
}

func compareClusters(a, b Cluster) int {
	if a.Count != b.Count {
		return b.Count - a.Count
	}
	if c := b.Latest.Compare(a.Latest); c != 0 {
		return c
	}
	// Two clusters never share a wording: the same wording gives the
	// same vector.
	return strings.Compare(a.Text, b.Text)
}

func distinct(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
