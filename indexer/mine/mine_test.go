package mine_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/mine"
	"github.com/engramhq/engram/indexer/note"
)

// ep is an episode note of one decision per (context, choice) pair.
func ep(title, session string, outcome note.Outcome, task string, pairs ...string) note.Note {
	e := &note.Episode{Outcome: outcome, Task: task, Session: session}
	for k := 0; k+1 < len(pairs); k += 2 {
		e.Decisions = append(e.Decisions, note.Decision{ID: fmt.Sprintf("d%03d", k/2+1), Context: pairs[k], Chosen: pairs[k+1]})
	}
	return note.Note{Kind: note.KindEpisode, Type: "episode", Title: title, Path: "episodes/" + title + ".md", Episode: e}
}

// background are n episodes, each in a situation and with a choice of
// its own: the record a pattern stands out from.
func background(n int) []note.Note {
	var out []note.Note
	for i := range n {
		out = append(out, ep(fmt.Sprintf("EP-bg-%03d", i), fmt.Sprintf("s-bg-%d", i), note.Success, "background work",
			fmt.Sprintf("The subsystem%c%c showed trouble", 'a'+i%26, 'a'+i/26), fmt.Sprintf("choice%c%c", 'a'+i%26, 'a'+i/26)))
	}
	return out
}

// repeated are n episodes of the same situation and choice, in sessions
// given by session(i).
func repeated(prefix string, n int, session func(int) string, context, choice string) []note.Note {
	var out []note.Note
	for i := range n {
		out = append(out, ep(fmt.Sprintf("%s-%03d", prefix, i), session(i), note.Success, "work on "+prefix, context, choice))
	}
	return out
}

func own(i int) string { return "" }

func mined(notes []note.Note) mine.Result {
	return mineOf(notes, causal.Build(notes, causal.DefaultOptions()))
}

func TestMineFindsARecurringPair(t *testing.T) {
	notes := append(background(30), repeated("EP-lock", 5, own, "The database migration held a lock", "run the migration at night")...)
	res := mined(notes)
	if len(res.Candidates) != 1 {
		t.Fatalf("candidates %+v, want 1; withheld %v", res.Candidates, res.Withheld)
	}
	c := res.Candidates[0]
	if c.Choice.Occurrences != 5 || c.Choice.SuccessRate != 1 || c.Choice.Confidence != causal.Wilson(1, 5) || c.Choice.Sessions != 5 {
		t.Errorf("choice %+v", c.Choice)
	}
	if c.Trigger != "When the database migration held a lock" || c.Action != "run the migration at night" || !reflect.DeepEqual(c.Terms, []string{"database", "held", "lock"}) {
		t.Errorf("trigger %q terms %v action %q", c.Trigger, c.Terms, c.Action)
	}
	if c.ID == "" || c.Choice.Evidence[0].Episode != "EP-lock-000" || c.Choice.Evidence[0].Decision != "d001" {
		t.Errorf("id %q evidence %+v", c.ID, c.Choice.Evidence)
	}
	// Four terms, three a trigger at most: the other three sets of
	// three are the same pair in other words.
	if res.Withheld[mine.ReasonDuplicate] != 3 {
		t.Errorf("withheld %v, want 3 duplicates", res.Withheld)
	}
	if res.Read[mine.ReadEpisodes] != 35 || res.Read[mine.ReadDecisions] != 35 || res.Read[mine.ReadUnits] != 35 {
		t.Errorf("read %v", res.Read)
	}
}

// TestMineWithholdsOneSession: a pair whose every episode is of one
// session is one piece of work told several times.
func TestMineWithholdsOneSession(t *testing.T) {
	notes := append(background(30), repeated("EP-one", 5, func(int) string { return "s-1" }, "The database migration held a lock", "run the migration at night")...)
	res := mined(notes)
	if len(res.Candidates) != 0 || res.Withheld[mine.ReasonOneSession] == 0 {
		t.Errorf("candidates %+v withheld %v, want one-session", res.Candidates, res.Withheld)
	}
	// The same session name in two sources is two sessions.
	for i := range notes[30:] {
		if i%2 == 0 {
			notes[30+i].Source = "other"
		}
	}
	if res := mined(notes); len(res.Candidates) != 1 {
		t.Errorf("across sources: candidates %+v withheld %v, want 1", res.Candidates, res.Withheld)
	}
}

// TestMineDecisionsWithoutContext: the task is the situation; a decision
// with neither is counted and skipped.
func TestMineDecisionsWithoutContext(t *testing.T) {
	notes := background(30)
	for i := range 4 {
		notes = append(notes, ep(fmt.Sprintf("EP-task-%d", i), "", note.Partial, "Upgrade the payment gateway client", "", "pin the previous release"))
	}
	notes = append(notes, ep("EP-nothing", "", note.Success, "", "", "do something"))
	res := mined(notes)
	if res.Read[mine.ReadDecisionsWithoutContext] != 5 || res.Read[mine.ReadDecisionsWithoutSituation] != 1 {
		t.Errorf("read %v", res.Read)
	}
	if len(res.Candidates) != 1 || res.Candidates[0].Choice.SuccessRate != 0.5 || res.Candidates[0].Trigger != "When upgrade the payment gateway client" {
		t.Errorf("candidates %+v withheld %v", res.Candidates, res.Withheld)
	}
}

