// Package lessons clusters the lessons of all episodes (SPEC §3): two
// lessons belong together when the cosine similarity of their TF-IDF
// vectors exceeds a threshold (0.85 by default), and clusters are the
// connected components of that relation.
//
// Terms come from bleve's English analyzer: Unicode word segmentation,
// possessive stripping, lower-casing, English stop words, Porter stemming.
// Before analysis a text is put in Unicode NFC and the typographic
// apostrophes U+2019 and U+FF07 become "'", so that "Don’t" is the stop word
// "don't" as it is when typed with a straight apostrophe.
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
// touching parser code" are the same vector), and so is negation, because
// "not", "no", "don't" and the other n't forms are English stop words
// ("Don't run the tests" is the same vector as "Run the tests"; "never" is
// kept). And clusters are connected components (single linkage): lessons
// made from one template, each one word away from the next, chain into one
// cluster even where the first and the last are far apart.
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

// Clusters groups lessons whose TF-IDF vectors have cosine similarity above
// threshold (strictly greater), transitively: the clusters are the connected
// components of that relation, so the result does not depend on input order.
// Lessons with the same terms (the same vector) are always together, whatever
// the threshold; lessons that share no term are never together, even with a
// negative threshold.
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
	comp := link(vs, len(c.terms), threshold)
	return collect(ls, c.group, comp)
}

// collect turns the components of the groups into clusters.
func collect(ls []Lesson, group []int, comp []int) []Cluster {
	byComp := map[int]int{} // component -> index in out
	var out []Cluster
	var winner []int // index in ls of each cluster's most recent member
	for i, l := range ls {
		k := comp[group[i]]
		ci, ok := byComp[k]
		if !ok {
			ci = len(out)
			byComp[k] = ci
			out = append(out, Cluster{})
			winner = append(winner, i)
		}
		cl := &out[ci]
		cl.Count++
		if l.Episode != "" {
			cl.Episodes = append(cl.Episodes, l.Episode)
		}
		cl.Members = append(cl.Members, wording(l.Text))
		if newer(l, ls[winner[ci]]) {
			winner[ci] = i
		}
	}
	for ci := range out {
		cl := &out[ci]
		w := ls[winner[ci]]
		cl.Text, cl.Latest = wording(w.Text), w.Date
		cl.Episodes = distinct(cl.Episodes)
		cl.Members = distinct(cl.Members)
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
