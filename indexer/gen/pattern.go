package gen

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

func renderPattern(d *doc, it *item) {
	r := textRand(it)
	p := it.Pattern
	patternFrontMatter(d, it)
	contextSection(d, it, r)
	d.section("Trigger")
	d.line(strings.ToUpper(p.Trigger[:1]), p.Trigger[1:], ".")
	d.section("Action")
	d.line(strings.ToUpper(p.Action[:1]), p.Action[1:], ".")
	observations(d, r, false)
	causal(d, r, p.Edges)
	evidence(d, r, p.Evidence)
	if it.Type == "antipattern" {
		d.section("Anti-Pattern Warning")
		d.line("Do not ", p.Action, " without checking the ", pick(r, subjects), ".")
	}
}

func patternFrontMatter(d *doc, it *item) {
	p := it.Pattern
	d.line("---")
	d.line("title: ", it.Title)
	d.line("type: ", it.Type)
	d.line("tags: [", strings.Join(it.Tags, ", "), "]")
	d.line("trigger: ", p.Trigger)
	d.line("action: ", p.Action)
	d.line("success_rate: ", strconv.FormatFloat(p.DeclaredSuccessRate, 'f', 2, 64))
	d.line("occurrences: ", itoa(p.DeclaredOccurrences))
	d.line("last_validated: ", p.LastValidated.Format(time.DateOnly))
	d.line("---")
}

// causal writes the causal relationships; a line without a weight
// sometimes has another context, which must not be read as a weight.
func causal(d *doc, r *rand.Rand, edges []Edge) {
	if len(edges) == 0 {
		return
	}
	d.section("Causal Relationships")
	for _, e := range edges {
		ctx := ""
		switch {
		case e.Weight != 0:
			ctx = " (weight " + strconv.FormatFloat(e.Weight, 'f', 1, 64) + ")"
		case r.IntN(2) == 0:
			ctx = " (seen in review)"
		}
		d.line("- ", e.Type, " [[", e.Target, "]]", ctx)
	}
}

// evidence writes the evidence episodes; free text sometimes follows the
// outcome, as SPEC §2.2 allows.
func evidence(d *doc, r *rand.Rand, ev []Evidence) {
	if len(ev) == 0 {
		return
	}
	d.section("Evidence Episodes")
	for _, e := range ev {
		tail := ""
		if r.IntN(3) == 0 {
			tail = " after a second try"
		}
		d.line("- [[", e.Episode, "]] - ", e.Outcome, tail)
	}
}