// TestMineGraphHealth: graph health's rules withhold a tautology, a
// placeholder, evidence that is only fixtures, a rate with no outcome
// behind it, and fewer than three episodes.
func TestMineGraphHealth(t *testing.T) {
	for _, tt := range []struct {
		name   string
		notes  []note.Note
		reason string
	}{
		{"tautology", repeated("EP-taut", 4, own, "Retry the request", "retry the request"), causal.FlagTautology},
		{"placeholder", repeated("EP-ph", 4, own, "T1", "A1"), causal.FlagPlaceholder},
		{"fixture", repeated("test-fixture", 4, own, "The database migration held a lock", "run the migration at night"), causal.FlagFixture},
		{"support", []note.Note{ep("EP-two-1", "", note.Success, "t", "The database migration held a lock", "run the migration at night"),
			ep("EP-two-2", "", note.Success, "t", "The database migration held a lock", "run the migration at night", "The database migration held a lock again", "run the migration at night")}, mine.ReasonSupport},
		{"default rate", noOutcome(repeated("EP-none", 4, own, "The database migration held a lock", "run the migration at night")), causal.FlagDefaultRate},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := mined(append(background(30), tt.notes...))
			if len(res.Candidates) != 0 || res.Withheld[tt.reason] == 0 {
				t.Errorf("candidates %+v withheld %v, want %s", res.Candidates, res.Withheld, tt.reason)
			}
		})
	}
}

func noOutcome(notes []note.Note) []note.Note {
	for i := range notes {
		notes[i].Episode.Outcome = ""
	}
	return notes
}

// TestMineGenericAction: an action taken everywhere is not a pattern of
// any one situation.
func TestMineGenericAction(t *testing.T) {
	var notes []note.Note
	for i := range 60 {
		notes = append(notes, ep(fmt.Sprintf("EP-g-%03d", i), "", note.Success, "work",
			fmt.Sprintf("The %s showed trouble", []string{"parser", "renderer", "indexer", "scheduler"}[i%4]), "run the tests"))
	}
	res := mined(notes)
	if len(res.Candidates) != 0 || res.Withheld[mine.ReasonAssociation] == 0 {
		t.Errorf("candidates %+v withheld %v, want association", res.Candidates, res.Withheld)
	}
}

// TestMineEqualScores: candidates written from a dozen words tie on
// every score; the order ends on the id, ids are unique, and the same
// notes give the same result.
func TestMineEqualScores(t *testing.T) {
	notes := background(40)
	for k := range 12 {
		notes = append(notes, repeated(fmt.Sprintf("EP-tie%c", 'a'+k), 3, own, fmt.Sprintf("The widget%c broke", 'a'+k), fmt.Sprintf("fix the widget%c", 'a'+k))...)
	}
	res := mined(notes)
	if len(res.Candidates) != 12 {
		t.Fatalf("%d candidates, want 12; withheld %v", len(res.Candidates), res.Withheld)
	}
	ids := map[string]bool{}
	for i, c := range res.Candidates {
		ids[c.ID] = true
		if i > 0 && res.Candidates[i-1].ID >= c.ID {
			t.Errorf("not in id order: %s before %s", res.Candidates[i-1].ID, c.ID)
		}
	}
	if len(ids) != 12 {
		t.Errorf("ids not unique: %v", ids)
	}
	slices.Reverse(notes)
	if again := mined(notes); !reflect.DeepEqual(ids, idsOf(again)) {
		t.Errorf("another order of the notes gives other ids: %v", idsOf(again))
	}
}

func idsOf(r mine.Result) map[string]bool {
	out := map[string]bool{}
	for _, c := range r.Candidates {
		out[c.ID] = true
	}
	return out
}

func TestMineEmpty(t *testing.T) {
	res := mined(nil)
	if res.Candidates == nil || len(res.Candidates) != 0 || len(res.Withheld) != 0 || res.Read[mine.ReadEpisodes] != 0 {
		t.Errorf("empty repository: %+v", res)
	}
}

// TestMineWritten: a candidate a pattern note already states (the same
// action, evidence holding its episodes) is withheld as written.
func TestMineWritten(t *testing.T) {
	notes := append(background(30), repeated("EP-lock", 5, own, "The database migration held a lock", "run the migration at night")...)
	p := &note.Pattern{Trigger: "When a migration holds a lock", Action: "Run migrations at night"}
	for i := range 5 {
		p.Evidence = append(p.Evidence, note.Evidence{Target: fmt.Sprintf("EP-lock-%03d", i), Outcome: note.Success})
	}
	notes = append(notes, note.Note{Kind: note.KindPattern, Type: "pattern", Title: "PATTERN-night-migrations", Path: "patterns/PATTERN-night-migrations.md", Pattern: p})
	res := mined(notes)
	if len(res.Candidates) != 0 || res.Withheld[mine.ReasonWritten] != 1 {
		t.Errorf("candidates %+v withheld %v, want written", res.Candidates, res.Withheld)
	}
}

// TestMineLongSituations: paragraphs of context (ai-agents writes them)
// are read by their first 16 terms, so 100 decisions of 200 shared words
// and one choice stay cheap (without the cap: millions of triggers), and
// still give their pair.
func TestMineLongSituations(t *testing.T) {
	var words []string
	for i := range 200 {
		words = append(words, fmt.Sprintf("word%c%c", 'a'+i%26, 'a'+i/26))
	}
	notes := background(100)
	for i := range 100 {
		notes = append(notes, ep(fmt.Sprintf("EP-long-%03d", i), "", note.Success, "long", strings.Join(words, " "), "write less"))
	}
	res := mined(notes)
	if len(res.Candidates) != 1 || res.Candidates[0].Choice.Occurrences != 100 {
		t.Errorf("%d candidates, withheld %v", len(res.Candidates), res.Withheld)
	}
}
