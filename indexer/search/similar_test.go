package search

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func episode(id, text string) Doc {
	return Doc{ID: id, Type: "episode", URL: "/episodes/" + id + "/", Similar: text}
}

func matchIDs(ms []Match) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func TestSimilar(t *testing.T) {
	docs := []Doc{
		episode("retry-1", "Add exponential backoff to the payout client. The payout API timed out. Retry with backoff."),
		episode("retry-2", "Retry the payout client with exponential backoff after timeouts."),
		episode("ledger", "Fix the flaky ledger test. CloseDay read the wall clock; inject a clock."),
		episode("clock", "Inject the clock into the scheduler, as in the ledger."),
		episode("empty", ""),
		episode("stop", "the and of it"),
		episode("zh-1", "支付失败后自动重试"),
		episode("zh-2", "支付失败，重试三次"),
		episode("ar", "فشل الدفع بسبب انتهاء المهلة"),
		episode("ar-2", "فشل الدفع مرة أخرى"),
		episode("issue-1", "Deploy the auth service. Tracked as ISSUE-4711."),
		episode("issue-2", "Deploy the auth service. Tracked as ISSUE-4712."),
		{ID: "PATTERN-x", Type: "pattern", Similar: "Retry with backoff"}, // not an episode
	}
	sim := NewSimilarity(docs)
	all := sim.All(5)
	if len(all) != 12 {
		t.Fatalf("%d episodes, want 12", len(all))
	}
	tests := map[string][]string{
		"retry-1": {"retry-2"},
		"retry-2": {"retry-1"},
		"ledger":  {"clock"},
		"clock":   {"ledger"},
		"empty":   {},
		"stop":    {},
		"zh-1":    {"zh-2"},
		"ar":      {"ar-2"},
		"issue-1": {"issue-2"},
	}
	for id, want := range tests {
		if got := matchIDs(all[id]); !slices.Equal(got, want) {
			t.Errorf("similar to %s: %q, want %q", id, got, want)
		}
	}
	for id, ms := range all {
		for _, m := range ms {
			if m.ID == id || m.Score <= 0 || m.Score > 1 || m.URL == "" {
				t.Errorf("%s: bad match %+v", id, m)
			}
			if m.ID == "PATTERN-x" || m.ID == "empty" || m.ID == "stop" {
				t.Errorf("%s is similar to %s, which has no terms or is no episode", id, m.ID)
			}
		}
	}
	if a, b := all["retry-1"][0].Score, all["retry-2"][0].Score; a != b {
		t.Errorf("cosine is not symmetric: %v, %v", a, b)
	}
	// Terms of one episode (the issue numbers) make identical situations
	// less alike, not unlike.
	if got := all["issue-1"][0].Score; got < 0.7 || got >= 1 {
		t.Errorf("issue-1 ~ issue-2: %v, want in [0.7, 1)", got)
	}

	if got, ok := sim.Episode("ledger", 1); !ok || !reflect.DeepEqual(got, all["ledger"][:1]) {
		t.Errorf("Episode(ledger) = %v, %v", got, ok)
	}
	if _, ok := sim.Episode("nope", 5); ok {
		t.Error("Episode(nope): found")
	}
	for text, want := range map[string]string{
		"payout timed out, retrying": "retry-1",
		"支付失败后":                      "zh-1",
		"فشل الدفع بسبب":             "ar",
	} {
		if got := matchIDs(sim.Text(text, 5)); len(got) == 0 || got[0] != want {
			t.Errorf("Text(%q) = %q, want %s first", text, got, want)
		}
	}
	for _, text := range []string{"", "the of", `+-&|!(){}[]^"~*?:\/`, "unknownword"} {
		if got := sim.Text(text, 5); got == nil || len(got) != 0 {
			t.Errorf("Text(%q) = %v, want []", text, got)
		}
	}
	if got := sim.Text(strings.Repeat("payout backoff ", 10_000), 5); len(got) == 0 || got[0].ID != "retry-1" && got[0].ID != "retry-2" {
		t.Errorf("a 150 KB text: %v", got)
	}
}

