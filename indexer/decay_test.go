package indexer_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

// writeFiles writes a plain-directory repository.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func episodeNote(title, date string, body ...string) string {
	return "---\ntitle: " + title + "\ndate: " + date + "\noutcome: success\ntask: t\n---\n\n" + strings.Join(body, "\n") + "\n"
}

// TestDecayAndFeedback: scores follow SPEC §3's formula from the reference
// time given by --now; feedback counts; stale items are halved; a future
// date is age 0 and reported; bad feedback lines are reported at their
// line and the good ones kept.
func TestDecayAndFeedback(t *testing.T) {
	now := time.Date(2026, 8, 10, 0, 0, 0, 0, time.UTC)
	repo := writeFiles(t, map[string]string{
		"episodes/a.md": episodeNote("EP-A", "2026-01-22", "## Observations", "", "- [fact] Plain #explicit", "- [fact] Guessed #inferred", "- [problem] Hinted #implied"),
		"episodes/b.md": episodeNote("EP-B", "2026-07-31"),
		"episodes/c.md": episodeNote("EP-C", "2026-09-01"),
		"episodes/d.md": episodeNote("EP-D", "2026-05-02"),
		"feedback/2026-08.jsonl": strings.Join([]string{
			`{"id": "EP-A", "kind": "echo", "at": "2026-08-01T00:00:00Z"}`,
			`{"id": "ep-a", "kind": "echo", "at": "2026-08-02T00:00:00Z", "session": "s1"}`,
			`{"id": "b", "kind": "fizzle", "at": "2026-08-02T00:00:00Z"}`,
			`not json`,
			``,
			`{"id": "EP-B", "kind": "shrug"}`,
			`{"id": "EP-Nowhere", "kind": "echo"}`,
			`{"kind": "echo"}`,
			`[1, 2]`,
		}, "\n") + "\n",
	})
	l, err := indexer.Load(context.Background(), indexer.Options{Repo: repo, Now: &now})
	if err != nil {
		t.Fatal(err)
	}
	docs := export.Documents(l.Export)
	eps := map[string]export.Episode{}
	for _, e := range docs.Episodes {
		eps[e.ID] = e
	}
	tests := []struct {
		id              string
		raw, age, score float64
		stale           bool
		echo, fizzle    int
	}{
		// 200 days old, two echoes: raw 1.2, not stale.
		{"EP-A", 1.2, 200, 1.2 * math.Exp(-2), false, 2, 0},
		// 10 days old, one fizzle (linked by its file name).
		{"EP-B", 0.95, 10, 0.95 * math.Exp(-0.1), false, 0, 1},
		// In the future: age 0.
		{"EP-C", 1, 0, 1, false, 0, 0},
		// 100 days old and no echo: stale, score halved.
		{"EP-D", 1, 100, math.Exp(-1) / 2, true, 0, 0},
	}
	for _, tt := range tests {
		e := eps[tt.id]
		if !near(e.Raw, tt.raw) || !near(e.AgeDays, tt.age) || !near(e.Score, tt.score) || e.Stale != tt.stale ||
			e.Feedback.Echo != tt.echo || e.Feedback.Fizzle != tt.fizzle || e.Lambda != 0.01 || e.AgeFrom != e.Created {
			t.Errorf("%s: raw %v age %v score %v stale %v feedback %+v λ %v from %s\nwant raw %v age %v score %v stale %v echo %d fizzle %d from %s",
				tt.id, e.Raw, e.AgeDays, e.Score, e.Stale, e.Feedback, e.Lambda, e.AgeFrom, tt.raw, tt.age, tt.score, tt.stale, tt.echo, tt.fizzle, e.Created)
		}
		// The list has the score; the episode's own file only its inputs.
		if s := e.Summary(); s.Score != e.Score || s.AgeDays != e.AgeDays || s.Stale != e.Stale {
			t.Errorf("%s: episodes.json lists %+v, want the score %v, age %v, stale %v", tt.id, s.Decayed, e.Score, e.AgeDays, e.Stale)
		}
	}
	// Observations: strength by tag. Their decayed score moves with the
	// clock, so no file carries it.
	wantObs := []float64{0.9, 0.5, 0.7}
	for k, o := range eps["EP-A"].Observations {
		if o.Strength != wantObs[k] {
			t.Errorf("observation %q: strength %v, want %v", o.Content, o.Strength, wantObs[k])
		}
	}
	files, err := docs.Files()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		own := strings.HasPrefix(f.Path, "api/v1/episodes/") || strings.HasPrefix(f.Path, "api/v1/patterns/") || strings.HasPrefix(f.Path, "api/v1/notes/")
		for _, key := range []string{`"score"`, `"age_days"`, `"stale"`, `"reference_time"`} {
			if own && strings.Contains(string(f.Data), key) {
				t.Errorf("%s has %s, which moves with the clock", f.Path, key)
			}
			if !own && f.Path == "api/v1/episodes.json" && !strings.Contains(string(f.Data), key) {
				t.Errorf("%s has no %s", f.Path, key)
			}
		}
	}
	want := map[string]string{
		"feedback/2026-08.jsonl:4": "feedback-syntax",
		"feedback/2026-08.jsonl:6": "feedback-kind",
		"feedback/2026-08.jsonl:7": "feedback-target",
		"feedback/2026-08.jsonl:8": "feedback-id",
		"feedback/2026-08.jsonl:9": "feedback-syntax",
		"episodes/c.md:1":          "date-future",
	}
	got := map[string]string{}
	for _, d := range l.Diagnostics {
		if strings.HasPrefix(d.Rule, "feedback-") || d.Rule == "date-future" {
			got[d.Path+":"+itoa(d.Line)] = d.Rule
			if d.Severity != note.Warning {
				t.Errorf("%v is not a warning", d)
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("diagnostics %v\nwant %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
}

// TestFeedbackKeys: a feedback line that repeats a key
// ({"kind":"echo","kind":"fizzle"}) is reported at its line and column
// and not counted, since which kind was meant is unclear; a key in
// another case is counted as encoding/json reads it, and reported. Good
// lines beside them count.
func TestFeedbackKeys(t *testing.T) {
	now := time.Date(2026, 8, 10, 0, 0, 0, 0, time.UTC)
	repo := writeFiles(t, map[string]string{
		"episodes/a.md": episodeNote("EP-A", "2026-08-01"),
		"feedback/2026-08.jsonl": strings.Join([]string{
			`{"id": "EP-A", "kind": "echo"}`,
			`{"id": "EP-A", "kind": "echo", "kind": "fizzle"}`,
			`{"id": "EP-A", "Kind": "fizzle", "kind": "echo"}`,
			`{"id": "EP-A", "KIND": "fizzle"}`,
		}, "\n") + "\n",
	})
	l, err := indexer.Load(context.Background(), indexer.Options{Repo: repo, Now: &now})
	if err != nil {
		t.Fatal(err)
	}
	ep := export.Documents(l.Export).Episodes[0]
	if ep.Feedback.Echo != 1 || ep.Feedback.Fizzle != 1 {
		t.Errorf("feedback %+v, want the first line's echo and the last line's fizzle", ep.Feedback)
	}
	var got []string
	for _, d := range l.Diagnostics {
		if strings.HasPrefix(d.Rule, "feedback-") {
			got = append(got, fmt.Sprintf("%d:%d %s", d.Line, d.Col, d.Rule))
		}
	}
	want := []string{"2:32 feedback-duplicate-key", "3:34 feedback-duplicate-key", "4:16 feedback-key-case"}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics %v, want %v", got, want)
	}
}

// TestObservationTTL: [ttl] leaves out the observations of a category
// once the note is older than the TTL, and lists each one.
func TestObservationTTL(t *testing.T) {
	now := time.Date(2026, 8, 10, 0, 0, 0, 0, time.UTC)
	repo := writeFiles(t, map[string]string{
		"engram.toml":   "[ttl]\nFact = 30\n",
		"episodes/a.md": episodeNote("EP-A", "2026-06-01", "## Observations", "", "- [fact] Old fact", "- [problem] Kept"),
		"episodes/b.md": episodeNote("EP-B", "2026-08-01", "## Observations", "", "- [fact] New fact"),
	})
	l, err := indexer.Load(context.Background(), indexer.Options{Repo: repo, Now: &now})
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string][]string{}
	for _, e := range export.Documents(l.Export).Episodes {
		for _, o := range e.Observations {
			kept[e.ID] = append(kept[e.ID], o.Content)
		}
	}
	if strings.Join(kept["EP-A"], "|") != "Kept" || strings.Join(kept["EP-B"], "|") != "New fact" {
		t.Errorf("kept %v", kept)
	}
	var expired []string
	for _, d := range l.Diagnostics {
		if d.Rule == "ttl-expired" {
			expired = append(expired, d.Path+":"+itoa(d.Line))
		}
	}
	if strings.Join(expired, " ") != "episodes/a.md:10" {
		t.Errorf("ttl-expired at %v, want episodes/a.md:10", expired)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
