package extract

import (
	"regexp"
	"strings"
)

var (
	decisionLabelRE = regexp.MustCompile(`(?i)^(key |technical |major )?decisions?( made)?$`)
	verdictKeyRE    = regexp.MustCompile(`(?i)^(decision|verdict|chosen)$`)
	rationaleKeyRE  = regexp.MustCompile(`(?i)^(rationale|reason|why)$`)
	genericHeadRE   = regexp.MustCompile(`(?i)^((key |technical |major )?decisions?( made)?|work log|session end.*|summary|notes?|progress|outcomes?|session \d+.*|\d{4}-\d{2}-\d{2}.*)$`)
	leadBoldRE      = regexp.MustCompile(`^\*\*([^*]+?):?\*\*\s*[:\-–—]?\s*(.*)$`)

	designRE   = regexp.MustCompile(`(?i)\b(design\w*|architect\w*|schema|structure|interface)\b`)
	testTypeRE = regexp.MustCompile(`(?i)\b(tests?|testing|pester|coverage|assert\w*|pass rate)\b`)
	recoverRE  = regexp.MustCompile(`(?i)\b(recover\w*|fix|fixes|fixing|hotfix\w*|retry|retries|fallback|revert\w*|roll ?back|remediat\w*|workaround)\b`)
	routingRE  = regexp.MustCompile(`(?i)\b(route|routing|delegat\w*|hand-?off\w*|escalat\w*)\b`)
)

// Decision is one decision the log records.
type Decision struct {
	Title     string
	Type      string // design, implementation, test, recovery or routing
	Context   string // the task it was made in
	Chosen    string
	Rationale string // "" when the log gives none
	Outcome   string // the task's outcome, else the session's
	Line      int    // where the log states it
}

// decisions finds the decisions of a log: the items of a "Decisions"
// section or of a "**Decisions made**:" list, one decision per item, one
// per subsection of a section with subsections, and "**Decision**:" or
// "**Verdict**:" fields. Lines it takes are marked in used.
func (d *doc) decisions(st statuses, outcome, task string, used map[int]bool) []Decision {
	var out []Decision
	add := func(i int, chosen, rationale string) {
		chosen = inline(chosen, maxText)
		if chosen == "" {
			return
		}
		dec := Decision{Title: cut(chosen, 100), Chosen: chosen, Rationale: inline(rationale, maxText), Line: d.lines[i].n}
		dec.Type = decisionType(chosen + " " + dec.Rationale)
		dec.Context = d.taskOf(i, task)
		dec.Outcome = d.taskOutcome(i, st, outcome)
		out = append(out, dec)
	}
	for i := 0; i < len(d.lines); i++ {
		l := d.lines[i]
		switch {
		case l.code || used[i]:
		case l.level >= 2 && decisionLabelRE.MatchString(l.head):
			end := d.sectionEnd(i)
			d.decisionSection(i, end, add)
			markRange(used, i, end)
			i = end - 1
		case decisionLabelRE.MatchString(l.key) && l.val == "":
			b := d.listAfter(i+1, d.limit(i))
			for _, it := range b.items {
				chosen, rationale := splitLead(it)
				add(it.first, chosen, rationale)
				mark(used, it.lines)
			}
			used[i] = true
		case (decisionLabelRE.MatchString(l.key) || strings.EqualFold(l.key, "decision")) && l.val != "":
			add(i, l.val, "")
			used[i] = true
		}
	}
	return out
}

// decisionSection reads a "## Decisions" section: a decision per
// subsection, else one per list item, else one from its fields.
func (d *doc) decisionSection(h, end int, add func(int, string, string)) {
	sub := false
	for i := h + 1; i < end; i++ {
		if l := d.lines[i]; l.level > 0 && l.path[len(l.path)-1] == h {
			sub = true
			add(i, d.chosenIn(i, d.sectionEnd(i), l.head), d.rationaleIn(i+1, d.sectionEnd(i)))
		}
	}
	if sub {
		return
	}
	b := d.listAfter(h+1, end)
	if len(b.items) > 0 && d.lines[b.items[0].first].item {
		for _, it := range b.items {
			chosen, rationale := splitLead(it)
			add(it.first, chosen, rationale)
		}
		return
	}
	add(h, d.chosenIn(h, end, d.lines[h].head), d.rationaleIn(h+1, end))
}

