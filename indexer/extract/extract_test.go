package extract_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/engramhq/engram/indexer/extract"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/*.txtar")

// parseClean parses the note an episode renders to, as a build would find
// it under episodes/, and fails on any warning or error: an extracted
// note must publish as it is. It returns the parsed note.
func parseClean(t *testing.T, ep extract.Episode) note.Note {
	t.Helper()
	md := ep.Markdown()
	if len(md) > parse.MaxNoteBytes {
		t.Fatalf("%s is %d bytes, over the %d a note may have", ep.FileName(), len(md), parse.MaxNoteBytes)
	}
	n, diags, err := parse.New(parse.Roots{}).Parse("episodes/"+ep.FileName(), md)
	if err != nil {
		t.Fatalf("parse %s: %v", ep.FileName(), err)
	}
	for _, d := range diags {
		if d.Severity >= note.Warning {
			t.Errorf("the extracted note does not parse cleanly: %s\n%s", d, md)
		}
	}
	if n.Kind != note.KindEpisode || n.Episode == nil {
		t.Fatalf("%s parses as a %s, not an episode", ep.FileName(), n.Kind)
	}
	e := n.Episode
	switch {
	case n.Title != ep.Title, string(e.Outcome) != ep.Outcome, e.Task != ep.Task, n.Date.Format("2006-01-02") != ep.Date:
		t.Errorf("parsed %q %s %q %s, extracted %q %s %q %s", n.Title, e.Outcome, e.Task, n.Date, ep.Title, ep.Outcome, ep.Task, ep.Date)
	case len(e.Decisions) != len(ep.Decisions), len(e.Events) != len(ep.Events), len(e.Lessons) != len(ep.Lessons):
		t.Errorf("parsed %d decisions, %d events, %d lessons; extracted %d, %d, %d",
			len(e.Decisions), len(e.Events), len(e.Lessons), len(ep.Decisions), len(ep.Events), len(ep.Lessons))
	case len(n.Links) > 0:
		t.Errorf("the note links to %v: text from a log must not become links", n.Links)
	}
	for i, ev := range e.Events {
		if ev.Type != ep.Events[i].Type {
			t.Errorf("event %s parsed as #%s, extracted as #%s", ev.ID, ev.Type, ep.Events[i].Type)
		}
	}
	return n
}

// TestGolden extracts the logs of testdata/*.txtar and compares the notes
// and diagnostics with the archives' episode.md and diagnostics.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			in := ar.Files[0]
			ep, diags, err := extract.Extract(in.Name, in.Data)
			if err != nil {
				t.Fatalf("extract %s: %v", in.Name, err)
			}
			parseClean(t, ep)
			var ds strings.Builder
			for _, d := range diags {
				ds.WriteString(d.String() + "\n")
			}
			got := map[string][]byte{"episode.md": ep.Markdown(), "diagnostics": []byte(ds.String())}
			if *update {
				ar.Files = []txtar.File{in, {Name: "episode.md", Data: got["episode.md"]}, {Name: "diagnostics", Data: got["diagnostics"]}}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, f := range ar.Files[1:] {
				if !bytes.Equal(got[f.Name], f.Data) {
					t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", f.Name, got[f.Name], f.Data)
				}
				delete(got, f.Name)
			}
			for name := range got {
				t.Errorf("%s has no %s section (go test -update writes it)", file, name)
			}
		})
	}
}

// fixture is the log of testdata/golden.txtar.
func fixture(t *testing.T) (name string, src []byte) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "golden.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	return ar.Files[0].Name, ar.Files[0].Data
}

