package secrets

// keywords finds every occurrence of a set of keywords in text, ignoring
// ASCII case, in one pass: an Aho-Corasick automaton with every
// transition precomputed, over the bytes the keywords use (all other
// bytes are one class). gitleaks lower-cases a whole file and walks its
// own automaton for the same keywords; this one reports where they are.
type keywords struct {
	words  []string
	class  [256]byte
	nclass int
	// next maps row+class to the next row, a row being a state times
	// nclass; out lists the keywords that end at a row (sparse).
	next []int32
	out  map[int32][]int32
	ends []bool // by row: out has an entry
}

func newKeywords(words []string) *keywords {
	k := &keywords{words: words}
	k.nclass = 1
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			c := lower(w[i])
			if k.class[c] == 0 {
				k.class[c] = byte(k.nclass)
				k.nclass++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		k.class[c] = k.class[c+'a'-'A']
	}
	// The trie, then failure links breadth first.
	trie := []map[byte]int32{{}}
	out := [][]int32{nil}
	for id, w := range words {
		s := int32(0)
		for i := 0; i < len(w); i++ {
			c := k.class[lower(w[i])]
			t, ok := trie[s][c]
			if !ok {
				t = int32(len(trie))
				trie = append(trie, map[byte]int32{})
				out = append(out, nil)
				trie[s][c] = t
			}
			s = t
		}
		out[s] = append(out[s], int32(id))
	}
	n := len(trie)
	k.next = make([]int32, n*k.nclass)
	fail := make([]int32, n)
	queue := []int32{0}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for c := 0; c < k.nclass; c++ {
			t, ok := trie[s][byte(c)]
			if !ok {
				if s == 0 {
					k.next[c] = 0
				} else {
					k.next[int(s)*k.nclass+c] = k.next[int(fail[s])*k.nclass+c]
				}
				continue
			}
			if s != 0 {
				fail[t] = k.next[int(fail[s])*k.nclass+c]
				out[t] = append(out[t], out[fail[t]]...)
			}
			k.next[int(s)*k.nclass+c] = t
			queue = append(queue, t)
		}
	}
	k.out = map[int32][]int32{}
	k.ends = make([]bool, len(k.next))
	nc := int32(k.nclass)
	for i := range k.next {
		k.next[i] *= nc
	}
	for st, ws := range out {
		if len(ws) > 0 {
			k.out[int32(st)*nc] = ws
			k.ends[int32(st)*nc] = true
		}
	}
	return k
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// find calls fn for each occurrence of a keyword in text.
func (k *keywords) find(text string, fn func(at, word int)) {
	row := int32(0)
	next, ends, class := k.next, k.ends, &k.class
	for i := 0; i < len(text); i++ {
		row = next[row+int32(class[text[i]])]
		if ends[row] {
			for _, w := range k.out[row] {
				fn(i+1-len(k.words[w]), int(w))
			}
		}
	}
}
