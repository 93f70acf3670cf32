// Package lessons clusters the lessons of all episodes (SPEC §3). A
// cluster publishes the wording of its most recent member, and every
// lesson in it is within the threshold of that wording: the cosine
// similarity of their TF-IDF vectors exceeds it (0.85 by default).
//
// Clusters are made by leader clustering, not as the connected components
// of "cosine above threshold" (single linkage). Single linkage chained
// lessons made from one template, each a word away from the next ("Run the
// auth tests before touching auth code", "… touching cache code", "Run the
// cache tests …"), into clusters of a thousand lessons whose published
// wording was far from most of them. Leader clustering takes the distinct
// vectors newest first, and puts each in the first cluster whose leader
// (its newest wording) it is similar to, so nothing chains and the order,
// hence the result, is defined by the data and not by the input order.
//
// Terms come from bleve's English analyzer (Unicode word segmentation,
// possessive stripping, lower-casing, English stop words, Porter stemming)
// with negations kept: "not", "no", "nor" and "never" are terms, and an n't
// contraction is its verb and "not" ("don't" is "do not", "can't" and
// "cannot" are "can not"), so "Don't run the tests" is not "Run the tests".
// Before analysis a text is put in Unicode NFC and the typographic
// apostrophes U+2019 and U+FF07 become "'", so that "Don’t" is "don't" as
// when typed with a straight apostrophe.
//
// What the analyzer makes of text that is not English:
//   - Han ideographs and Hiragana become one term per character (the
//     segmenter does not split Chinese or Japanese into words), a run of
//     Katakana one term; the unigrams are weighted like any other term.
//   - Arabic, Hebrew, Cyrillic, Greek, Devanagari, Hangul and other
//     scripts written with spaces become one term per word, lower-cased
//     where the script has case, unstemmed and with no stop words removed.
//   - Thai, Lao, Khmer and Myanmar (written without spaces), emoji and
//     punctuation give no terms at all.
//
// A lesson with no terms (empty, only stop words, only punctuation or emoji,
// only Thai) cannot have a meaningful cosine with anything; it clusters only
// with lessons whose normalised text (NFC, lower case, white space
// collapsed) is the same.
//
// Bag-of-words limits a user may notice: word order is lost ("run the parser
// tests before touching cache code" and "run the cache tests before
// touching parser code" are the same vector), and so is what a negation
// applies to ("Don't run the tests, commit" and "Run the tests, don't
// commit" are the same vector). And leader clustering depends on which
// wording is newest: a new lesson can move older ones from one cluster to
// another, or split a cluster, when it becomes a leader.
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

// Cluster is a group of lessons that say the same thing.
type Cluster struct {
	Text     string    // the wording of the most recent member (ties: the smaller text)
	Count    int       // number of lessons in the cluster
	Episodes []string  // distinct episode ids, sorted
	Latest   time.Time // date of the most recent member
	Members  []string  // distinct wordings, sorted
}

// DefaultThreshold is SPEC §3's 0.85.
const DefaultThreshold = 0.85

// Clusters groups lessons so that every member is within the threshold of
// the cluster's leader, the most recent wording: the cosine similarity of
// their TF-IDF vectors is above threshold (strictly greater). Being near
// another member is not enough. Clusters used to be the connected
// components of "cosine above threshold" (single linkage), and that chained
// template families ("Run the auth tests before touching auth code" ~ "…
// cache code" ~ "Run the cache tests …") into clusters of 1,500 lessons
// published under a wording far from most of them.
//
// The algorithm: lessons with the same terms (the same vector) form one
// group, always together whatever the threshold. The groups are taken in
// order of their most recent member, newest first (ties: the smaller
// wording). Each joins the first cluster, in order of creation, whose
// leader vector has cosine above threshold with its own, or else starts a
// cluster and leads it. Groups that share no term are never together, even
// with a negative threshold. The order is defined by the lessons, so the
// result does not depend on the order of ls.
//
// Weights: a document is one lesson and N the number of lessons (repeats
// included); a term's weight in a lesson is tf × idf with tf its count in
// the lesson and idf = ln(N/df) + 1, df the number of lessons containing it.
// idf is at least 1, so every term counts and two lessons have a positive
// cosine exactly when they share a term.
//
// A wording is a lesson's text with surrounding white space trimmed. Count
// counts lessons, so an episode that lists the same lesson twice counts
// twice; Episodes lists it once, and leaves out empty episode ids.
//
// Clusters are sorted by Count descending, then Latest descending, then
// Text. The result is nil when ls is empty.
func Clusters(ls []Lesson, threshold float64) []Cluster {
	if len(ls) == 0 {
		return nil
	}
	c := analyse(ls)
	vs := weigh(c, len(ls))
	win := winners(ls, c.group, len(c.groups))
	cluster, leader := lead(vs, c.negated(), byRecency(ls, win), len(c.terms), threshold)
	return collect(ls, c.group, cluster, leader, win)
}

// negated reports, for each group, whether its lesson says "not" (every
// n't is a "not" after analysis). A lesson and its negation never share a
// cluster, however similar the rest of their words: TF-IDF gives "not",
// which many lessons use, little weight, so "Do not rotate the keys" can
// be within the threshold of "Rotate the keys".
func (c *corpus) negated() []bool {
	out := make([]bool, len(c.groups))
	for id, term := range c.terms {
		if term != "not" {
			continue
		}
		for g, ts := range c.groups {
			for _, t := range ts {
				if t.id == int32(id) {
					out[g] = true
				}
			}
		}
	}
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

// byRecency returns the groups, the one with the most recent winner first.
// Two groups never share a wording, so the order is total.
func byRecency(ls []Lesson, win []int) []int {
	order := make([]int, len(win))
	for g := range order {
		order[g] = g
	}
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case newer(ls[win[a]], ls[win[b]]):
			return -1
		case newer(ls[win[b]], ls[win[a]]):
			return 1
		}
		return 0
	})
	return order
}

// collect turns the groups' clusters into Clusters. A cluster's wording
// is its leader's most recent one: the leader came first in order of
// recency, so it is the most recent of all its members.
func collect(ls []Lesson, group, cluster, leader, win []int) []Cluster {
	out := make([]Cluster, len(leader))
	for k, g := range leader {
		w := ls[win[g]]
		out[k].Text, out[k].Latest = wording(w.Text), w.Date
	}
	for i, l := range ls {
		cl := &out[cluster[group[i]]]
		cl.Count++
		if l.Episode != "" {
			cl.Episodes = append(cl.Episodes, l.Episode)
		}
		cl.Members = append(cl.Members, wording(l.Text))
	}
	for k := range out {
		out[k].Episodes = distinct(out[k].Episodes)
		out[k].Members = distinct(out[k].Members)
	}
	slices.SortFunc(out, compareClusters)
	return out
}

// newer reports whether a's wording should win over b's: the later date,
// then the smaller wording, then (same instant and wording, different zone)
// the smaller formatted date, so that the output never depends on order.
func newer(a, b Lesson) bool {
	if !a.Date.Equal(b.Date) {
		return a.Date.After(b.Date)
	}
	if wa, wb := wording(a.Text), wording(b.Text); wa != wb {
		return wa < wb
	}
	return a.Date.Format(time.RFC3339Nano) < b.Date.Format(time.RFC3339Nano)
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

func wording(s string) string { return strings.TrimSpace(s) }

func distinct(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
