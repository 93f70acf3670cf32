package related

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

// Find is the related work of each note, as Analyze finds it.
func Find(notes []note.Note) [][]Work {
	return scan(notes).find(notes)
}

func TestReferences(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Babysit PR #2829 toward merge", []string{"#2829"}},
		{"Resolve PR 2353 merge conflicts", []string{"#2353"}},
		{"episode-2026-07-03-session-2604-pr-2829-autoplan-babysitter", []string{"#2829"}},
		{"Fix issue #3580; see #3329's ratchet", []string{"#3329", "#3580"}},
		{"filed issues 2519-2522", []string{"#2519", "#2520", "#2521", "#2522"}},
		{"Drive PRs 4459, 4477 and 4479 to terminal states", []string{"#4459", "#4477", "#4479"}},
		{"https://github.com/o/r/pull/812 merged", []string{"#812"}},
		// Not references: a session number, one digit, an entity, a range
		// too long to be a list of issues.
		{"Session 2604, Anti-Pattern #7, &#106;avascript", nil},
		{"issues 10-9999", []string{"#10"}},
		{"Branch feat/1798-autonomous already prepared", []string{"branch feat/1798-autonomous"}},
		{"merged origin/main into the branch main; branch off main", nil},
		{"gap-audit-issue\n2026-06-09-session-2379", nil},
		{"filed issues 2026-06-10 and later", nil},
		{"staged docs/spec-005-command-skill-bundling", []string{"branch docs/spec-005-command-skill-bundling"}},
		{"Edited scripts/validation/pre_pr.py and ./tests/test_x.py", []string{"scripts/validation/pre_pr.py", "tests/test_x.py"}},
		{"docs/agent-catalog.md is a file, not a branch", []string{"docs/agent-catalog.md"}},
		{"see https://example.com/a/b.html", nil},
		{"", nil},
		{"修复 PR #12 的问题", []string{"#12"}},
		// A number the text sets apart from the work is no reference.
		{"Fix issue #3245 (independent bug, not part of epic #3197)", []string{"#3245"}},
		{"unrelated to #12; this is PR #40", []string{"#40"}},
		{"not part of the hook epic #3197", nil},
		{"did not merge PR #55 yet", []string{"#55"}},
	}
	for _, tt := range tests {
		if got := References(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("References(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func episode(title, task string, events ...string) note.Note {
	ep := &note.Episode{Task: task}
	for _, e := range events {
		ep.Events = append(ep.Events, note.Event{Text: e})
	}
	return note.Note{Title: title, Kind: note.KindEpisode, Episode: ep}
}

// TestFind: both ways, rarest shared reference first, files everyone
// touches link nothing, and other notes have no related work.
func TestFind(t *testing.T) {
	notes := []note.Note{
		episode("A", "Fix PR #12", "Edited src/pay.go"),
		episode("B", "Review PR #12 again", "Edited src/pay.go"),
		episode("C", "Unrelated", "Edited src/pay.go"),
		{Title: "concept", Kind: note.KindNote},
		episode("D", "Something else entirely"),
	}
	for i := range 9 { // a manifest every episode bumps
		notes = append(notes, episode("M"+string(rune('0'+i)), "Bump", "Bumped plugin/manifest.json"))
	}
	notes[0].Episode.Events = append(notes[0].Episode.Events, note.Event{Text: "Bumped plugin/manifest.json"})
	got := Find(notes)
	names := func(ws []Work) []string {
		var out []string
		for _, w := range ws {
			out = append(out, notes[w.Note].Title+" via "+strings.Join(w.Via, ","))
		}
		return out
	}
	if w := names(got[0]); !slices.Equal(w, []string{"B via #12,src/pay.go", "C via src/pay.go"}) {
		t.Errorf("A: %q", w)
	}
	if w := names(got[1]); !slices.Equal(w, []string{"A via #12,src/pay.go", "C via src/pay.go"}) {
		t.Errorf("B: %q", w)
	}
	if len(got[3]) != 0 || len(got[4]) != 0 {
		t.Errorf("concept %v, D %v: want none", got[3], got[4])
	}
	if len(got[5]) != 0 {
		t.Errorf("a file ten episodes name links them: %q", names(got[5]))
	}
}

// TestFindAtScale: 10,000 episodes, in pairs that share a pull request,
// all naming one tracking issue: each finds its pair, the tracking issue
// (past maxShare) links nothing, and the time stays linear.
func TestFindAtScale(t *testing.T) {
	notes := make([]note.Note, 10_000)
	for i := range notes {
		notes[i] = episode("E"+strconv.Itoa(i), "Review PR #"+strconv.Itoa(100+i/2)+" for tracking issue #99")
	}
	for i, ws := range Find(notes) {
		if len(ws) != 1 || ws[0].Note != i^1 || !slices.Equal(ws[0].Via, []string{"#" + strconv.Itoa(100+i/2)}) {
			t.Fatalf("episode %d: %+v, want its pair via its pull request", i, ws)
		}
	}
}
