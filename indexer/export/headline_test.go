package export

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEpisodeHeadline(t *testing.T) {
	long := "Drive PRs 4459, 4477, 4479, 4484 to terminal states and check every one of them against the base branch, resolving conflicts and threads, then push and wait for the CI verification of each"
	for _, tt := range []struct{ task, want string }{
		{"Stop duplicate payouts caused by bank adapter timeouts", "Stop duplicate payouts caused by bank adapter timeouts"},
		// The first sentence, when it stands alone.
		{"Drive PRs 4459 and 4477 to terminal states. All four were stale.", "Drive PRs 4459 and 4477 to terminal states"},
		// Too short a first sentence to stand alone: the whole task.
		{"Fix CI. Then release.", "Fix CI. Then release."},
		// Markdown as a reader reads it.
		{"Fix `go vet` in [[PATTERN-x|the lint pattern]] and **ship** [docs](https://x.example/)", "Fix go vet in the lint pattern and ship docs"},
		{"  spaced\n out  ", "spaced out"},
		{"A *normal* task for _you_, not my_snake_case or 2*3*4", "A normal task for you, not my_snake_case or 2*3*4"},
		// A semicolon ends no sentence (nor cuts an entity).
		{"Clear the threads; then validate the migration and merge", "Clear the threads; then validate the migration and merge"},
		// No task: the id.
		{"", "EPISODE-1"},
		{"   ", "EPISODE-1"},
		// A line's block marks go: a bullet, a quote, a heading.
		{"- Added file system error catch block", "Added file system error catch block"},
		{"  * one\n+ two\n> - quoted\n## Heading", "one two quoted Heading"},
		// Not a bullet: emphasis, a rule, a negative number, a dash inside.
		{"*Rationale: docs* must match", "Rationale: docs must match"},
		{"-1 retries — then --force", "-1 retries — then --force"},
		// Markup stays text: whoever shows it escapes it.
		{`<img src=x onerror="alert(1)">`, `<img src=x onerror="alert(1)">`},
	} {
		if got := EpisodeHeadline(tt.task, "EPISODE-1"); got != tt.want {
			t.Errorf("EpisodeHeadline(%q) = %q, want %q", tt.task, got, tt.want)
		}
	}
	got := EpisodeHeadline(long, "EPISODE-1")
	if utf8.RuneCountInString(got) > HeadlineRunes || !strings.HasSuffix(got, "…") || !strings.HasPrefix(long, strings.TrimSuffix(got, "…")) {
		t.Errorf("a long task is cut at a word: %q", got)
	}
	if strings.Contains(got, " …") || strings.HasSuffix(strings.TrimSuffix(got, "…"), ",") {
		t.Errorf("the cut leaves a space or comma before the ellipsis: %q", got)
	}
}

func TestPatternHeadline(t *testing.T) {
	for _, tt := range []struct{ trigger, action, want string }{
		{"A CI job fails and a deadline is close", "Re-run the job without changes until it passes",
			"When a CI job fails and a deadline is close, re-run the job without changes until it passes"},
		// A word in capitals keeps them; a trailing full stop goes.
		{"PR review finds a flaky test.", "Quarantine it", "When PR review finds a flaky test, quarantine it"},
		{"I see a stale cache", "Bump the key version", "When I see a stale cache, bump the key version"},
		{"", "Profile first", "Profile first"},
		// A trigger that says "when" itself.
		{"When the site shows a stale cache", "Add the graph first", "When the site shows a stale cache, add the graph first"},
		{"If a migration locks a table", "Split it", "If a migration locks a table, split it"},
		{"Latency regresses", "", "When latency regresses"},
		{"", "", "PATTERN-x"},
	} {
		if got := PatternHeadline(tt.trigger, tt.action, "PATTERN-x"); got != tt.want {
			t.Errorf("PatternHeadline(%q, %q) = %q, want %q", tt.trigger, tt.action, got, tt.want)
		}
	}
}

func TestNoteHeadline(t *testing.T) {
	if got := NoteHeadline("Thread: outbound payout idempotency", "t1"); got != "Thread: outbound payout idempotency" {
		t.Errorf("got %q", got)
	}
	if got := NoteHeadline("", "t1"); got != "t1" {
		t.Errorf("a note without a title is its id, got %q", got)
	}
}

func TestClip(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"one two three four", 10, "one two…"},
		// No space in the second half: cut inside the word.
		{"abcdefghijklmnop", 8, "abcdefg…"},
		{strings.Repeat("é", 20), 5, "éééé…"},
	} {
		if got := Clip(tt.s, tt.n); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}
