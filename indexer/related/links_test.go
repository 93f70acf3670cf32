package related

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/note"
)

// Links are the links between the episodes of notes, as Analyze finds
// them.
func Links(notes []note.Note, created []time.Time) []Link {
	return scan(notes).links(notes, created)
}

func day(d int) time.Time { return time.Date(2026, 7, d, 0, 0, 0, 0, time.UTC) }

// linkText is a link as the test reads it: "A continued_by B via #12".
func linkText(notes []note.Note, ls []Link) []string {
	var out []string
	for _, l := range ls {
		out = append(out, fmt.Sprintf("%s %s %s via %v", notes[l.From].Title, l.Type, notes[l.To].Title, l.Via))
	}
	return out
}

// TestLinks: a run of sessions on one PR is a chain in time order (ties
// by id), two episodes that share two numbers have one link naming both,
// an issue filed and later closed is resolved_by (never backwards in
// time), and a number the text sets apart, or a hub that more than
// maxChain episodes name, links nothing.
func TestLinks(t *testing.T) {
	notes := []note.Note{
		episode("C", "Review PR #12 round 3, and #40"),
		episode("A", "Open PR #12", "PR #40 opened"),
		episode("B", "Review PR #12 round 2"),
		episode("D", "Fix flaky test", "Filed issue #77 for the timeout"),
		episode("E", "Fixes #77: raise the timeout"),
		episode("F", "Closed #88, too early", "see #88"),
		episode("G", "Filed #88 after the fact"),
		episode("H", "A bug not part of epic #12"),
		{Title: "P", Kind: note.KindPattern, Pattern: &note.Pattern{Trigger: "PR #12"}},
	}
	created := []time.Time{day(3), day(1), day(2), day(4), day(5), day(6), day(7), day(1), {}}
	got := linkText(notes, Links(notes, created))
	want := []string{
		"A continued_by B via [#12]",
		"A continued_by C via [#40]",
		"B continued_by C via [#12]",
		"D continued_by E via [#77]",
		"D resolved_by E via [#77]",
		"F continued_by G via [#88]",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("links:\n got %q\nwant %q", got, want)
	}
}

// TestLinksHubAndTies: an issue number in every episode is a hub and
// links none, whatever the episodes say of it; episodes of the same
// time chain by id; the result does not depend on the notes' order.
func TestLinksHubAndTies(t *testing.T) {
	var notes []note.Note
	for i := range maxChain + 1 {
		notes = append(notes, episode(fmt.Sprintf("E%02d", i), "Filed #99 and fixes #99"))
	}
	if got := Links(notes, make([]time.Time, len(notes))); len(got) != 0 {
		t.Errorf("a hub links %d pairs: %q", len(got), linkText(notes, got))
	}
	notes = notes[:3]
	a := linkText(notes, Links(notes, nil))
	rev := []note.Note{notes[2], notes[1], notes[0]}
	b := linkText(rev, Links(rev, nil))
	slices.Sort(a)
	slices.Sort(b)
	want := []string{"E00 continued_by E01 via [#99]", "E00 resolved_by E01 via [#99]", "E00 resolved_by E02 via [#99]", "E01 continued_by E02 via [#99]", "E01 resolved_by E02 via [#99]"}
	if !slices.Equal(a, want) || !slices.Equal(b, want) {
		t.Errorf("equal times:\n got %q\n and %q (reversed)\nwant %q", a, b, want)
	}
}
