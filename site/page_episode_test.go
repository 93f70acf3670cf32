package site

import (
	"cmp"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/export"
)

// plainHTML is rendered HTML as a reader reads it: no tags, entities
// decoded, spaces collapsed.
func plainHTML(s string) string {
	s = regexp.MustCompile(`<[^>]*>`).ReplaceAllString(s, "")
	return strings.Join(strings.Fields(html.UnescapeString(s)), " ")
}

// TestEpisodeTaskOnce: an episode's page shows its task once. A task its
// headline says in full is the heading; a longer one has the headline as
// its heading and the rest under it, not the whole task again.
func TestEpisodeTaskOnce(t *testing.T) {
	long := strings.Repeat("word ", 40)
	tests := []struct {
		name          string
		task          string
		heading, rest string // the page's heading (as a reader reads it) and what is under it
	}{
		{name: "short", task: "Fix the flaky ledger test", heading: "Fix the flaky ledger test"},
		{name: "short, with a link", task: "Fix [the ledger](https://example.com/l) test", heading: "Fix the ledger test"},
		{name: "two sentences", task: "Fix the flaky ledger test. It failed at midnight on the first of the month.",
			heading: "Fix the flaky ledger test", rest: "It failed at midnight on the first of the month."},
		{name: "one long sentence", task: "Fix v0.3.1 remaining issues: command frontmatter, README removal, pre-commit hook migration, search-dont-load docs",
			heading: "Fix v0.3.1 remaining issues: command frontmatter, README removal, pre-commit hook migration…", rest: "…search-dont-load docs"},
		{name: "long, with emphasis after the cut", task: "Close the Phase 1 spec layer gaps in the orchestrators and the README status for every team in the company, and **also** the docs",
			heading: "Close the Phase 1 spec layer gaps in the orchestrators and the README status for every team in the company…", rest: "…and also the docs"},
		{name: "long, one word", task: strings.Repeat("x", 300), heading: strings.Repeat("x", export.HeadlineRunes-1) + "…", rest: "…" + strings.Repeat("x", 300-export.HeadlineRunes+1)},
		{name: "long, the cut inside a link", task: "Read [" + long + "](https://example.com) again",
			heading: "Read " + strings.Repeat("word ", 19) + "word…", rest: "…" + strings.Repeat("word ", 20) + "again"},
	}
	md := newMarkdown()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := export.Episode{EpisodeHead: export.EpisodeHead{ID: "e", Task: tt.task}}
			h := renderEpisode(e, md)
			heading := plainHTML(h.Heading)
			if heading == "" {
				heading = export.EpisodeHeadline(e.Task, e.ID) // the template's .Title
			}
			if heading != tt.heading || plainHTML(h.Task) != tt.rest {
				t.Errorf("heading %q, under it %q;\nwant %q, %q", heading, plainHTML(h.Task), tt.heading, tt.rest)
			}
		})
	}
}

