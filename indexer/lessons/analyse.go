package lessons

import (
	"cmp"
	"encoding/binary"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// corpus is the lessons after analysis, with lessons of the same features
// and the same polarity gathered in one group: they have the same vector,
// so they are compared once.
type corpus struct {
	group     []int        // group of each lesson
	words     []string     // distinct wordings, in order of first appearance
	wordGroup []int        // group of each wording
	groups    []featuresOf // per group
	negated   []bool       // per group: its rule is negated (rule.go)
	size      []int        // lessons per group
	feats     []feature    // feature id -> feature
	terms     []string     // term id -> term
}

// feature is a term (b < 0) or the bigram of two terms that follow each
// other in a part of a lesson.
type feature struct{ a, b int32 }

// featuresOf is a group's features with their counts, sorted by feature
// id; empty for a group of lessons without terms.
type featuresOf []featureCount

type featureCount struct {
	id int32
	tf int32
}

func analyse(ls []Lesson, rd reader) *corpus {
	c := &corpus{group: make([]int, len(ls))}
	words, of := distinctWordings(ls)
	c.words = words
	rs := readAll(words, rd)
	in := interner{terms: make(map[string]int32, len(words)), bigrams: make(map[uint64]int32, 4*len(words))}
	byKey := map[string]int{}
	groupOf := make([]int, len(words))
	c.wordGroup = groupOf
	for k, r := range rs {
		fc := c.count(r, &in)
		key := fc.key(r.negated)
		if len(fc) == 0 {
			key = "n" + normal(prepare(words[k]))
		}
		g, ok := byKey[key]
		if !ok {
			g = len(c.groups)
			byKey[key] = g
			c.groups = append(c.groups, fc)
			c.negated = append(c.negated, r.negated)
			c.size = append(c.size, 0)
		}
		groupOf[k] = g
	}
	for i := range ls {
		g := groupOf[of[i]]
		c.group[i] = g
		c.size[g]++
	}
	return c
}

// distinctWordings returns the lessons' wordings, each once, in order of
// first appearance, and the place of each lesson's wording among them.
func distinctWordings(ls []Lesson) (words []string, of []int) {
	of = make([]int, len(ls))
	seen := map[string]int{}
	for i, l := range ls {
		w := wording(l.Text)
		k, ok := seen[w]
		if !ok {
			k = len(words)
			seen[w] = k
			words = append(words, w)
		}
		of[i] = k
	}
	return words, of
}

// readAll reads the wordings on every processor: reading is most of the
// work, and each reading depends on its wording alone.
func readAll(words []string, rd reader) []reading {
	rs := make([]reading, len(words))
	workers := min(runtime.GOMAXPROCS(0), len(words)/256+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < len(words); k += workers {
				rs[k] = rd.read(words[k])
			}
		})
	}
	wg.Wait()
	return rs
}

// prepare makes canonically equivalent texts analyse alike (NFC) and lets
// the contraction and stop-word filters, which know only "'", see
// typographic apostrophes.
func prepare(s string) string {
	if ascii(s) {
		return s // already NFC, and no typographic apostrophe
	}
	s = norm.NFC.String(s)
	if !strings.ContainsAny(s, "\u2019\uFF07") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\u2019' || r == '\uFF07' {
			return '\''
		}
		return r
	}, s)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// normal is the identity of a text without terms.
func normal(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// interner numbers terms and features in order of first appearance.
type interner struct {
	terms    map[string]int32
	termFeat []int32          // by term: its feature
	bigrams  map[uint64]int32 // by the two terms: their feature
}

// count interns a reading's terms, and the bigrams of each part's terms,
// and counts them. A bigram never spans the title and the body.
func (c *corpus) count(r reading, in *interner) featuresOf {
	fc := make(featuresOf, 0, 2*(len(r.title)+len(r.body)))
	for _, part := range [][]string{r.title, r.body} {
		prev := int32(-1)
		for _, t := range part {
			id := c.term(t, in)
			fc = append(fc, featureCount{in.termFeat[id], 1})
			if prev >= 0 {
				fc = append(fc, featureCount{c.bigram(prev, id, in), 1})
			}
			prev = id
		}
	}
	slices.SortFunc(fc, func(a, b featureCount) int { return cmp.Compare(a.id, b.id) })
	out := fc[:0]
	for _, f := range fc {
		if n := len(out); n > 0 && out[n-1].id == f.id {
			out[n-1].tf++
			continue
		}
		out = append(out, f)
	}
	return out
}

func (c *corpus) term(t string, in *interner) int32 {
	id, ok := in.terms[t]
	if !ok {
		id = int32(len(c.terms))
		in.terms[t] = id
		c.terms = append(c.terms, t)
		in.termFeat = append(in.termFeat, int32(len(c.feats)))
		c.feats = append(c.feats, feature{id, -1})
	}
	return id
}

func (c *corpus) bigram(a, b int32, in *interner) int32 {
	k := uint64(a)<<32 | uint64(b)
	id, ok := in.bigrams[k]
	if !ok {
		id = int32(len(c.feats))
		in.bigrams[k] = id
		c.feats = append(c.feats, feature{a, b})
	}
	return id
}

// key identifies a multiset of features and a polarity within one call of
// Clusters: "Rotate the keys" and "Do not rotate the keys" have the same
// features and are still two groups.
func (fc featuresOf) key(negated bool) string {
	b := make([]byte, 0, 1+4*len(fc))
	b = append(b, 'p')
	if negated {
		b[0] = 'm'
	}
	for _, f := range fc {
		b = binary.AppendUvarint(b, uint64(f.id))
		b = binary.AppendUvarint(b, uint64(f.tf))
	}
	return string(b)
}
