package parse

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/note"
)

// lines joins its arguments as the lines of a file, so that a test's line
// numbers can be counted off the source: the first argument is line 1.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// wantDiag is a diagnostic a test expects. col -1 accepts any column.
type wantDiag struct {
	line, col int
	sev       note.Severity
	rule      string
}

func (w wantDiag) String() string {
	return fmt.Sprintf("%d:%d: %s [%s]", w.line, w.col, w.sev, w.rule)
}

func (w wantDiag) matches(d note.Diagnostic) bool {
	return d.Rule == w.rule && d.Severity == w.sev && d.Line == w.line && (w.col < 0 || d.Col == w.col)
}

// checkDiags asserts that got holds exactly the wanted diagnostics, in any
// order, each naming path.
func checkDiags(t *testing.T, path string, got []note.Diagnostic, want []wantDiag) {
	t.Helper()
	used := make([]bool, len(got))
	for _, w := range want {
		found := false
		for i, d := range got {
			if !used[i] && w.matches(d) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("missing diagnostic %v", w)
		}
	}
	for i, d := range got {
		if !used[i] {
			t.Errorf("unexpected diagnostic %v", d)
		}
		if d.Path != path {
			t.Errorf("diagnostic %v names path %q, want %q", d, d.Path, path)
		}
	}
}

// hasSection reports whether a prose section of n holds text: the body was
// kept.
func hasSection(n note.Note, heading, text string) bool {
	for _, s := range n.Sections {
		if s.Heading == heading && strings.Contains(s.Markdown, text) {
			return true
		}
	}
	return false
}

// keptBody checks that the body every case ends with was kept.
func keptBody(t *testing.T, n note.Note) {
	t.Helper()
	if !hasSection(n, "Context", "Body kept.") {
		t.Errorf("body not kept: sections %+v", n.Sections)
	}
}

func wantTitle(want string) func(*testing.T, note.Note) {
	return func(t *testing.T, n note.Note) {
		t.Helper()
		if n.Title != want {
			t.Errorf("title = %q, want %q", n.Title, want)
		}
	}
}

// fromFileName checks the fallback for broken front matter: the note
// keeps its body and the file name as its title (and is withheld as
// private: see withWithheld).
func fromFileName(want string) func(*testing.T, note.Note) {
	return func(t *testing.T, n note.Note) {
		t.Helper()
		wantTitle(want)(t, n)
		keptBody(t, n)
	}
}

// unreadableRules are the front matter errors after which engram cannot
// tell whether the note says private: true.
var unreadableRules = map[string]bool{
	"frontmatter-unclosed": true, "frontmatter-too-large": true, "frontmatter-yaml": true,
	"frontmatter-toml": true, "frontmatter-depth": true, "frontmatter-alias": true,
	"frontmatter-shape": true, "frontmatter-key": true, "frontmatter-json": true,
}

// withWithheld adds to the wanted diagnostics of a note whose front
// matter cannot be read the warning that it is withheld as private, at
// the first such error, and reports whether it did.
func withWithheld(want []wantDiag) ([]wantDiag, bool) {
	for _, w := range want {
		if w.sev == note.Error && unreadableRules[w.rule] {
			return append(want[:len(want):len(want)], wantDiag{w.line, 1, note.Warning, "private-unreadable"}), true
		}
	}
	return want, false
}

type badCase struct {
	name  string
	path  string // default notes/<name>.md
	src   string
	err   error // nil: the note is published
	want  []wantDiag
	check func(*testing.T, note.Note)
}

func TestParseBadInput(t *testing.T) {
	var cases []badCase
	cases = append(cases, brokenFrontMatterCases()...)
	cases = append(cases, fieldCases()...)
	cases = append(cases, capCases()...)
	cases = append(cases, textCases()...)
	runBadCases(t, cases)
}

func runBadCases(t *testing.T, cases []badCase) {
	t.Helper()
	p := New(Roots{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := c.path
			if path == "" {
				path = "notes/" + c.name + ".md"
			}
			n, diags, err := p.Parse(path, []byte(c.src))
			if !errors.Is(err, c.err) {
				t.Fatalf("Parse error = %v, want %v", err, c.err)
			}
			if n.Path != path {
				t.Errorf("note path = %q, want %q", n.Path, path)
			}
			want, withheld := withWithheld(c.want)
			checkDiags(t, path, diags, want)
			if withheld && !n.Private {
				t.Error("a note whose front matter cannot be read is not withheld as private")
			}
			if c.check != nil {
				c.check(t, n)
			}
		})
	}
}

