package gen

import "math/rand/v2"

// The word lists are small on purpose: notes share vocabulary the way real
// memory does (recurring lessons, common tags), and only the planted word of
// each note is unique. No entry may contain YAML or markdown syntax
// (":", "#", "[", "]", "|", quotes), so generated front matter needs no quoting.
var (
	subjects = []string{
		"parser", "cache", "build", "index", "graph", "search", "site",
		"deploy", "auth", "config", "migration", "test suite", "renderer",
		"scheduler", "importer", "exporter", "bootstrap", "linter",
	}
	verbs = []string{
		"fix", "add", "refactor", "speed up", "document", "migrate",
		"debug", "harden", "simplify", "split", "measure", "retry",
	}
	problems = []string{
		"a flaky test", "a slow query", "a nil pointer", "a race",
		"a stale cache", "a missing file", "a wrong date", "a broken link",
		"a timeout", "a memory spike", "a duplicate title", "a bad merge",
	}
	tagWords = []string{
		"go", "ci", "testing", "performance", "refactor", "docs", "bugfix",
		"infra", "search", "parser", "cache", "security", "release",
	}
	categories = []string{
		"fact", "insight", "problem", "solution", "technique", "requirement",
	}
	strengths  = []string{"", "", "#explicit", "#implied", "#inferred"}
	eventTypes = []string{"tool_call", "error", "milestone", "commit", "test", "handoff"}
	choices    = []string{
		"rewrite it", "patch it", "add a test", "revert", "add a flag",
		"cache the result", "split the file", "ask for review",
	}
	lessonTemplates = []string{
		"Run the %s tests before touching %s code",
		"Keep %s changes small so %s stays reviewable",
		"Measure the %s before optimising the %s",
		"Write down why the %s depends on the %s",
	}
	nameWords = []string{
		"retry", "cache", "pin", "split", "batch", "guard", "probe", "warm",
		"fence", "trace", "shard", "stage", "snapshot", "rollback",
	}
)

// pick returns a random element of list.
func pick[T any](r *rand.Rand, list []T) T {
	return list[r.IntN(len(list))]
}

// pickN returns n distinct elements of list (n <= len(list)) in list order,
// so that the result does not depend on map order or on retries.
func pickN(r *rand.Rand, list []string, n int) []string {
	chosen := make([]bool, len(list))
	for k := 0; k < n; {
		i := r.IntN(len(list))
		if !chosen[i] {
			chosen[i] = true
			k++
		}
	}
	out := make([]string, 0, n)
	for i, ok := range chosen {
		if ok {
			out = append(out, list[i])
		}
	}
	return out
}

// wordAlphabet has no vowels and none of the letters English stemmers strip
// (s, e, y, d, g, l), so a planted word survives analysis unchanged and two
// planted words never stem to the same token.
const wordAlphabet = "bcfhjkmnpqrtvwxz"

// uniqueWord returns the planted word of the n-th note: "zq" and at least
// five letters of n in base 16. Distinct n give distinct words.
func uniqueWord(n int) string {
	var digits []byte
	for k := 0; k < 5 || n > 0; k++ {
		digits = append(digits, wordAlphabet[n%16])
		n /= 16
	}
	out := []byte("zq")
	for i := len(digits) - 1; i >= 0; i-- {
		out = append(out, digits[i])
	}
	return string(out)
}

// lessonFamilies are planted lessons: each family's wordings are
// paraphrases (the same words once stemmed and stop words dropped), in a
// vocabulary that the template lessons never use; "rotate" and
// "rotate-not" differ only by a negation, and must not merge.
var lessonFamilies = []struct {
	name     string
	wordings []string
}{
	{"pin-digests", []string{
		"Pin the base image digest in every Dockerfile.",
		"Pinning base image digests in Dockerfiles",
		"pin the base-image DIGEST in the dockerfile!",
	}},
	{"rotate", []string{
		"Rotate the signing keys every quarter.",
		"Rotating signing keys each quarter",
		"rotate the signing key every quarter",
	}},
	{"rotate-not", []string{
		"Do not rotate the signing keys every quarter.",
		"Don't rotate signing keys each quarter",
	}},
	{"webhook-replay", []string{
		"Replay webhooks from the dead letter queue after an outage.",
		"Replaying webhooks from dead-letter queues after outages",
	}},
}
