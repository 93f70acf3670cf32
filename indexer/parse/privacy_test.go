package parse

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

// privacyCase is one note and whether it must be withheld; rule and line
// name the diagnostic that must say why ("" for none).
type privacyCase struct {
	name    string
	src     string
	private bool
	rule    string
	line    int
}

// checkPrivacy parses each case: a withheld note is private and has the
// diagnostic; a published one is not private and has no privacy
// diagnostic.
func checkPrivacy(t *testing.T, cases []privacyCase) {
	t.Helper()
	p := New(Roots{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, diags, err := p.Parse("notes/"+c.name+".md", []byte(c.src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if n.Private != c.private {
				t.Errorf("private = %t, want %t; diagnostics %v", n.Private, c.private, diags)
			}
			var found bool
			for _, d := range diags {
				privacy := strings.HasPrefix(d.Rule, "private-")
				if privacy && !c.private {
					t.Errorf("a published note has the privacy diagnostic %v", d)
				}
				if d.Rule == c.rule && d.Line == c.line && strings.Contains(d.Message, "withheld") {
					found = true
				}
			}
			if c.rule != "" && !found {
				t.Errorf("no %s diagnostic on line %d saying the note is withheld: %v", c.rule, c.line, diags)
			}
		})
	}
}

func TestPrivacyBrokenYAML(t *testing.T) {
	checkPrivacy(t, []privacyCase{
		{"good", lines("---", "title: ok", "tags: [a, b]", "private: false", "---", keptText), false, "", 0},
		{"bad", lines("---", "title: ok", "tags: [a, b", "private: true", "---", keptText), true, "private-unreadable", 3},
		{"bad-no-private-key", lines("---", "title: ok", "bad: a: b", "---", keptText), true, "private-unreadable", 3},
		{"bad-shape", lines("---", "- private", "- true", "---", keptText), true, "private-unreadable", 2},
	})
}

func TestPrivacyBrokenTOML(t *testing.T) {
	checkPrivacy(t, []privacyCase{
		{"good", lines("+++", `title = "ok"`, "private = false", "+++", keptText), false, "", 0},
		{"bad", lines("+++", `title = "ok`, "private = true", "+++", keptText), true, "private-unreadable", 2},
		{"bad-duplicate", lines("+++", "private = false", "private = true", "+++", keptText), true, "private-unreadable", 3},
	})
}

func TestPrivacyUnclosed(t *testing.T) {
	checkPrivacy(t, []privacyCase{
		{"good", lines("---", "private: false", "---", keptText), false, "", 0},
		{"bad-yaml", lines("---", "private: true", keptText), true, "private-unreadable", 1},
		{"bad-toml", lines("+++", "private = true", keptText), true, "private-unreadable", 1},
	})
}

func TestPrivacyFrontMatterTooLarge(t *testing.T) {
	pad := "padding: " + strings.Repeat("x", MaxFrontMatterBytes) // one line over the cap
	checkPrivacy(t, []privacyCase{
		{"good", lines("---", "padding: "+strings.Repeat("x", MaxFrontMatterBytes-100), "---", keptText), false, "", 0},
		{"bad", lines("---", "private: true", pad, "---", keptText), true, "private-unreadable", 1},
	})
}

func TestPrivacyTooDeep(t *testing.T) {
	nest := func(depth int) string {
		return "x: " + strings.Repeat("[", depth-1) + "1" + strings.Repeat("]", depth-1)
	}
	checkPrivacy(t, []privacyCase{
		{"good", lines("---", nest(MaxDepth), "---", keptText), false, "", 0},
		{"bad-depth", lines("---", "private: true", nest(MaxDepth+1), "---", keptText), true, "private-unreadable", 2},
		{"bad-alias", lines("---", "yes: &t true", "private: *t", "---", keptText), true, "private-unreadable", 3},
	})
}

func TestPrivacyKeyCase(t *testing.T) {
	checkPrivacy(t, []privacyCase{
		{"good-true", lines("---", "private: true", "---", keptText), true, "", 0},
		{"good-false", lines("---", "private: false", "---", keptText), false, "", 0},
		{"bad-title-case", lines("---", "title: x", "Private: true", "---", keptText), true, "private-key", 3},
		{"bad-upper-case", lines("---", "PRIVATE: true", "---", keptText), true, "private-key", 2},
		{"bad-mixed-false", lines("---", "pRiVaTe: false", "---", keptText), true, "private-key", 2},
		{"bad-toml", lines("+++", "Private = true", "+++", keptText), true, "private-key", 2},
		{"bad-twice", lines("---", "private: false", "private: true", "---", keptText), true, "private-key", 2},
	})
}

func TestPrivacyKeyMisspelt(t *testing.T) {
	var cases []privacyCase
	for _, k := range []string{"privte", "privat", "pirvate", "prvate", "privatee", "privaet", "privacy", "is_private", "prіvate" /* Cyrillic і */, `" private"`} {
		cases = append(cases, privacyCase{"bad-" + k, lines("---", "title: x", k+": true", "---", keptText), true, "private-key", 3})
	}
	for _, k := range []string{"title", "priority", "primary", "print", "pattern", "state", "provider"} {
		cases = append(cases, privacyCase{"good-" + k, lines("---", k+": true", "---", keptText), false, "", 0})
	}
	checkPrivacy(t, cases)
}

func TestPrivacyValue(t *testing.T) {
	var cases []privacyCase
	for v, private := range map[string]bool{"true": true, "yes": true, "True": true, `"TRUE"`: true, "on": true, "1": true,
		"false": false, "no": false, "False": false, `"off"`: false, "0": false} {
		cases = append(cases, privacyCase{"good-" + v, lines("---", "private: "+v, "---", keptText), private, "", 0})
	}
	for _, v := range []string{"maybe", "", "~", "null", "2", "0.5", "[true]", "{a: b}", `"tru"`} {
		cases = append(cases, privacyCase{"bad-" + v, lines("---", "title: x", "private: "+v, "---", keptText), true, "private-value", 3})
	}
	checkPrivacy(t, cases)
}

// TestPrivacyLeadingBlank: blank lines before the opening --- do not turn
// front matter into text; line numbers stay those of the file.
func TestPrivacyLeadingBlank(t *testing.T) {
	checkPrivacy(t, []privacyCase{
		{"good", lines("", "---", "title: x", "private: false", "---", keptText), false, "", 0},
		{"bad", lines("", "---", "private: true", "---", keptText), true, "", 0},
		{"bad-whitespace", " \t\r\n\r\n---\r\nprivate: true\r\n---\r\n" + keptText, true, "", 0},
		{"bad-toml", lines("", "", "+++", "private = true", "+++", keptText), true, "", 0},
		{"bad-broken", lines("", "---", "private: true", "tags: [", "---", keptText), true, "private-unreadable", 5},
	})
	n, diags, _ := New(Roots{}).Parse("notes/blank.md", []byte(lines("", "", "---", "title: Blank", "tags: [a, [b]]", "---", keptText)))
	if n.Title != "Blank" || !hasSection(n, "Context", "Body kept.") || strings.Contains(n.Sections[0].Markdown, "title") {
		t.Errorf("front matter after blank lines not read: %+v", n)
	}
	checkDiags(t, "notes/blank.md", diags, []wantDiag{{3, 1, note.Warning, "frontmatter-leading-blank"}, {5, 1, note.Warning, "frontmatter-type"}})
}

// TestNumbersKeepSourceText: a number in a string field is the text the
// author wrote (0777, 1.10), in YAML and, where written on one line, TOML.
func TestNumbersKeepSourceText(t *testing.T) {
	p := New(Roots{})
	for _, tc := range []struct {
		name, src string
	}{
		{"yaml", lines("---", "type: episode", "title: 0777", "outcome: success", "task: 1.10", "session: 0x1F",
			"tags: [0777, 1.10, x, 1e3, true]", "concepts: 2.50", "metrics:", "  tool_calls: 0777", "---")},
		{"toml", lines("+++", `type = "episode"`, "title = 0o777", `outcome = "success"`, "task = 1.10  # a version", "session = 0x1F",
			`tags = [0o777, 1.10, 1e3, true, ]`, "concepts = 2.50", "[metrics]", "tool_calls = 0o777", "+++")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, diags, err := p.Parse("episodes/n.md", []byte(tc.src))
			if err != nil || note.CountErrors(diags) > 0 {
				t.Fatalf("Parse: %v %v", err, diags)
			}
			title := map[string]string{"yaml": "0777", "toml": "0o777"}[tc.name]
			if n.Title != title || n.Episode.Task != "1.10" || n.Episode.Session != "0x1F" {
				t.Errorf("title %q, task %q, session %q: want %q, 1.10, 0x1F", n.Title, n.Episode.Task, n.Episode.Session, title)
			}
			tags := map[string][]string{"yaml": {"0777", "1.10", "x", "1e3", "true"}, "toml": {"0o777", "1.10", "1e3", "true"}}[tc.name]
			if !reflect.DeepEqual(n.Tags, tags) || !reflect.DeepEqual(n.Episode.Concepts, []string{"2.50"}) {
				t.Errorf("tags %q, concepts %q: want %q and [2.50]", n.Tags, n.Episode.Concepts, tags)
			}
			if got := n.Episode.Metrics["tool_calls"]; got != 511 {
				t.Errorf("a metric is a number: tool_calls = %v, want 511", got)
			}
		})
	}
}