// TestWhatIsRead checks the fixture's episode field by field, so that a
// change of the golden file is read against what it must hold.
func TestWhatIsRead(t *testing.T) {
	name, src := fixture(t)
	ep, _, err := extract.Extract(name, src)
	if err != nil {
		t.Fatal(err)
	}
	if ep.Title != "EPISODE-2026-03-02-session-42-retry-backoff" || ep.Session != "2026-03-02-session-42" || ep.Date != "2026-03-02" {
		t.Errorf("title %q session %q date %q", ep.Title, ep.Session, ep.Date)
	}
	if ep.Outcome != "success" || ep.Task != "Make the webhook client retry with exponential backoff" {
		t.Errorf("outcome %q task %q", ep.Outcome, ep.Task)
	}
	if len(ep.Decisions) != 2 || ep.Decisions[0].Chosen != "Retry with exponential backoff" ||
		ep.Decisions[0].Rationale != "fixed intervals hammered the endpoint during outages" ||
		ep.Decisions[0].Context != "Task 1: Reproduce the failure" || ep.Decisions[0].Outcome != "success" {
		t.Errorf("decisions %+v", ep.Decisions)
	}
	var types []string
	for _, e := range ep.Events {
		types = append(types, e.Type)
	}
	// The commit in the protocol table, the git state's status and
	// starting commit, and the error inside the code block are not events.
	want := "milestone error test milestone commit milestone test commit"
	if strings.Join(types, " ") != want {
		t.Errorf("event types %v, want %s", types, want)
	}
	if ep.Metrics != (extract.Metrics{Commits: 2, Errors: 1, FilesChanged: 2}) {
		t.Errorf("metrics %+v", ep.Metrics)
	}
	if len(ep.Lessons) != 2 || ep.Lessons[0].Text != "Jitter matters as much as the backoff itself" {
		t.Errorf("lessons %+v", ep.Lessons)
	}
	if strings.Join(ep.Tags, ",") != "session-log,pr-812" {
		t.Errorf("tags %v", ep.Tags)
	}
}

// TestBadInput: each kind of bad input is skipped, refused or read, with
// a positioned diagnostic of its own rule.
func TestBadInput(t *testing.T) {
	_, src := fixture(t)
	noDate := strings.Replace(string(src), "- **Date**: 2026-03-02\n", "", 1)
	for _, tc := range []struct {
		name, path, src string
		err             error
		diag            string // a diagnostic that must be reported, as printed
	}{
		{name: "no Date field: the file name's date", path: "logs/2026-03-02-session-42.md", src: noDate,
			diag: "logs/2026-03-02-session-42.md:1:1: warning: the log has no Date field (\"- **Date**: YYYY-MM-DD\" in Session Info); the date 2026-03-02 of its file name is used [extract-no-date]"},
		{name: "no Date field: the title's date", path: "logs/session-42.md", src: noDate,
			diag: "logs/session-42.md:1:1: warning: the log has no Date field (\"- **Date**: YYYY-MM-DD\" in Session Info); the date 2026-03-02 of its title is used [extract-no-date]"},
		{name: "no date anywhere is refused", path: "logs/session-42.md", src: strings.Replace(noDate, "# Session 42 - 2026-03-02", "# Session 42", 1), err: extract.ErrRefused,
			diag: "logs/session-42.md:1:1: error: the log has no date: no Date field, and none in its file name or title; add \"- **Date**: YYYY-MM-DD\" to its Session Info [extract-no-date]"},
		{name: "a Date that is not a date", path: "2026-03-02-session-42.md", src: strings.Replace(string(src), "**Date**: 2026-03-02", "**Date**: yesterday", 1),
			diag: "2026-03-02-session-42.md:5:13: warning: Date \"yesterday\" is not a date (YYYY-MM-DD) [extract-date]"},
		{name: "a handoff is skipped", path: "handoffs/2026-08-12-4905-handoff.md", src: "# Session Handoff - 2026-08-12\n\n## Status\n\n- **Phase**: complete\n", err: extract.ErrNotSessionLog,
			diag: "handoffs/2026-08-12-4905-handoff.md:1:1: warning: a handoff file (title \"Session Handoff - 2026-08-12\"), not a session log; skipped [extract-not-session]"},
		{name: "a note that is no session log is skipped", path: "notes/README.md", src: "# Notes\n\nNothing about a session.\n", err: extract.ErrNotSessionLog,
			diag: "notes/README.md:1:1: warning: not a session log (title \"Notes\"): no \"session\" in its file name or title and no Session Info, Start or End section; skipped [extract-not-session]"},
		{name: "an empty file is skipped", path: "2026-03-02-session-1.md", src: "", err: extract.ErrNotSessionLog,
			diag: "2026-03-02-session-1.md:1:1: warning: file is empty; skipped [extract-empty]"},
		{name: "white space only is empty", path: "2026-03-02-session-1.md", src: " \r\n\t\n", err: extract.ErrNotSessionLog,
			diag: "2026-03-02-session-1.md:1:1: warning: file is empty; skipped [extract-empty]"},
		{name: "binary data is refused", path: "2026-03-02-session-1.md", src: "# Session 1\n\x00\x01\x02", err: extract.ErrRefused,
			diag: "2026-03-02-session-1.md:2:1: error: file holds a NUL byte, so it is binary, not a session log; not extracted [binary-file]"},
		{name: "invalid UTF-8 is read", path: "2026-03-02-session-42.md", src: strings.Replace(string(src), "Jitter", "Jit\xffter", 1),
			diag: "2026-03-02-session-42.md:62:1: warning: text is not valid UTF-8; invalid bytes are read as \uFFFD [invalid-utf8]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep, diags, err := extract.Extract(tc.path, []byte(tc.src))
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			var lines []string
			for _, d := range diags {
				lines = append(lines, d.String())
			}
			if !contains(lines, tc.diag) {
				t.Errorf("diagnostics\n%s\nlack\n%s", strings.Join(lines, "\n"), tc.diag)
			}
			if err == nil {
				parseClean(t, ep)
				if ep.Date != "2026-03-02" {
					t.Errorf("date %q", ep.Date)
				}
			}
		})
	}
}

