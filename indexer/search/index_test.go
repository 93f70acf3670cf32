package search

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var day = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// testDocs are a small memory: episodes, patterns, notes, non-Latin
// notes and notes without text.
func testDocs() []Doc {
	return []Doc{
		{ID: "EPISODE-2026-03-01-session-01", Type: "episode", Title: "EPISODE-2026-03-01-session-01",
			Task: "Add exponential backoff to the payout client", Body: "The payout API timed out under load.",
			Lessons: "Run the ledger tests before committing", Outcome: "success", URL: "/episodes/one/", Tags: []string{"Retries"}, Date: day},
		{ID: "EPISODE-2026-03-02-session-02", Type: "episode", Title: "EPISODE-2026-03-02-session-02",
			Task: "Fix the flaky ledger test", Body: "CloseDay read time.Now; we injected a clock instead.",
			Lessons: "Inject the clock", Outcome: "failure", URL: "/episodes/two/", Date: day.Add(24 * time.Hour)},
		{ID: "PATTERN-ledger-first", Type: "pattern", Title: "PATTERN-ledger-first", Task: "when money moves. check the ledger first",
			URL: "/patterns/ledger-first/", Date: day},
		{ID: "ANTIPATTERN-skip-tests", Type: "antipattern", Title: "ANTIPATTERN-skip-tests", Task: "when a deadline looms. skip the tests",
			URL: "/patterns/skip-tests/", Date: day},
		{ID: "payments", Type: "concept", Title: "Payments", Body: "Every payout goes through the ledger.", URL: "/notes/payments/", Date: day},
		{ID: "zh-note", Type: "note", Title: "支付说明", Body: "支付失败后自动重试三次。", URL: "/notes/zh/", Date: day},
		{ID: "zh-other", Type: "note", Title: "日志", Body: "失去连接时记录日志。", URL: "/notes/zh-other/", Date: day},
		{ID: "ar-note", Type: "note", Title: "ملاحظة", Body: "فشل الدفع بسبب انتهاء المهلة", URL: "/notes/ar/", Date: day},
		{ID: "empty", Type: "note", URL: "/notes/empty/"},
		{ID: "stop-words-only", Type: "note", Title: "The", Body: "and of the", URL: "/notes/stop/"},
	}
}

func buildTest(t *testing.T, docs []Doc) *Index {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "search")
	if err := Build(dir, docs); err != nil {
		t.Fatal(err)
	}
	idx, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return idx
}

func ids(hits []Hit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.ID)
	}
	return out
}

func TestSearch(t *testing.T) {
	idx := buildTest(t, testDocs())
	tests := []struct {
		name, q, typ string
		want         []string // the hits, in order; nil: none
	}{
		{"a word in a task", "backoff", "", []string{"EPISODE-2026-03-01-session-01"}},
		{"stemmed", "payouts of clients", "", []string{"EPISODE-2026-03-01-session-01", "payments"}},
		{"title before body", "payments", "", []string{"payments"}},
		{"in title and task first", "ledger", "", []string{"PATTERN-ledger-first", "EPISODE-2026-03-02-session-02", "payments", "EPISODE-2026-03-01-session-01"}},
		{"by type", "ledger", "episode", []string{"EPISODE-2026-03-02-session-02", "EPISODE-2026-03-01-session-01"}},
		{"antipatterns are patterns", "tests", "pattern", []string{"ANTIPATTERN-skip-tests"}},
		{"concepts are notes", "ledger", "note", []string{"payments"}},
		{"case", "BACKOFF", "", []string{"EPISODE-2026-03-01-session-01"}},
		{"a dotted word", "time.Now", "", []string{"EPISODE-2026-03-02-session-02"}},
		{"no match", "kubernetes", "", nil},
		// Bad input.
		{"empty", "", "", nil},
		{"blank", " \t\n", "", nil},
		{"stop words only", "the and of", "", nil},
		{"punctuation only", `+-&|!(){}[]^"~*?:\/`, "", nil},
		{"query syntax around a word", `+backoff~2 -"payout*" (client)^5 !x && y || z`, "", []string{"EPISODE-2026-03-01-session-01", "payments"}},
		{"a field name is a word", "title:payments", "", nil},
		{"regex", `^payout.*client$ [a-z]+ \d{3} (?i)`, "", []string{"EPISODE-2026-03-01-session-01", "payments"}},
		{"wildcards are not wildcards", "back*", "", nil},
		// Non-Latin text.
		{"Chinese", "支付失败", "", []string{"zh-note"}},
		{"Chinese, two characters", "失败", "", []string{"zh-note"}},
		{"Chinese needs every character of a run", "支付成功", "", nil},
		{"one Chinese character", "失", "", []string{"zh-other", "zh-note"}},
		{"Chinese and English", "支付成功 payout", "", []string{"EPISODE-2026-03-01-session-01", "payments"}},
		{"Arabic", "الدفع", "", []string{"ar-note"}},
		{"Arabic title", "ملاحظة", "", []string{"ar-note"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := idx.Search(tc.q, tc.typ, 10)
			if err != nil {
				t.Fatal(err)
			}
			if hits == nil {
				t.Error("hits are nil, want []")
			}
			if got := ids(hits); !slices.Equal(got, tc.want) && !(len(got) == 0 && tc.want == nil) {
				t.Errorf("Search(%q) = %q, want %q", tc.q, got, tc.want)
			}
			for _, h := range hits {
				if h.Type == "" || h.URL == "" || h.Score <= 0 {
					t.Errorf("hit %+v lacks its type, url or score", h)
				}
			}
		})
	}
}