// TestPrivacyMisplaced: a line that reads as front matter saying the note
// is private, below the top ("Title", "---", "private: true", "---":
// markdown's two headings), withholds the note; the same words in code,
// in prose or saying false do not.
func TestPrivacyMisplaced(t *testing.T) {
	checkPrivacy(t, []privacyCase{
		{"bad-after-title", lines("Title", "---", "private: true", "---", keptText), true, "private-misplaced", 3},
		{"bad-after-front-matter", lines("---", "title: x", "---", "", "---", "Private: yes", "---", keptText), true, "private-misplaced", 6},
		{"bad-json", lines("Notes", "", `  "private": true,`, keptText), true, "private-misplaced", 3},
		{"bad-toml", lines("Notes", "", "+++", "privte = 1", "+++", keptText), true, "private-misplaced", 4},
		{"bad-in-comment", lines("Notes", "", "<!--", "private: on", "-->", keptText), true, "private-misplaced", 4},
		{"bad-heading", lines("## private: true", keptText), true, "private-misplaced", 1},
		{"good-prose", lines("Private: notes about the launch", keptText), false, "", 0},
		{"good-sentence", lines("Set private: true in the front matter to hide a note.", keptText), false, "", 0},
		{"good-false", lines("Title", "---", "private: false", "---", keptText), false, "", 0},
		{"good-code", lines("```yaml", "private: true", "```", keptText), false, "", 0},
		{"good-indented-code", lines("Text", "", "    private: true", keptText), false, "", 0},
		{"good-front-matter", lines("---", "private: false", "---", "private: false", keptText), false, "", 0},
	})
}