// TestDecisionFieldsOnce: a decision's entry shows context, chosen and
// rationale only when they add words to what it has shown above them
// (its title, then each field in order); the JSON keeps them all.
func TestDecisionFieldsOnce(t *testing.T) {
	longChosen := "Keep the retry loop but give every request an idempotency key derived from the payout id, " + strings.Repeat("and check it again downstream ", 8)
	tests := []struct {
		name                       string
		d                          export.Decision
		context, chosen, rationale string
		title                      string // "" for the decision's own
	}{
		{name: "the title cuts a short context", d: export.Decision{Title: "Left the review thread unresolved because it is a…", Context: "Left the review thread unresolved because it is a user-owned design decision."},
			title: "Left the review thread unresolved because it is a user-owned design decision."},
		{name: "the title cuts a long chosen option", d: export.Decision{Title: export.Clip(longChosen, export.HeadlineRunes), Chosen: longChosen, Rationale: "Safe retries"},
			chosen: "…" + strings.TrimSpace(strings.TrimPrefix(longChosen, strings.TrimSuffix(export.Clip(longChosen, export.HeadlineRunes), "…"))), rationale: "Safe retries"},
		{name: "all different", d: export.Decision{Title: "Retry policy", Context: "Payouts time out", Chosen: "Retry with a key", Rationale: "Keys make retries safe"},
			context: "Payouts time out", chosen: "Retry with a key", rationale: "Keys make retries safe"},
		{name: "chosen repeats the context", d: export.Decision{Title: "Fail-closed", Context: "Fail-closed (Option 2) for the gate.", Chosen: "fail-closed  (option 2) for the gate"},
			context: "Fail-closed (Option 2) for the gate."},
		{name: "chosen is the title", d: export.Decision{Title: "Fail-closed (Option 2)", Chosen: "Fail-closed (Option 2)"}},
		{name: "context is the title", d: export.Decision{Title: "Use the cache", Context: "use the *cache*", Chosen: "Redis"}, chosen: "Redis"},
		{name: "rationale repeats the context", d: export.Decision{Title: "T", Context: "The gate must never pass a bad build", Rationale: "The gate must never pass a bad build."},
			context: "The gate must never pass a bad build"},
		{name: "rationale inside the context", d: export.Decision{Title: "T", Context: "We chose speed; never pass a bad build, whatever it costs", Rationale: "Never pass a bad build"},
			context: "We chose speed; never pass a bad build, whatever it costs"},
		{name: "a word in common is not a repeat", d: export.Decision{Title: "Cache", Context: "Cache misses", Rationale: "Cache"},
			context: "Cache misses"},
		{name: "chosen among the options", d: export.Decision{Title: "T", Options: []string{"A", "B"}, Chosen: "B", Rationale: "B"}},
		{name: "markup is escaped", d: export.Decision{Title: "T", Chosen: "<b>x</b>"}, chosen: "<b>x</b>"},
	}
	md := newMarkdown()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := renderDecision(tt.d, md, nil)
			if want := cmp.Or(tt.title, tt.d.Title); plainHTML(got.Title) != want {
				t.Errorf("title %q, want %q", got.Title, want)
			}
			if plainHTML(got.Context) != tt.context || plainHTML(got.Chosen) != tt.chosen || plainHTML(got.Rationale) != tt.rationale {
				t.Errorf("context %q, chosen %q, rationale %q; want %q, %q, %q", got.Context, got.Chosen, got.Rationale, tt.context, tt.chosen, tt.rationale)
			}
			if strings.Contains(got.Chosen, "<b>") {
				t.Errorf("a chosen option's markup became markup: %q", got.Chosen)
			}
		})
	}
}

// TestPatternHeading: a pattern's heading is a few words, its title or
// its name, never its rule (the line under the heading).
func TestPatternHeading(t *testing.T) {
	tests := []struct {
		name string
		p    export.Pattern
		want string
	}{
		{"title is the id", export.Pattern{ID: "PATTERN-cache-with-ttl", Title: "PATTERN-cache-with-ttl", Trigger: "A hot path", Action: "Cache it"}, "Cache with ttl"},
		{"no title", export.Pattern{ID: "ANTIPATTERN-big-bang", Trigger: "Several changes", Action: "Ship them together"}, "Big bang"},
		{"a title of its own", export.Pattern{ID: "PATTERN-x", Title: "Cache *hot* paths", Trigger: "A hot path", Action: "Cache it"}, "Cache hot paths"},
		{"a long title", export.Pattern{ID: "PATTERN-x", Title: strings.Repeat("y", 300)}, strings.Repeat("y", export.HeadlineRunes-1) + "…"},
		{"an id alone", export.Pattern{ID: "P1"}, "P1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := patternHeading(tt.p); got != tt.want {
				t.Errorf("patternHeading = %q, want %q", got, tt.want)
			}
		})
	}
}