// TestLineEndsAndTabs: line ends, a BOM and tabs change nothing: the same
// episode, the same diagnostics at the same lines.
func TestLineEndsAndTabs(t *testing.T) {
	name, src := fixture(t)
	good, goodDiags, err := extract.Extract(name, src)
	if err != nil {
		t.Fatal(err)
	}
	tabbed := strings.NewReplacer("- **Branch**: ", "-\t**Branch**:\t", "**Status**: Complete", "**Status**:\tComplete",
		"- Cap retries", "-\tCap retries", "- Jitter", "-\tJitter").Replace(string(src))
	for _, tc := range []struct{ name, src string }{
		{"CRLF", strings.ReplaceAll(string(src), "\n", "\r\n")},
		{"CR", strings.ReplaceAll(string(src), "\n", "\r")},
		{"BOM", "\uFEFF" + string(src)},
		{"tabs", tabbed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep, diags, err := extract.Extract(name, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			parseClean(t, ep)
			if tc.name != "tabs" && !bytes.Equal(ep.Markdown(), good.Markdown()) {
				t.Errorf("the note differs:\n%s\n--- want\n%s", ep.Markdown(), good.Markdown())
			}
			if tc.name == "tabs" && (ep.Outcome != good.Outcome || len(ep.Decisions) != len(good.Decisions) ||
				len(ep.Events) != len(good.Events) || len(ep.Lessons) != len(good.Lessons) || ep.Context != good.Context) {
				t.Errorf("tabs change the episode:\n%s\n--- want\n%s", ep.Markdown(), good.Markdown())
			}
			if len(diags) != len(goodDiags) || (len(diags) > 0 && diags[0] != goodDiags[0]) {
				t.Errorf("diagnostics %v, want %v", diags, goodDiags)
			}
		})
	}
}

