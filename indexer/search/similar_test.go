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
				if c := round4(dot(sim.vec(d), sim.vec(e))); c > 0 && c >= SimilarFloor {
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
		for _, m := range all[id] {
			if got, ok := sim.Score(id, m.ID); !ok || got != m.Score {
				t.Errorf("Score(%s, %s) = %v, %v; the list says %v", id, m.ID, got, ok, m.Score)
			}
		}
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

// builtAndReadBack is the model of docs as built, and as read back
// after WriteTo: both must answer alike.
func builtAndReadBack(t *testing.T, docs []Doc) map[string]*Similarity {
	t.Helper()
	sim := NewSimilarity(docs)
	var buf bytes.Buffer
	if _, err := sim.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSimilarity(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*Similarity{"built": sim, "read back": back}
}

// TestSimilarFlagged: an episode with flags (a fixture, nearly empty) is
// never offered, to an episode or to a text, but has its own similar
// episodes, also once the model is read back.
func TestSimilarFlagged(t *testing.T) {
	fixture := episode("fixture", "Retry the payout client with exponential backoff.")
	fixture.Flags = []string{"fixture"}
	empty := episode("empty", "Retry payout")
	empty.Flags = []string{"empty"}
	docs := []Doc{
		fixture, empty,
		episode("retry-1", "Add exponential backoff to the payout client. Retry with backoff."),
		episode("retry-2", "The payout client retries with exponential backoff after timeouts."),
		episode("ledger", "Fix the flaky ledger test."),
	}
	for name, s := range builtAndReadBack(t, docs) {
		all := s.All(5)
		for id, ms := range all {
			for _, m := range ms {
				if m.ID == "fixture" || m.ID == "empty" {
					t.Errorf("%s: %s offers the flagged %s", name, id, m.ID)
				}
			}
		}
		for _, id := range []string{"fixture", "empty"} {
			if got := matchIDs(all[id]); len(got) == 0 || got[0] != "retry-1" && got[0] != "retry-2" {
				t.Errorf("%s: similar to the flagged %s: %q, want a retry episode first", name, id, got)
			}
		}
		if got := matchIDs(s.Text("payout backoff retry", 5)); slices.Contains(got, "fixture") || slices.Contains(got, "empty") || len(got) != 2 {
			t.Errorf("%s: Text offers %q", name, got)
		}
	}
}

// TestSimilarTaskWeighs: a shared task counts above the same words shared
// in the rest of the record.
func TestSimilarTaskWeighs(t *testing.T) {
	task := func(id, task, rest string) Doc {
		d := episode(id, rest)
		d.Task = task
		return d
	}
	docs := []Doc{
		task("q", "Rotate the signing keys", "Ran the migration script; the ledger tests passed."),
		task("same-task", "Rotate the signing keys", "Paged the on-call; the dashboard stayed green."),
		task("same-rest", "Bump the linter", "Ran the migration script; the ledger tests passed."),
		task("other", "Write the release notes", "Nothing else."),
	}
	if got := matchIDs(NewSimilarity(docs).All(5)["q"]); len(got) < 2 || got[0] != "same-task" || got[1] != "same-rest" {
		t.Errorf("similar to q: %q, want same-task, then same-rest", got)
	}
}

// TestSimilarBadInput: episodes with no text, one word, only a commit
// SHA, only UUIDs and timestamps, or Chinese: no crash; one without terms
// is similar to nothing and never offered.
func TestSimilarBadInput(t *testing.T) {
	task := func(id, task, rest string) Doc {
		d := episode(id, rest)
		d.Task = task
		return d
	}
	docs := []Doc{
		task("nothing", "", ""),
		task("blank", " \n\t ", "\x00"),
		task("one-word", "Deploy", ""),
		task("deploy", "Deploy the auth service", "Deployed it."),
		task("sha", "e07f40f69", "Commit: 45576b6f9c0ffee1234567890abcdef12345678"),
		task("ids", "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "2026-07-16T00:00:00+00:00 2026-02-10T17:55:44.2369384-08:00 17:55:44 2026-07-16"),
		task("zh-1", "支付失败后自动重试", ""),
		task("zh-2", "支付失败，重试三次", ""),
		task("sha-2", "e07f40f69", ""), // the same SHA: still nothing alike
	}
	all := NewSimilarity(docs).All(5)
	for _, id := range []string{"nothing", "blank", "sha", "ids", "sha-2"} {
		if len(all[id]) != 0 {
			t.Errorf("%s has no terms but is similar to %v", id, all[id])
		}
	}
	for id, ms := range all {
		for _, m := range ms {
			if slices.Contains([]string{"nothing", "blank", "sha", "ids", "sha-2"}, m.ID) {
				t.Errorf("%s is offered %s, which has no terms", id, m.ID)
			}
		}
	}
	if got := matchIDs(all["one-word"]); !slices.Equal(got, []string{"deploy"}) {
		t.Errorf("similar to one-word: %q", got)
	}
	if got := matchIDs(all["zh-1"]); !slices.Equal(got, []string{"zh-2"}) {
		t.Errorf("similar to zh-1: %q", got)
	}
}

// TestSimilarFloor: an episode lists only the episodes that score at
// least SimilarFloor, so one with nothing close lists none, and each
// match carries the other episode's headline and outcome, also once the
// model is read back. A text has no floor.
func TestSimilarFloor(t *testing.T) {
	with := func(id, headline, outcome, text string) Doc {
		d := episode(id, text)
		d.Headline, d.Outcome = headline, outcome
		return d
	}
	lonely := "Payout quarterly tax filing, notarised affidavit, courier pickup, warehouse inventory recount, forklift licence renewal, canteen menu rotation, parking permit lottery"
	docs := []Doc{
		with("retry-1", "Add backoff to the payout client", "success", "Add exponential backoff to the payout client. The payout API timed out. Retry with backoff."),
		with("retry-2", "Retry the payout client", "partial", "Retry the payout client with exponential backoff after timeouts."),
		with("lonely", "File the quarterly tax", "failure", lonely),
	}
	for name, s := range builtAndReadBack(t, docs) {
		t.Run(name, func(t *testing.T) {
			all := s.All(5)
			if got := all["lonely"]; len(got) != 0 {
				t.Errorf("lonely lists %v, want none (below the floor)", got)
			}
			want := []Match{{ID: "retry-2", Score: all["retry-1"][0].Score, URL: "/episodes/retry-2/", Headline: "Retry the payout client", Outcome: "partial"}}
			if got := all["retry-1"]; !reflect.DeepEqual(got, want) || got[0].Score < SimilarFloor {
				t.Errorf("retry-1 lists %+v, want %+v", got, want)
			}
			if got, ok := s.Episode("lonely", 5); !ok || len(got) != 0 {
				t.Errorf("Episode(lonely) = %v, %v; want none", got, ok)
			}
			// The same words as a text: lonely itself, then the payout
			// episodes, under the floor.
			got := s.Text(lonely, 5)
			if len(got) != 3 || got[0].ID != "lonely" || got[1].Score >= SimilarFloor || got[1].Headline == "" || got[1].Outcome == "" {
				t.Errorf("Text(lonely) = %+v, want lonely, then the payout episodes under the floor, with headline and outcome", got)
			}
		})
	}
}

// TestSimilarTies: many episodes with the same score are listed by id,
// whatever order they come in.
func TestSimilarTies(t *testing.T) {
	var docs []Doc
	for i := range 12 {
		docs = append(docs, episode(fmt.Sprintf("EP-%02d", (i*7)%12), "Rotate the signing keys and redeploy the auth service."))
	}
	for _, order := range []string{"as given", "reversed"} {
		t.Run(order, func(t *testing.T) {
			in := slices.Clone(docs)
			if order == "reversed" {
				slices.Reverse(in)
			}
			all := NewSimilarity(in).All(5)
			for id, ms := range all {
				var want []string
				for i := range 12 {
					if other := fmt.Sprintf("EP-%02d", i); other != id && len(want) < 5 {
						want = append(want, other)
					}
				}
				if got := matchIDs(ms); !slices.Equal(got, want) {
					t.Errorf("%s: %q, want %q", id, got, want)
				}
				for _, m := range ms {
					if m.Score != ms[0].Score {
						t.Errorf("%s: scores differ: %v", id, ms)
					}
				}
			}
		})
	}
}
