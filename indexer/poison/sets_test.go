package poison

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// sample is one text of a test set.
type sample struct {
	name, category, text string
}

// readSet reads a txtar set of texts: a file per text, named
// "<n>-<category>" in the planted set; \uXXXX and \U000XXXXX in a text
// stand for the characters they name.
func readSet(t *testing.T, path string) []sample {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []sample
	for _, f := range a.Files {
		cat := ""
		if _, c, ok := strings.Cut(f.Name, "-"); ok {
			cat = c
		}
		out = append(out, sample{name: f.Name, category: cat, text: unescape(t, strings.TrimSuffix(string(f.Data), "\n"))})
	}
	return out
}

var escapes = regexp.MustCompile(`\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}`)

func unescape(t *testing.T, s string) string {
	return escapes.ReplaceAllStringFunc(s, func(e string) string {
		r, err := strconv.ParseInt(e[2:], 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		return string(rune(r))
	})
}

// TestPlanted: every planted injection is found, in its category: the
// planted set, and the held-out set written after the rules.
func TestPlanted(t *testing.T) {
	for _, set := range []struct {
		file string
		size int
	}{{"testdata/planted.txtar", 30}, {"testdata/heldout.txtar", 20}} {
		t.Run(set.file, func(t *testing.T) { testFound(t, set.file, set.size) })
	}
}

func testFound(t *testing.T, file string, size int) {
	set := readSet(t, file)
	if len(set) != size {
		t.Fatalf("%s has %d texts, want %d", file, len(set), size)
	}
	found := 0
	for _, s := range set {
		t.Run(s.name, func(t *testing.T) {
			ms := Scan(s.text)
			if len(ms) == 0 {
				t.Errorf("not found: %q", s.text)
				return
			}
			found++
			if !hasCategory(ms, s.category) {
				t.Errorf("found as %v, want %s: %q", categories(ms), s.category, s.text)
			}
		})
	}
	t.Logf("recall: %d of %d texts found", found, len(set))
}

// TestBenign: text about the same things, not addressed to an agent, is
// never flagged.
func TestBenign(t *testing.T) {
	for _, s := range readSet(t, "testdata/benign.txtar") {
		t.Run(s.name, func(t *testing.T) {
			for _, m := range Scan(s.text) {
				t.Errorf("flagged as %s (%s): %q in %q", m.Category, m.Why, s.text[m.Start:m.End], s.text)
			}
		})
	}
}

func hasCategory(ms []Match, c string) bool {
	for _, m := range ms {
		if m.Category == c {
			return true
		}
	}
	return false
}

func categories(ms []Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Category)
	}
	return out
}
