package poison

import "slices"

// needle is one of a rule's needles (or of its also strings).
type needle struct {
	rule int
	also bool
	s    string
}

// needleTable holds every rule's needles by their first two bytes (a
// needle of one byte under that byte and 0), so that one pass over a
// text finds them all: a text is mostly short, and a substring search
// per needle per text cost more than the rules.
var needleTable = indexNeedles()

func indexNeedles() [][]needle {
	t := make([][]needle, 1<<16)
	add := func(rule int, also bool, ss []string) {
		for _, s := range ss {
			k := key(s, 0)
			t[k] = append(t[k], needle{rule: rule, also: also, s: s})
		}
	}
	for i, r := range rules {
		add(i, false, r.needles)
		add(i, true, r.also)
	}
	return t
}

// key is the table's key for the bytes of s at i.
func key(s string, i int) int {
	k := int(s[i]) << 8
	if i+1 < len(s) {
		k |= int(s[i+1])
	}
	return k
}

// found are where each rule's needles and also strings start in a text.
type found struct {
	needles, also [][]int // by rule, ascending
}

// find finds every needle in s, ignoring ASCII case, in one pass.
func (f *found) find(s string) {
	if f.needles == nil {
		f.needles, f.also = make([][]int, len(rules)), make([][]int, len(rules))
	}
	for r := range rules {
		f.needles[r], f.also[r] = f.needles[r][:0], f.also[r][:0]
	}
	for i := 0; i < len(s); i++ {
		c := lower(s[i])
		f.at(s, i, needleTable[int(c)<<8])
		if i+1 < len(s) {
			f.at(s, i, needleTable[int(c)<<8|int(lower(s[i+1]))])
		}
	}
}

func (f *found) at(s string, i int, ns []needle) {
	for _, n := range ns {
		if !hasPrefixFold(s[i:], n.s) {
			continue
		}
		l := &f.needles[n.rule]
		if n.also {
			l = &f.also[n.rule]
		}
		if len(*l) == 0 || (*l)[len(*l)-1] != i {
			*l = append(*l, i)
		}
	}
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether s starts with prefix, a lower-case
// string, ignoring the case of s's ASCII letters.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lower(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

// windows are the spans of s, whole sentences, that hold one of rule
// r's needles and one of its also strings: all its expression needs to
// read. Neighbouring sentences make one window. segs are s's sentences
// (segments), made on first use.
func (f *found) windows(r int, s string, segs *[]int) [][]int {
	hits, also := f.needles[r], f.also[r]
	if len(hits) == 0 || rules[r].also != nil && len(also) == 0 {
		return nil
	}
	if len(*segs) == 0 {
		*segs = segments(s, (*segs)[:0])
	}
	starts := *segs
	var out [][]int
	for _, p := range hits {
		k, ok := slices.BinarySearch(starts, p)
		if !ok {
			k--
		}
		w := []int{starts[k], len(s)}
		if k+1 < len(starts) {
			w[1] = starts[k+1]
		}
		switch {
		case len(out) > 0 && out[len(out)-1][1] > w[0]:
			continue // a needle of a sentence already in
		case rules[r].also != nil && !anyWithin(also, w):
			continue
		case len(out) > 0 && out[len(out)-1][1] == w[0]:
			out[len(out)-1][1] = w[1]
		default:
			out = append(out, w)
		}
	}
	return out
}

// anyWithin reports whether one of the ascending positions ps lies in w.
func anyWithin(ps []int, w []int) bool {
	k, _ := slices.BinarySearch(ps, w[0])
	return k < len(ps) && ps[k] < w[1]
}
