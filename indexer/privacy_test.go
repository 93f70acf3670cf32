package indexer_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/source"
)

// privacyNote is a note of TestBuildPrivacyFailsClosed. Its body holds a
// word no other note has, so that its text can be looked for in every
// output file.
type privacyNote struct {
	path, src string
	// rule names the diagnostic that says why the note is withheld; ""
	// for a note that must be published.
	rule string
}

func (p privacyNote) word() string {
	return "zq" + strings.NewReplacer("/", "", ".", "", "-", "", "_", "").Replace(p.path) + "zq"
}

// md is a markdown note with the given front matter lines, "" for none.
func md(fm ...string) func(word string) string {
	return func(word string) string {
		return strings.Join(fm, "\n") + "\n\n## Context\n\nThe secret word is " + word + ".\n"
	}
}

// aiEpisode is an ai-agents episode file with extra top-level keys.
func aiEpisode(id, extra string) func(word string) string {
	return func(word string) string {
		return `{"id": "` + id + `", "session": "s", "timestamp": "2026-03-01T10:00:00Z", "outcome": "success", ` + extra +
			`"task": "The secret word is ` + word + `", "decisions": [], "events": [], "metrics": {}, "lessons": ["` + word + `"]}`
	}
}

// privacyCases are, per fail-open case, a note that must be published
// beside one that must be withheld.
var privacyCases = []struct {
	name string
	good func(string) string
	bad  func(string) string
	rule string
}{
	{"broken-yaml", md("---", "title: Good YAML", "tags: [a, b]", "---"), md("---", "title: Bad YAML", "tags: [a, b", "private: true", "---"), "private-unreadable"},
	{"broken-toml", md("+++", `title = "Good TOML"`, "+++"), md("+++", `title = "Bad TOML`, "private = true", "+++"), "private-unreadable"},
	{"unclosed", md("---", "title: Closed", "---"), md("---", "title: Unclosed", "private: true"), "private-unreadable"},
	{"too-large", md("---", "title: Small", "pad: "+strings.Repeat("x", 1000), "---"), md("---", "title: Large", "private: true", "pad: "+strings.Repeat("x", 70<<10), "---"), "private-unreadable"},
	{"note-too-large", md("---", "title: Normal size", "---"), func(word string) string {
		return md("---", "title: Huge", "private: true", "---")(word) + strings.Repeat("filler text\n", 100_000)
	}, "note-too-large"},
	{"too-deep", md("---", "title: Shallow", "x: [[[1]]]", "---"), md("---", "title: Deep", "private: true", "x: "+strings.Repeat("[", 40)+"1"+strings.Repeat("]", 40), "---"), "private-unreadable"},
	{"alias", md("---", "title: No alias", "---"), md("---", "title: Alias", "t: &t true", "private: *t", "---"), "private-unreadable"},
	{"key-case", md("---", "title: Lower case", "private: false", "---"), md("---", "title: Title case", "Private: true", "---"), "private-key"},
	{"key-upper", md("---", "title: Lower too", "private: false", "---"), md("---", "title: Upper case", "PRIVATE: true", "---"), "private-key"},
	{"key-misspelt", md("---", "title: Spelt", "private: false", "---"), md("---", "title: Misspelt", "privte: true", "---"), "private-key"},
	{"key-swapped", md("---", "title: Spelt too", "private: no", "---"), md("---", "title: Swapped", "pirvate: true", "---"), "private-key"},
	{"key-repeated", md("---", "title: Once", "private: false", "---"), md("---", "title: Twice", "private: false", "private: true", "---"), "private-key"},
	{"value", md("---", "title: Clear", "private: false", "---"), md("---", "title: Unclear", "private: maybe", "---"), "private-value"},
	{"leading-blank", md("", "---", "title: Blank before", "private: false", "---"), md("", " ", "---", "title: Blank before private", "private: true", "---"), ""},
	{"aiagents", aiEpisode("episode-good", `"private": false, `), aiEpisode("episode-bad", `"private": true, `), "private-json"},
	// The same id twice: the private copy is withheld and not named by
	// the public copy's diagnostics.
	{"aiagents-twin", aiEpisode("episode-twin", ``), aiEpisode("episode-twin", `"private": true, `), "private-json"},
	{"aiagents-key", aiEpisode("episode-good-key", ``), aiEpisode("episode-bad-key", `"Private": true, `), "private-key"},
}

// TestBuildPrivacyFailsClosed builds one repository holding, for each way
// privacy used to fail open, a note that must be published and one that
// must not (SPEC §6). The withheld note's secret word is in no output
// file and not in the query cache; the report says why it was withheld;
// the published one is on the site.
func TestBuildPrivacyFailsClosed(t *testing.T) {
	files := map[string][]byte{}
	type pair struct{ good, bad privacyNote }
	var pairs []pair
	for _, c := range privacyCases {
		ext, dir := ".md", "notes/"
		if strings.HasPrefix(c.name, "aiagents") {
			ext, dir = ".json", "episodes/episode-"
		}
		p := pair{privacyNote{path: dir + c.name + "-good" + ext}, privacyNote{path: dir + c.name + "-bad" + ext, rule: c.rule}}
		p.good.src, p.bad.src = c.good(p.good.word()), c.bad(p.bad.word())
		files[p.good.path], files[p.bad.path] = []byte(p.good.src), []byte(p.bad.src)
		pairs = append(pairs, p)
	}
	repo := t.TempDir()
	if err := source.WriteRepo(repo, []source.Commit{{When: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), Files: files}}); err != nil {
		t.Fatal(err)
	}
	out, cache := filepath.Join(t.TempDir(), "public"), t.TempDir()
	r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	output := tree(t, out)
	for p, data := range tree(t, cache) {
		output["cache:"+p] = data
	}
	for i, c := range privacyCases {
		t.Run(c.name, func(t *testing.T) {
			good, bad := pairs[i].good, pairs[i].bad
			if !published(output, good.word()) {
				t.Errorf("%s is not published", good.path)
			}
			for p, data := range output {
				if bytes.Contains(data, []byte(bad.word())) || bytes.Contains(data, []byte(bad.path)) {
					t.Errorf("%s leaks %s", p, bad.path)
				}
			}
			checkWithheld(t, r.Diagnostics, good, bad)
		})
	}
	if got, want := r.Counts["private"], len(privacyCases); got != want {
		t.Errorf("%d notes counted private, want %d", got, want)
	}
}

// published reports whether a note's word is on one of its pages.
func published(output map[string][]byte, word string) bool {
	for p, data := range output {
		if strings.HasSuffix(p, "index.html") && bytes.Contains(data, []byte(word)) {
			return true
		}
	}
	return false
}

// checkWithheld: the report says why the bad note was withheld, and says
// nothing of the kind of the good one.
func checkWithheld(t *testing.T, diags []note.Diagnostic, good, bad privacyNote) {
	t.Helper()
	found := bad.rule == ""
	for _, d := range diags {
		if d.Path == good.path && strings.HasPrefix(d.Rule, "private-") {
			t.Errorf("published note reported as withheld: %v", d)
		}
		if d.Path == bad.path && d.Rule == bad.rule && d.Line >= 1 && (strings.Contains(d.Message, "withheld") || strings.Contains(d.Message, "not published")) {
			found = true
		}
	}
	if !found {
		var of []string
		for _, d := range diags {
			if d.Path == bad.path {
				of = append(of, d.String())
			}
		}
		t.Errorf("no %s diagnostic saying %s is withheld; it has %s", bad.rule, bad.path, fmt.Sprint(of))
	}
}