const keptText = "\n## Context\n\nBody kept."

func brokenFrontMatterCases() []badCase {
	return []badCase{
		{
			name:  "yaml-scanner-error",
			src:   lines("---", "title: ok", "task: fine", "bad: a: b", "x: 1", "---", keptText),
			want:  []wantDiag{{4, -1, note.Error, "frontmatter-yaml"}},
			check: fromFileName("yaml-scanner-error"),
		},
		{
			// yaml.v3 numbers parser errors from 0: the unclosed flow
			// sequence must still be reported on its own line.
			name:  "yaml-unclosed-flow",
			src:   lines("---", "title: ok", "tags: [a, b", "outcome: x", "---", keptText),
			want:  []wantDiag{{3, -1, note.Error, "frontmatter-yaml"}},
			check: fromFileName("yaml-unclosed-flow"),
		},
		{
			name:  "yaml-list-item-in-mapping",
			src:   lines("---", "title: ok", "task: fine", "- item", "---", keptText),
			want:  []wantDiag{{4, -1, note.Error, "frontmatter-yaml"}},
			check: fromFileName("yaml-list-item-in-mapping"),
		},
		{
			name:  "yaml-flow-at-end",
			src:   lines("---", "a: 1", "b: 2", "c: 3", "d: [1, 2", "---", keptText),
			want:  []wantDiag{{5, -1, note.Error, "frontmatter-yaml"}},
			check: fromFileName("yaml-flow-at-end"),
		},
		{
			// A scanner error whose message also starts "did not find
			// expected": its line is 1-based already.
			name:  "yaml-block-scalar-header",
			src:   lines("---", "a: 1", "b: 2", "c: |x", "---", keptText),
			want:  []wantDiag{{4, -1, note.Error, "frontmatter-yaml"}},
			check: fromFileName("yaml-block-scalar-header"),
		},
		{
			name:  "yaml-error-on-first-line",
			src:   lines("---", "bad: a: b", "---", keptText),
			want:  []wantDiag{{2, -1, note.Error, "frontmatter-yaml"}},
			check: fromFileName("yaml-error-on-first-line"),
		},
		{
			name:  "yaml-bad-character",
			src:   lines("---", "title: ok", "x: @at", "---", keptText),
			want:  []wantDiag{{3, -1, note.Error, "frontmatter-yaml"}},
			check: fromFileName("yaml-bad-character"),
		},
		{
			name: "unclosed",
			src:  lines("---", "title: Never closed", "type: episode", keptText),
			want: []wantDiag{{1, 1, note.Error, "frontmatter-unclosed"}},
			check: func(t *testing.T, n note.Note) {
				fromFileName("unclosed")(t, n)
				if n.Kind != note.KindNote {
					t.Errorf("kind = %q: the unclosed front matter must not be read", n.Kind)
				}
			},
		},
		{
			name:  "unclosed-toml",
			src:   lines("+++", `title = "x"`, keptText),
			want:  []wantDiag{{1, 1, note.Error, "frontmatter-unclosed"}},
			check: fromFileName("unclosed-toml"),
		},
		{
			name:  "list",
			src:   lines("---", "- a", "- b", "---", keptText),
			want:  []wantDiag{{2, 1, note.Error, "frontmatter-shape"}},
			check: fromFileName("list"),
		},
		{
			name:  "scalar",
			src:   lines("---", "just a string", "---", keptText),
			want:  []wantDiag{{2, 1, note.Error, "frontmatter-shape"}},
			check: fromFileName("scalar"),
		},
		{
			name:  "scalar-after-blank-line",
			src:   lines("---", "", "42", "---", keptText),
			want:  []wantDiag{{3, 1, note.Error, "frontmatter-shape"}},
			check: fromFileName("scalar-after-blank-line"),
		},
		{
			name:  "empty-front-matter",
			src:   lines("---", "---", keptText),
			want:  []wantDiag{{1, 1, note.Warning, "frontmatter-empty"}},
			check: fromFileName("empty-front-matter"),
		},
		{
			name:  "null-front-matter",
			src:   lines("---", "~", "---", keptText),
			want:  []wantDiag{{1, 1, note.Warning, "frontmatter-empty"}},
			check: fromFileName("null-front-matter"),
		},
		{
			name:  "yaml-list-as-key",
			src:   lines("---", "title: x", "[a, b]: c", "---", keptText),
			want:  []wantDiag{{3, 1, note.Error, "frontmatter-key"}},
			check: wantTitle("x"),
		},
		{
			name:  "toml-syntax-error",
			src:   lines("+++", `title = "a"`, "x = [1,", "+++", keptText),
			want:  []wantDiag{{3, -1, note.Error, "frontmatter-toml"}},
			check: fromFileName("toml-syntax-error"),
		},
		{
			name:  "toml-duplicate-key",
			src:   lines("+++", `title = "a"`, `title = "b"`, "+++", keptText),
			want:  []wantDiag{{3, -1, note.Error, "frontmatter-toml"}},
			check: fromFileName("toml-duplicate-key"),
		},
	}
}

