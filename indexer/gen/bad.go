package gen

import "strings"

// invalidDates are the values an InvalidDate note takes in turn.
var invalidDates = []string{"2026-02-30T10:00:00Z", "2026-13-01", "last tuesday"}

// renderBad writes a bad note and records in it.Line where its diagnostic
// should point. The body is an ordinary one with the planted word, no
// wikilinks and no "---" line.
func renderBad(d *doc, it *item) {
	switch it.Bad {
	case BrokenYAML:
		d.line("---")
		d.line("title: ", it.Title)
		d.line("type: episode")
		d.line("outcome: success")
		it.Line = d.line("tags: [", pick(textRand(it), tagWords), ", bug")
		d.line("---")
	case UnclosedFrontMatter:
		it.Line = d.line("---")
		d.line("title: ", it.Title)
		d.line("type: episode")
		d.line("outcome: partial")
	case ListFrontMatter:
		d.line("---")
		it.Line = d.line("- title: ", it.Title)
		d.line("- type: episode")
		d.line("- outcome: failure")
		d.line("---")
	case MissingOutcome:
		it.Line = d.line("---")
		badFields(d, it)
		d.line("---")
	case InvalidDate:
		d.line("---")
		d.line("title: ", it.Title)
		it.Line = d.line("date: ", invalidDates[it.variant%len(invalidDates)])
		d.line("outcome: ", it.Outcome)
		badFields(d, it)
		d.line("---")
	default:
		panic("gen: unknown Badness " + string(it.Bad))
	}
	badBody(d, it)
}

// badFields writes the valid fields of a note whose front matter parses.
func badFields(d *doc, it *item) {
	if it.Bad != InvalidDate {
		d.line("title: ", it.Title)
	}
	d.line("type: episode")
	d.line("task: ", it.Task)
	d.line("tags: [", strings.Join(it.Tags, ", "), "]")
}

func badBody(d *doc, it *item) {
	r := textRand(it)
	contextSection(d, it, r)
	lessons(d, r, 0)
}