// TestWholeNumbersExact: a whole number a float64 cannot hold exactly
// (over 2^53) is never published changed: in a number field (metrics,
// duration_minutes) it is reported and left out, in a text field or an
// extra key it is kept exactly.
func TestWholeNumbersExact(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"yaml", lines("---", "title: 9007199254740993", "type: episode", "outcome: success", "task: t", "duration_minutes: 9007199254740993",
			"metrics:", "  exact: 9007199254740992", "  big: 9007199254740993", "  huge: 99999999999999999999", `  text: "-9007199254740995"`,
			"big: 9007199254740993", "huge: 99999999999999999999", "---")},
		{"json", lines(`{"title": 9007199254740993, "type": "episode", "outcome": "success", "task": "t", "duration_minutes": 9007199254740993,`,
			`"metrics": {"exact": 9007199254740992, "big": 9007199254740993, "huge": 99999999999999999999, "text": "-9007199254740995"},`,
			`"big": 9007199254740993, "huge": 99999999999999999999}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, diags, err := New(Roots{}).Parse("notes/n.md", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			precision := 0
			for _, d := range diags {
				if d.Rule != "frontmatter-number-precision" || d.Severity != note.Warning {
					t.Errorf("unexpected diagnostic %v", d)
				}
				precision++
			}
			if precision != 4 {
				t.Errorf("%d precision warnings, want 4 (duration_minutes and three metrics): %v", precision, diags)
			}
			if e := n.Episode; e.DurationMinutes != nil || !reflect.DeepEqual(e.Metrics, map[string]float64{"exact": 1 << 53}) {
				t.Errorf("duration %v, metrics %v: want none, and exact 2^53 alone", e.DurationMinutes, e.Metrics)
			}
			if n.Title != "9007199254740993" || n.Extra["big"] != int64(9007199254740993) || n.Extra["huge"] != "99999999999999999999" {
				t.Errorf("title %q, extra %#v: want the numbers as written", n.Title, n.Extra)
			}
		})
	}
}

// TestMayBePrivacyLineKeepsEveryMatch holds the prefilter to never drop
// a line that the regular expression reads as a privacy key set to true:
// the lines of the misplaced-privacy cases, and random lines over the
// characters the pattern treats specially.
func TestMayBePrivacyLineKeepsEveryMatch(t *testing.T) {
	says := func(line string) bool {
		m := privacyLineRE.FindStringSubmatch(line)
		if m == nil {
			return false
		}
		private, clear := PrivateValue(m[2])
		return private && clear
	}
	lines := []string{"private: true", "  Private = YES ,", `"privte": 1,`, "private: 'on'  ", `private = "y"`,
		"private: true.", "Result: done", "private: false", "private:maybe", "a = b"}
	alphabet := []byte("prive:= \t\"',tyesonY1.x")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		b := make([]byte, rng.IntN(16))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		lines = append(lines, "private"+string(b), string(b))
	}
	matched := 0
	for _, line := range lines {
		if says(line) {
			matched++
			if !mayBePrivacyLine([]byte(line)) {
				t.Fatalf("the prefilter drops %q, which says private", line)
			}
		}
	}
	if matched < 100 {
		t.Fatalf("only %d lines say private: the random lines do not exercise the prefilter", matched)
	}
}