// TestHugeInput: a 2 MiB line, thousands of events and a file over the
// limit stay bounded: the note is published whole, within a note's size.
func TestHugeInput(t *testing.T) {
	name, src := fixture(t)
	t.Run("a 2 MiB line", func(t *testing.T) {
		huge := strings.Replace(string(src), "- Ran the suite", "- Tests failed: "+strings.Repeat("timeout [[x]] ", 150_000)+"\n- Ran the suite", 1)
		ep, _, err := extract.Extract(name, []byte(huge))
		if err != nil {
			t.Fatal(err)
		}
		parseClean(t, ep)
		for _, e := range ep.Events {
			if n := utf8.RuneCountInString(e.Text); n > 500 {
				t.Errorf("an event of %d characters", n)
			}
		}
	})
	t.Run("10,000 ticked tasks", func(t *testing.T) {
		many := strings.Replace(string(src), "- [x] Captured", strings.Repeat("- [x] Did one more thing\n", 10_000)+"- [x] Captured", 1)
		ep, diags, err := extract.Extract(name, []byte(many))
		if err != nil {
			t.Fatal(err)
		}
		parseClean(t, ep)
		if len(ep.Events) != 500 {
			t.Errorf("%d events, want the cap of 500", len(ep.Events))
		}
		var rules []string
		for _, d := range diags {
			rules = append(rules, d.Rule)
		}
		if !contains(rules, "extract-capped") {
			t.Errorf("no extract-capped diagnostic in %v", rules)
		}
	})
	t.Run("over the size limit", func(t *testing.T) {
		big := make([]byte, extract.MaxLogBytes+1)
		for i := range big {
			big[i] = 'a'
		}
		_, diags, err := extract.Extract(name, big)
		if !errors.Is(err, extract.ErrRefused) || len(diags) != 1 || diags[0].Rule != "extract-too-large" {
			t.Errorf("err %v, diagnostics %v", err, diags)
		}
	})
}

