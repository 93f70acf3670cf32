package search

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzSearch: no query text makes a search fail or panic, and hits are
// in order, each once; nor does it make a similarity query panic.
func FuzzSearch(f *testing.F) {
	for _, q := range []string{"", "backoff", `+-&|!(){}[]^"~*?:\/`, "title:x AND y", "支付失败", "الدفع", "\x00\xff", strings.Repeat("a b ", 3000), "payout~2^3", `/.*/`, "e07f40f69 2026-07-16T00:00:00+00:00 3f2504e0-4f89-11d3-9a0c-0305e82c3301"} {
		f.Add(q, "")
	}
	f.Add("ledger", "episode")
	dir := filepath.Join(f.TempDir(), "search")
	if err := Build(dir, testDocs()); err != nil {
		f.Fatal(err)
	}
	idx, err := Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	defer idx.Close()
	docs := testDocs()
	for i := range docs {
		docs[i].Similar = docs[i].Body
	}
	sim := NewSimilarity(docs)
	f.Fuzz(func(t *testing.T, q, typ string) {
		switch typ {
		case "", KindEpisode, KindPattern, KindNote:
		default:
			typ = ""
		}
		hits, err := idx.Search(q, typ, 5)
		if err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
		seen := map[string]bool{}
		for i, h := range hits {
			if seen[h.ID] || i > 0 && (hits[i-1].Score < h.Score || hits[i-1].Score == h.Score && hits[i-1].ID > h.ID) {
				t.Fatalf("Search(%q): hits out of order or repeated: %v", q, hits)
			}
			seen[h.ID] = true
		}
		for _, m := range sim.Text(q, 3) {
			if m.Score <= 0 || m.Score > 1.0001 {
				t.Fatalf("Text(%q): score %v", q, m.Score)
			}
		}
		if len(queryClauses(q)) > maxQueryClauses {
			t.Fatalf("queryClauses(%q): more than the cap", q)
		}
	})
}
