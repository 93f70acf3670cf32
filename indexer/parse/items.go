package parse

import (
	"strings"

	"github.com/engramhq/engram/indexer/note"
)

func (w *walker) openDecision(heading string, line int) {
	d := note.Decision{Line: line}
	if m := decisionRE.FindStringSubmatch(heading); m != nil {
		d.ID, d.Title = m[1], strings.TrimSpace(m[2])
	} else {
		d.ID = heading
		d.Title = heading
	}
	w.decision = &d
}

func (w *walker) closeDecision() {
	if w.decision == nil {
		return
	}
	d := *w.decision
	w.decision = nil
	if d.Chosen != "" && len(d.Options) > 0 && !containsFold(d.Options, d.Chosen) {
		w.s.diags.Report(w.s.path, d.Line, 1, note.Warning, "decision-chosen", "decision %s chose %q, which is not one of its options", d.ID, d.Chosen)
	}
	w.s.n.Episode.Decisions = append(w.s.n.Episode.Decisions, d)
}

func containsFold(list []string, s string) bool {
	for _, e := range list {
		if strings.EqualFold(e, s) {
			return true
		}
	}
	return false
}

// decisionField reads "- **Key**: value" under a "### id: title" heading.
func (w *walker) decisionField(it item) {
	if w.decision == nil {
		w.report(it.off, note.Warning, "decision-syntax", "decision details must follow a \"### d001: Title\" heading")
		return
	}
	key, value, ok := field(strings.TrimSpace(it.text))
	if !ok {
		w.report(it.off, note.Warning, "decision-syntax", "not a decision field: write \"- **Type**: design\"")
		return
	}
	d := w.decision
	switch key {
	case "timestamp":
		if t, err := ParseTime(value); err == nil {
			value = t.Format("2006-01-02T15:04:05Z07:00")
		} else if value != "" {
			w.report(it.off, note.Warning, "decision-timestamp", "decision timestamp %q is not a date; kept as written", value)
		}
		d.Timestamp = value
	case "type":
		d.Type = note.DecisionType(strings.ToLower(value))
		if !d.Type.Valid() {
			w.report(it.off, note.Warning, "decision-type", "decision type %q is not design, implementation, test, recovery, routing or other", value)
		}
	case "context":
		d.Context = value
	case "options":
		d.Options = splitList(value)
	case "chosen":
		d.Chosen = value
	case "rationale":
		d.Rationale = value
	case "outcome":
		d.Outcome = note.Outcome(strings.ToLower(value))
		if d.Outcome != "" && !d.Outcome.Valid() {
			w.report(it.off, note.Warning, "decision-outcome", "decision outcome %q is not "+note.OutcomeList, value)
		}
	case "effects":
		d.Effects = w.itemLinks(it)
	default:
		w.report(it.off, note.Warning, "decision-field", "unknown decision field %q", key)
	}
}

// itemLinks returns the wikilinks of a list item with their positions.
func (w *walker) itemLinks(it item) []note.Link {
	var out []note.Link
	for _, m := range wikilinkRE.FindAllStringSubmatchIndex(blankCode(it.text), -1) {
		l := splitLink(it.text[m[2]:m[3]])
		if l.Target == "" {
			continue
		}
		l.Line, l.Col = w.b.pos(it.offset(m[0]))
		out = append(out, l)
	}
	return out
}

// causal reads "- causes [[Target]] (weight 0.8)". A relation of another
// type is kept as a relation, not as a causal edge.
func (w *walker) causal(it item) {
	r, ok := relation(strings.TrimSpace(it.text))
	if !ok {
		w.report(it.off, note.Warning, "causal-syntax", "not a causal relationship: write \"- causes [[Target]] (weight 0.8)\"")
		return
	}
	off := it.offset(strings.Index(it.text, "[["))
	line, col := w.b.pos(off)
	typ := note.EdgeType(strings.ToLower(r.Type))
	if !typ.Causal() {
		w.report(off, note.Warning, "causal-type", "%q is not a causal type (causes, enables, prevents, correlates); kept as a relation", r.Type)
		r.Line, r.Col = line, col
		w.s.n.Relations = append(w.s.n.Relations, r)
		return
	}
	c := note.CausalLink{Type: typ, Target: r.Target, Line: line, Col: col}
	if wt, found, valid := weight(r.Context); found {
		if valid {
			c.Weight = &wt
		} else {
			w.report(off, note.Warning, "causal-weight", "weight in %q is outside (0, 1]; the default weight is used", r.Context)
		}
	}
	w.s.n.Pattern.Causal = append(w.s.n.Pattern.Causal, c)
}

// evidence reads "- [[EPISODE-…]] - success" with optional free text.
func (w *walker) evidence(it item) {
	text := strings.TrimSpace(it.text)
	m := evidenceRE.FindStringSubmatch(text)
	if m == nil {
		w.report(it.off, note.Warning, "evidence-syntax", "not an evidence line: write \"- [[EPISODE-…]] - success|partial|failure\"")
		return
	}
	off := it.offset(strings.Index(it.text, "[["))
	line, col := w.b.pos(off)
	ev := note.Evidence{Target: splitLink(m[1]).Target, Line: line, Col: col}
	outcome := note.Outcome(strings.ToLower(strings.Trim(m[2], ".,;:()")))
	rest := strings.TrimSpace(m[3])
	if outcome.Valid() {
		ev.Outcome = outcome
	} else {
		w.report(off, note.Warning, "evidence-outcome", "evidence for %s has outcome %q, not "+note.OutcomeList+"; it is not counted", ev.Target, m[2])
		rest = strings.TrimSpace(m[2] + " " + rest)
	}
	ev.Text = strings.TrimSpace(strings.TrimLeft(rest, "-–—:, "))
	w.s.n.Pattern.Evidence = append(w.s.n.Pattern.Evidence, ev)
}