// chosenIn is what a decision section chose: its Decision, Verdict or
// Chosen field, else its first paragraph, else its heading.
func (d *doc) chosenIn(h, end int, fallback string) string {
	for i := h + 1; i < end; i++ {
		if l := d.lines[i]; !l.code && verdictKeyRE.MatchString(l.key) && l.val != "" {
			return l.val
		}
	}
	for i := h + 1; i < end; i++ {
		l := d.lines[i]
		if l.level > 0 {
			break
		}
		if l.trim != "" && !l.item && !l.table && !l.code && l.key == "" {
			b := d.paragraphAfter(i, end)
			if len(b.items) == 0 {
				continue
			}
			text := join(inline(b.items[0].text, maxText), b.items[0].sub)
			if strings.HasSuffix(text, ":") {
				if more := d.listAfter(b.end, end); len(more.items) > 0 && d.lines[more.items[0].first].item {
					text = join(text, itemTexts(more.items))
				}
			}
			return text
		}
	}
	return fallback
}

// rationaleIn reads a "**Rationale**:" field, with the list after it.
func (d *doc) rationaleIn(from, end int) string {
	for i := from; i < end; i++ {
		l := d.lines[i]
		if l.level > 0 {
			break
		}
		if l.code || !rationaleKeyRE.MatchString(l.key) {
			continue
		}
		text := inline(l.val, maxText)
		if text == "" || strings.HasSuffix(text, ":") {
			b := d.listAfter(i+1, end)
			text = join(text, itemTexts(b.items))
		}
		return text
	}
	return ""
}

// splitLead splits "**Manual resolution**: because …" into what was
// chosen and why; an item without a bold lead is all choice, its nested
// items the rationale.
func splitLead(it blockItem) (chosen, rationale string) {
	if m := leadBoldRE.FindStringSubmatch(it.text); m != nil {
		return m[1], join(inline(m[2], maxText), it.sub)
	}
	return it.text, join("", it.sub)
}

func decisionType(s string) string {
	switch {
	case designRE.MatchString(s):
		return "design"
	case testTypeRE.MatchString(s):
		return "test"
	case recoverRE.MatchString(s):
		return "recovery"
	case routingRE.MatchString(s):
		return "routing"
	}
	return "implementation"
}

// taskOf names the task line i belongs to: its nearest heading below the
// title that names one, else the session's task.
func (d *doc) taskOf(i int, task string) string {
	p := d.lines[i].path
	for k := len(p) - 1; k >= 0; k-- {
		if l := d.lines[p[k]]; l.level >= 2 && !genericHeadRE.MatchString(l.head) && !notWorkRE.MatchString(l.head) {
			return inline(l.head, maxText)
		}
	}
	return task
}

// taskOutcome is the outcome of the task line i belongs to, or else the
// session's.
func (d *doc) taskOutcome(i int, st statuses, session string) string {
	p := d.lines[i].path
	for k := len(p) - 1; k >= 0; k-- {
		if o, ok := st.byHead[p[k]]; ok {
			return o
		}
	}
	return session
}

// limit is the end of the section line i is in.
func (d *doc) limit(i int) int {
	if p := d.lines[i].path; len(p) > 0 {
		return d.sectionEnd(p[len(p)-1])
	}
	for k := i + 1; k < len(d.lines); k++ {
		if d.lines[k].level > 0 {
			return k
		}
	}
	return len(d.lines)
}

func mark(used map[int]bool, lines []int) {
	for _, i := range lines {
		used[i] = true
	}
}

func markRange(used map[int]bool, from, to int) {
	for i := from; i < to; i++ {
		used[i] = true
	}
}