func TestSimilarEmpty(t *testing.T) {
	sim := NewSimilarity(nil)
	if all := sim.All(5); len(all) != 0 {
		t.Errorf("All = %v", all)
	}
	if got := sim.Text("anything", 5); len(got) != 0 {
		t.Errorf("Text = %v", got)
	}
	var buf bytes.Buffer
	if _, err := sim.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSimilarity(&buf); err != nil {
		t.Fatal(err)
	}
}

// corpus makes n episodes from a small vocabulary, so that every word is
// in far more than SimilarWindow episodes, and plants near-duplicate
// pairs: the second of a pair repeats the first's words with one more.
func corpus(n int, seed uint64) (docs []Doc, twins map[string]string) {
	words := strings.Fields("parser cache build index graph search site deploy auth config migration test renderer scheduler importer exporter linter flaky slow nil pointer race stale missing wrong date broken link timeout memory spike duplicate title merge fix add refactor speed document migrate debug harden simplify split measure retry")
	r := rand.New(rand.NewPCG(seed, 7))
	twins = map[string]string{}
	for i := range n {
		var b strings.Builder
		for range 25 + r.IntN(20) {
			b.WriteString(words[r.IntN(len(words))] + " ")
		}
		id := fmt.Sprintf("EPISODE-%05d", i)
		docs = append(docs, episode(id, b.String()))
		if i%50 == 7 {
			twin := fmt.Sprintf("EPISODE-%05d-twin", i)
			docs = append(docs, episode(twin, b.String()+" "+words[r.IntN(len(words))]))
			twins[id], twins[twin] = twin, id
		}
	}
	return docs, twins
}

// TestSimilarNearDuplicates: with every word common, near-duplicates are
// still each other's most similar.
func TestSimilarNearDuplicates(t *testing.T) {
	docs, twins := corpus(2000, 1)
	all := NewSimilarity(docs).All(3)
	for id, twin := range twins {
		if got := matchIDs(all[id]); !slices.Contains(got, twin) {
			t.Errorf("%s: %q, want its twin %s among them", id, got, twin)
		}
	}
}

// TestSimilarDeterministic: the input order does not matter, and a model
// read back answers as the one written.
func TestSimilarDeterministic(t *testing.T) {
	docs, _ := corpus(300, 2)
	want := NewSimilarity(docs).All(5)
	shuffled := slices.Clone(docs)
	rand.New(rand.NewPCG(3, 3)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	sim := NewSimilarity(shuffled)
	if got := sim.All(5); !reflect.DeepEqual(got, want) {
		t.Error("shuffled input: different similar episodes")
	}
	var buf bytes.Buffer
	if _, err := sim.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSimilarity(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.All(5); !reflect.DeepEqual(got, want) {
		t.Error("read back: different similar episodes")
	}
	for id, ms := range want {
		for i := 1; i < len(ms); i++ {
			if ms[i-1].Score < ms[i].Score || ms[i-1].Score == ms[i].Score && ms[i-1].ID > ms[i].ID {
				t.Errorf("%s: %v out of order", id, ms)
			}
		}
	}
	if _, err := ReadSimilarity(strings.NewReader("not gob")); err == nil {
		t.Error("ReadSimilarity of garbage: no error")
	}
}

// TestSimilarExactOnSmallCorpora: when no term is capped, the result is
// the exact top k of every pair's cosine.
func TestSimilarExactOnSmallCorpora(t *testing.T) {
	docs, _ := corpus(40, 4)
	sim := NewSimilarity(docs)
	all := sim.All(5)
	for d, id := range sim.IDs {
		var want []Match
		for e, other := range sim.IDs {
			if e != d {
				if c := round4(dot(sim.vec(d), sim.vec(e))); c > 0 {
					want = append(want, Match{ID: other, Score: c, URL: sim.URLs[e]})
				}
			}
		}
		slices.SortFunc(want, func(a, b Match) int {
			if a.Score != b.Score {
				if a.Score > b.Score {
					return -1
				}
				return 1
			}
			return strings.Compare(a.ID, b.ID)
		})
		if !reflect.DeepEqual(all[id], want[:min(5, len(want))]) {
			t.Errorf("%s: %v, want %v", id, all[id], want[:5])
		}
	}
}

func BenchmarkSimilarity10k(b *testing.B) {
	docs, _ := corpus(10_000, 5)
	for b.Loop() {
		NewSimilarity(docs).All(5)
	}
}