func fieldCases() []badCase {
	ep := func(fm ...string) string {
		return lines(append(append([]string{"---"}, fm...), "---", keptText)...)
	}
	return []badCase{
		{
			name: "episode-without-outcome",
			path: "episodes/no-outcome.md",
			src:  ep("title: EPISODE-1", "type: episode", "task: t"),
			want: []wantDiag{{1, 1, note.Error, "missing-field"}},
			check: func(t *testing.T, n note.Note) {
				keptBody(t, n)
				if n.Episode == nil || n.Episode.Outcome != "" || n.Episode.Task != "t" {
					t.Errorf("episode = %+v", n.Episode)
				}
			},
		},
		{
			name:  "episode-without-task",
			path:  "episodes/no-task.md",
			src:   ep("title: EPISODE-1", "outcome: success"),
			want:  []wantDiag{{1, 1, note.Error, "missing-field"}},
			check: wantTitle("EPISODE-1"),
		},
		{
			name:  "episode-without-title",
			path:  "episodes/EPISODE-2026-08-04-session-09.md",
			src:   ep("outcome: success", "task: t"),
			want:  []wantDiag{{1, 1, note.Warning, "missing-field"}},
			check: fromFileName("EPISODE-2026-08-04-session-09"),
		},
		{
			name: "duplicate-keys",
			path: "episodes/dup.md",
			src: ep(
				"title: first",     // 2
				"outcome: success", // 3
				"task: t",          // 4
				"title: second",    // 5
				"metrics:",         // 6
				"  errors: 1",      // 7
				"  errors: 2",      // 8
			),
			want: []wantDiag{
				{5, 1, note.Error, "frontmatter-duplicate-key"},
				{8, 3, note.Error, "frontmatter-duplicate-key"},
			},
			check: func(t *testing.T, n note.Note) {
				wantTitle("first")(t, n)
				if n.Episode.Metrics["errors"] != 1 {
					t.Errorf("metrics = %v, want the first value kept", n.Episode.Metrics)
				}
			},
		},
		{
			name: "invalid-dates",
			src:  ep("title: x", "date: 2026-02-30", "due: last tuesday"),
			want: []wantDiag{
				{3, 1, note.Error, "frontmatter-date"},
				{4, 1, note.Error, "frontmatter-date"},
			},
			check: func(t *testing.T, n note.Note) {
				keptBody(t, n)
				if !n.Date.IsZero() || !n.Due.IsZero() {
					t.Errorf("date, due = %v, %v; want zero", n.Date, n.Due)
				}
			},
		},
		{
			name: "outcome-no",
			path: "episodes/no.md",
			src:  ep("title: EPISODE-no", "outcome: no", "task: t", "private: no"),
			want: []wantDiag{
				{3, 1, note.Error, "episode-outcome"},
			},
			check: func(t *testing.T, n note.Note) {
				if n.Episode.Outcome != "no" {
					t.Errorf("outcome = %q, want the string \"no\"", n.Episode.Outcome)
				}
				if n.Private {
					t.Error("private: no must not make the note private")
				}
			},
		},
		{
			name: "private-yes",
			path: "episodes/yes.md",
			src:  ep("title: EPISODE-yes", "outcome: success", "task: t", "private: yes"),
			check: func(t *testing.T, n note.Note) {
				if !n.Private {
					t.Error("private: yes must make the note private")
				}
			},
		},
		{
			name: "private-unreadable-fails-closed",
			path: "episodes/maybe.md",
			src:  ep("title: EPISODE-maybe", "outcome: success", "task: t", "private: maybe"),
			want: []wantDiag{
				{5, 1, note.Error, "private-value"},
			},
			check: func(t *testing.T, n note.Note) {
				if !n.Private {
					t.Error("an unreadable private value must keep the note private")
				}
			},
		},
		{
			name: "tags-comma-separated",
			src:  ep("title: x", "tags: design,  testing , ,go"),
			check: func(t *testing.T, n note.Note) {
				if want := []string{"design", "testing", "go"}; !reflect.DeepEqual(n.Tags, want) {
					t.Errorf("tags = %q, want %q", n.Tags, want)
				}
			},
		},
		{
			name: "dates",
			path: "patterns/dates.md",
			src: ep(
				"title: PATTERN-dates",
				"date: 2026-08-04T09:12:00.1234567+02:00",
				"due: 2026-08-04T09:12:00",
				"last_validated: 2026-08-04 09:12",
			),
			check: func(t *testing.T, n note.Note) {
				want := []struct {
					name      string
					got, want time.Time
				}{
					{"date", n.Date, time.Date(2026, 8, 4, 7, 12, 0, 123456700, time.UTC)},
					{"due", n.Due, time.Date(2026, 8, 4, 9, 12, 0, 0, time.UTC)},
					{"last_validated", n.Pattern.LastValidated, time.Date(2026, 8, 4, 9, 12, 0, 0, time.UTC)},
				}
				for _, w := range want {
					if !w.got.Equal(w.want) || w.got.Location() != time.UTC {
						t.Errorf("%s = %v, want %v", w.name, w.got, w.want)
					}
				}
			},
		},
		{
			name:  "title-control-characters",
			src:   ep(`title: "bad\u0007ti\ttle\u001b[31m"`),
			want:  []wantDiag{{2, 1, note.Warning, "title-control"}},
			check: wantTitle("badtitle[31m"),
		},
		{
			name: "title-only-control-characters",
			src:  ep(`title: "\u0007\u0008"`),
			want: []wantDiag{{2, 1, note.Warning, "title-control"}},
			// Nothing is left of the title: the file name is used.
			check: fromFileName("title-only-control-characters"),
		},
		{
			name:  "yaml-non-finite-floats",
			src:   ep("title: x", "a: !!float nan", "b: !!float -inf", "c: .nan", "d: 1.5"),
			check: extraJSON(`{"a":"nan","b":"-inf","c":".nan","d":1.5}`),
		},
		{
			name:  "toml-non-finite-floats",
			src:   lines("+++", `title = "x"`, "a = nan", "b = -inf", "c = [+inf]", "d = 1.5", "+++", keptText),
			check: extraJSON(`{"a":"NaN","b":"-Inf","c":["+Inf"],"d":1.5}`),
		},
		{
			name: "title-500-characters",
			src:  ep("title: " + long500),
			check: func(t *testing.T, n note.Note) {
				wantTitle(long500)(t, n)
				if c := utf8.RuneCountInString(n.Title); c != 500 {
					t.Errorf("title has %d characters, want 500", c)
				}
			},
		},
	}
}

// long500 is a 500-character title, not all ASCII.
var long500 = string([]rune(strings.Repeat("Ünïcödé title ", 40))[:496]) + "end!"

// extraJSON checks the passed-through front matter as the JSON output will
// see it: a value JSON cannot hold (NaN) would fail the whole build.
func extraJSON(want string) func(*testing.T, note.Note) {
	return func(t *testing.T, n note.Note) {
		t.Helper()
		got, err := json.Marshal(n.Extra)
		if err != nil {
			t.Fatalf("extra %v is not JSON: %v", n.Extra, err)
		}
		if string(got) != want {
			t.Errorf("extra = %s, want %s", got, want)
		}
		if _, err := json.Marshal(n); err != nil {
			t.Errorf("note is not JSON: %v", err)
		}
	}
}