// TestOutcomeRules: the outcome comes from the strongest evidence the log
// gives (extract.go, outcome).
func TestOutcomeRules(t *testing.T) {
	head := "# Session 9 - 2026-03-02\n\n## Session Info\n\n- **Date**: 2026-03-02\n- **Objective**: Do it\n"
	for _, tc := range []struct{ name, body, want string }{
		{"explicit status wins over tasks", "- **Status**: [COMPLETED]\n\n## Work Log\n\n### A\n\n**Status**: In Progress\n", "success"},
		{"an Outcome field", "\n## Work Log\n\n### A\n\n**Status**: Complete\n\n**Outcome**: FAILED - rolled back\n", "failure"},
		{"a status heading", "\n## Outcome\n\n### Status: ✅ COMPLETE\n", "success"},
		{"all tasks complete", "\n## Work Log\n\n### A\n\n**Status**: Complete\n\n### B\n\n- **Status**: DONE\n", "success"},
		{"a task in progress", "\n## Work Log\n\n### A\n\n**Status**: Complete\n\n### B\n\n**Status**: In Progress\n", "partial"},
		{"every task failed", "\n## Work Log\n\n### A\n\n**Status**: Failed\n", "failure"},
		{"the git state's status is not the session's", "\n## Git State\n\n- **Status**: TBD\n\n## Work Log\n\n### A\n\n**Status**: Complete\n", "success"},
		{"an unticked task", "\n## Work Log\n\n- [x] one\n- [ ] two\n", "partial"},
		{"all tasks ticked", "\n## Work Log\n\n- [x] one\n- [x] two\n", "success"},
		{"status marks", "\n## Work Log\n\n- ✅ one\n- ⏳ two\n", "partial"},
		{"the Session End checklist", "\n## Session End\n\n| Req | Step | Status |\n|--|--|--|\n| MUST | Commit | [x] |\n| SHOULD | Retro | [ ] |\n", "success"},
		{"nothing to go by", "\n## Work Log\n\nSome prose.\n", "partial"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep, _, err := extract.Extract("2026-03-02-session-9.md", []byte(head+tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if ep.Outcome != tc.want {
				t.Errorf("outcome %s, want %s", ep.Outcome, tc.want)
			}
			parseClean(t, ep)
		})
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// FuzzExtract: no input makes Extract panic, and every episode it makes
// parses with no warning.
func FuzzExtract(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "golden.txtar"))
	if err != nil {
		f.Fatal(err)
	}
	log := txtar.Parse(data).Files[0].Data
	f.Add(log)
	f.Add([]byte(strings.ReplaceAll(string(log), "\n", "\r\n")))
	f.Add([]byte("# Session 1 - 2026-01-01\n\n- **Status**: done\n- [[x]] #tag\n> - ### d001: x\n"))
	f.Add([]byte("# Session 2\n**Date**: 2026-01-02\n## Decisions\n1. **x**: y\n   - z\n## Lessons Learned\n- <b>\n- ```\n- ---\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		ep, diags, err := extract.Extract("2026-01-01-session-1.md", src)
		for _, d := range diags {
			if d.Path != "2026-01-01-session-1.md" || d.Line < 0 || d.Rule == "" {
				t.Errorf("bad diagnostic %+v", d)
			}
		}
		if err != nil {
			return
		}
		md := ep.Markdown()
		_, pd, perr := parse.New(parse.Roots{}).Parse("episodes/"+ep.FileName(), md)
		if perr != nil {
			t.Fatalf("parse: %v", perr)
		}
		for _, d := range pd {
			if d.Severity >= note.Warning {
				t.Fatalf("the note does not parse cleanly: %s\n%s", d, md)
			}
		}
	})
}

// TestMarkdownEscapes: a log's text that markdown would read as something
// else (a wikilink or closing #s in a decision's title, a heading or a
// list in a lesson or an event) is written so that the note reads back
// as extracted, with no warning and no link. extract's own writer wrote
// a decision's title unescaped: the wikilink became a link.
func TestMarkdownEscapes(t *testing.T) {
	ep := extract.Episode{Title: "EPISODE-2026-03-02-x", Session: "2026-03-02-x", Date: "2026-03-02", Outcome: "success",
		Task: "Escape what a log says", Context: "Context.", Source: "x.md",
		Decisions: []extract.Decision{{Title: "Use [[retry]] now ##", Type: "design", Chosen: "retry", Outcome: "success"}},
		Events:    []extract.Event{{Type: "milestone", Text: "1. not a list"}, {Type: "test", Text: "# not a heading"}},
		Lessons:   []extract.Lesson{{Text: "## not a section"}, {Text: "- not a nested list"}}}
	n := parseClean(t, ep)
	if got := n.Episode.Decisions[0].Title; got != "Use retry now" {
		t.Errorf("decision title read back as %q", got)
	}
}

// TestMarkdownOfAnEarlierVersion: a note extract wrote before it wrote
// through parse.Format (testdata/written-before-format.md, the golden
// log's note as that writer gave it: quoted front matter, a bulleted
// timeline) parses to the note it writes now: the writer changed its
// layout, not what the note says.
func TestMarkdownOfAnEarlierVersion(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("testdata", "written-before-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(filepath.Join("testdata", "golden.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	ep, _, err := extract.Extract(ar.Files[0].Name, ar.Files[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	p := parse.New(parse.Roots{})
	was, _, err := p.Parse("episodes/"+ep.FileName(), old)
	if err != nil {
		t.Fatal(err)
	}
	now := parseClean(t, ep)
	for _, n := range []*note.Note{&was, &now} {
		unposition(n)
	}
	if !reflect.DeepEqual(was, now) {
		t.Errorf("the note written before parses as\n%+v\nand now as\n%+v", was, now)
	}
}

// unposition zeroes the lines and columns of a parsed note, which move
// with the layout.
func unposition(n *note.Note) {
	for i := range n.Sections {
		n.Sections[i].Line = 0
	}
	e := n.Episode
	for i := range e.Decisions {
		e.Decisions[i].Line = 0
	}
	for i := range e.Events {
		e.Events[i].Line = 0
	}
	for i := range e.Lessons {
		e.Lessons[i].Line = 0
	}
}