// TestSearchBoosts: with fields of equal length and terms of equal
// rarity, a term counts most in the title, then the task, the lessons and
// the body; and a document with more of the query's words comes first.
func TestSearchBoosts(t *testing.T) {
	var docs []Doc
	fields := []string{"title", "task", "lessons", "body"}
	for i, where := range fields {
		filler := func(f string) string { return fmt.Sprintf("%s%d%s alpha%d%s", f, i, "x", i, f) }
		d := Doc{ID: fmt.Sprintf("doc-%d", 3-i), Type: "note", URL: "/", Title: filler("t"), Task: filler("k"), Lessons: filler("l"), Body: filler("b")}
		switch where {
		case "title":
			d.Title += " zeta"
		case "task":
			d.Task += " zeta"
		case "lessons":
			d.Lessons += " zeta"
		case "body":
			d.Body += " zeta"
		}
		docs = append(docs, d)
	}
	docs = append(docs,
		Doc{ID: "both", Type: "note", URL: "/", Body: "omega psi filler"},
		Doc{ID: "one", Type: "note", URL: "/", Body: "omega rho filler"})
	idx := buildTest(t, docs)
	for q, want := range map[string][]string{
		"zeta":      {"doc-3", "doc-2", "doc-1", "doc-0"},
		"omega psi": {"both", "one"},
	} {
		hits, err := idx.Search(q, "", 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(hits); !slices.Equal(got, want) {
			t.Errorf("Search(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestSearchHitFields(t *testing.T) {
	idx := buildTest(t, testDocs())
	hits, err := idx.Search("skip", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := Hit{ID: "ANTIPATTERN-skip-tests", Type: "antipattern", URL: "/patterns/skip-tests/"}
	if len(hits) != 1 || hits[0].ID != want.ID || hits[0].Type != want.Type || hits[0].URL != want.URL {
		t.Errorf("hits = %+v, want %+v", hits, want)
	}
}

func TestSearchLimitAndType(t *testing.T) {
	idx := buildTest(t, testDocs())
	if hits, err := idx.Search("ledger", "", 2); err != nil || len(hits) != 2 {
		t.Errorf("limit 2: %v, %v", hits, err)
	}
	if hits, err := idx.Search("ledger", "", 0); err != nil || len(hits) != 0 {
		t.Errorf("limit 0: %v, %v", hits, err)
	}
	if _, err := idx.Search("ledger", "episodes", 2); err == nil {
		t.Error("unknown type: no error")
	}
}

// TestSearchLongQuery: 10 KB queries are read up to MaxQueryBytes and
// maxQueryClauses, and answer.
func TestSearchLongQuery(t *testing.T) {
	idx := buildTest(t, testDocs())
	repeated := strings.Repeat("backoff payout ", 700)
	var distinct strings.Builder
	for i := 0; distinct.Len() < 10_000; i++ {
		fmt.Fprintf(&distinct, "word%d ", i)
	}
	for name, q := range map[string]string{
		"repeated":              repeated,
		"distinct, then a word": distinct.String() + " backoff",
		"a word, then distinct": "backoff " + distinct.String(),
		"one long word":         strings.Repeat("x", 10_000),
		"Chinese":               strings.Repeat("支付失败", 900),
	} {
		t.Run(name, func(t *testing.T) {
			if len(q) < 10_000 {
				t.Fatalf("query of %d bytes", len(q))
			}
			hits, err := idx.Search(q, "", 10)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"repeated": "EPISODE-2026-03-01-session-01", "a word, then distinct": "EPISODE-2026-03-01-session-01", "Chinese": "zh-note"}[name]
			if got := ids(hits); want != "" && (len(got) == 0 || got[0] != want) || want == "" && len(got) > 0 {
				t.Errorf("hits %q, want %q first", got, want)
			}
		})
	}
	if n := len(queryClauses(distinct.String())); n != maxQueryClauses {
		t.Errorf("%d clauses, want the cap %d", n, maxQueryClauses)
	}
	if c := capText(strings.Repeat("é", 3000), maxQueryBytes); len(c) > maxQueryBytes || !strings.HasSuffix(c, "é") {
		t.Errorf("capText cut inside a character: %d bytes", len(c))
	}
}

func TestClauses(t *testing.T) {
	tests := map[string][][]string{
		"":                        nil,
		"the of":                  nil,
		"Tests test testing":      {{"test"}},
		"支付失败 payout 支付失败":        {{"支", "付", "失", "败"}, {"payout"}},
		"支付 失败":                   {{"支", "付"}, {"失", "败"}},
		"付付":                      {{"付"}},
		"ledger's CloseDay":       {{"ledger"}, {"closedai"}},
		`"quoted" (grouped) +req`: {{"quot"}, {"group"}, {"req"}},
	}
	for q, want := range tests {
		if got := queryClauses(q); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("queryClauses(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestSearchTies: equal scores are ordered by id, whatever the order of
// indexing.
func TestSearchTies(t *testing.T) {
	var docs []Doc
	for _, id := range []string{"c", "a", "d", "b"} {
		docs = append(docs, Doc{ID: id, Type: "note", Body: "same words here", URL: "/" + id})
	}
	idx := buildTest(t, docs)
	hits, err := idx.Search("words", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(hits); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("ties in order %q", got)
	}
}

func TestBuildEmpty(t *testing.T) {
	idx := buildTest(t, nil)
	if n, err := idx.Count(); err != nil || n != 0 {
		t.Errorf("count %d, %v", n, err)
	}
	if hits, err := idx.Search("anything", "", 10); err != nil || len(hits) != 0 {
		t.Errorf("hits %v, %v", hits, err)
	}
}

// TestBuildSwaps: a new build replaces the index; a failed build leaves
// it as it was; nothing is left beside it.
func TestBuildSwaps(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "search")
	docs := testDocs()
	if err := Build(dir, docs[:3]); err != nil {
		t.Fatal(err)
	}
	old, err := Open(dir) // a reader of the old index
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := Build(dir, docs); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		idx, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer idx.Close()
		n, err := idx.Count()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != len(docs) {
		t.Errorf("after the second build: %d documents, want %d", n, len(docs))
	}
	if hits, err := old.Search("backoff", "", 10); err != nil || len(hits) != 1 {
		t.Errorf("the old reader: %v, %v", hits, err)
	}
	dup := append(testDocs(), Doc{ID: "payments", Type: "note"})
	if err := Build(dir, dup); err == nil || !strings.Contains(err.Error(), "duplicate id") {
		t.Errorf("duplicate ids: %v", err)
	}
	if n := count(); n != len(docs) {
		t.Errorf("after a failed build: %d documents, want %d", n, len(docs))
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left beside the index: %q", names)
	}
}

// Count is the number of documents.
func (x *Index) Count() (int, error) {
	n, err := x.idx.DocCount()
	return int(n), err
}
