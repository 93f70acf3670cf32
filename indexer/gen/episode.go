package gen

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/note"
)

// doc builds a note a line at a time and counts lines, so that the line a
// diagnostic should point at is known when it is written.
type doc struct {
	b []byte
	n int
}

// reset empties d, keeping its buffer for the next note.
func (d *doc) reset() {
	d.b = d.b[:0]
	d.n = 0
}

// line writes the concatenation of parts as one line and returns its
// 1-based number.
func (d *doc) line(parts ...string) int {
	for _, p := range parts {
		d.b = append(d.b, p...)
	}
	d.b = append(d.b, '\n')
	d.n++
	return d.n
}

// section writes a level-2 heading after a blank line.
func (d *doc) section(title string) {
	d.line()
	d.line("## ", title)
	d.line()
}

func itoa(i int) string { return strconv.Itoa(i) }

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// textRand gives a note's body text its own stream, so that every revision
// of the note repeats the same text.
func textRand(it *item) *rand.Rand { return rand.New(rand.NewPCG(it.seed, 1)) }

func renderEpisode(d *doc, it *item) {
	r := textRand(it)
	episodeFrontMatter(d, it, r)
	contextSection(d, it, r)
	observations(d, r, true)
	it.Decisions = decisions(d, r, it.session)
	events(d, r, it.session)
	lessons(d, r, it.rev)
	if it.Lesson.Text != "" {
		d.line("- ", it.Lesson.Text)
	}
	relations(d, it)
}

func episodeFrontMatter(d *doc, it *item, r *rand.Rand) {
	d.line("---")
	d.line("title: ", it.Title)
	d.line("type: episode")
	if it.dateText != "" {
		d.line("date: ", it.dateText)
	}
	d.line("outcome: ", it.Outcome)
	d.line("task: ", it.Task)
	d.line("tags: [", strings.Join(it.Tags, ", "), "]")
	d.line("duration_minutes: ", itoa(5+r.IntN(120)))
	metrics(d, r)
	d.line("---")
}

func metrics(d *doc, r *rand.Rand) {
	errs := r.IntN(5)
	d.line("metrics:")
	d.line("  tool_calls: ", itoa(5+r.IntN(80)))
	d.line("  errors: ", itoa(errs))
	d.line("  recoveries: ", itoa(r.IntN(errs+1)))
	d.line("  commits: ", itoa(r.IntN(5)))
	d.line("  files_changed: ", itoa(1+r.IntN(20)))
}

// contextSection writes the Context section, which carries the planted word.
func contextSection(d *doc, it *item, r *rand.Rand) {
	d.section("Context")
	d.line("Work on the ", pick(r, subjects), " turned up ", pick(r, problems),
		"; the team tracked it as ", it.Word, ".")
	if it.rev > 0 {
		d.line("Revised in revision ", itoa(it.rev), " after review.")
	}
}

// observations writes 2 to 4 observations; in an episode the first is
// sometimes about decision d001, using the [category:id] form.
func observations(d *doc, r *rand.Rand, episode bool) {
	d.section("Observations")
	for k := range 2 + r.IntN(3) {
		category := pick(r, categories)
		if episode && k == 0 && r.IntN(5) == 0 {
			category = "decision:d001"
		}
		tags := " #" + pick(r, tagWords)
		if s := pick(r, strengths); s != "" {
			tags += " " + s
		}
		ctx := ""
		if r.IntN(2) == 0 {
			ctx = " (seen in the " + pick(r, subjects) + ")"
		}
		d.line("- [", category, "] The ", pick(r, subjects), " showed ", pick(r, problems), tags, ctx)
	}
}

// decisions writes one to three decisions and returns their ground truth.
func decisions(d *doc, r *rand.Rand, at time.Time) []Decision {
	d.section("Decisions")
	n := 1 + r.IntN(3)
	var out []Decision
	for k := 1; k <= n; k++ {
		id := decisionID(k)
		opts := pickN(r, choices, 2+r.IntN(2))
		if k > 1 {
			d.line()
		}
		d.line("### ", id, ": How to handle the ", pick(r, subjects))
		d.line()
		d.line("- **Timestamp**: ", stamp(at.Add(time.Duration(k)*time.Minute)))
		dec := Decision{ID: id, Type: string(pick(r, note.DecisionTypes())), Options: opts}
		d.line("- **Type**: ", dec.Type)
		d.line("- **Context**: The ", pick(r, subjects), " had ", pick(r, problems))
		d.line("- **Options**: ", strings.Join(opts, ", "))
		dec.Chosen = opts[r.IntN(len(opts))]
		d.line("- **Chosen**: ", dec.Chosen)
		d.line("- **Rationale**: It keeps the ", pick(r, subjects), " simple")
		dec.Outcome = outcome(r.IntN(3))
		d.line("- **Outcome**: ", dec.Outcome)
		if k < n {
			d.line("- **Effects**: [[", decisionID(k+1), "]]")
		}
		out = append(out, dec)
	}
	return out
}

func decisionID(k int) string {
	s := itoa(k)
	return "d" + strings.Repeat("0", max(3-len(s), 0)) + s
}

func events(d *doc, r *rand.Rand, at time.Time) {
	d.section("Events Timeline")
	n := 3 + r.IntN(3)
	for k := 1; k <= n; k++ {
		at = at.Add(time.Duration(1+r.IntN(20)) * time.Minute)
		d.line(itoa(k), ". [", stamp(at), "] ", pick(r, verbs), " the ", pick(r, subjects), " #", pick(r, eventTypes))
	}
}

func lessons(d *doc, r *rand.Rand, rev int) {
	d.section("Lessons Learned")
	for range 1 + r.IntN(2) {
		d.line("- ", lesson(r))
	}
	if rev > 0 {
		d.line("- Revisit old notes when the ", subjects[rev%len(subjects)], " changes")
	}
}

// lesson fills a template with two subjects; the few combinations make
// lessons recur across episodes, as real ones do.
func lesson(r *rand.Rand) string {
	t := pick(r, lessonTemplates)
	return strings.Replace(strings.Replace(t, "%s", pick(r, subjects), 1), "%s", pick(r, subjects), 1)
}

func relations(d *doc, it *item) {
	if len(it.Links) == 0 {
		return
	}
	d.section("Relations")
	for k, target := range it.Links {
		d.line("- ", it.rels[k], " [[", target, "]]")
	}
}
