package parse

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

// formatFields are the fuzzer's strings, one for each part of a note.
type formatFields struct {
	title, task, outcome, tag, extraKey, extraValue, context                                 string
	decID, decTitle, decTS, decType, decContext, decOption, decChosen, decRationale, decOutc string
	evTS, evText, evType, lesson, trigger, action, target, evidenceText                      string
	pick                                                                                     uint8
	weight                                                                                   float64
}

// noteOf builds the note the fuzzer's strings make: an episode, or a
// pattern when pick is odd.
func noteOf(f formatFields) note.Note {
	n := note.Note{Kind: note.KindEpisode, Type: "episode", Title: f.title, Tags: []string{f.tag},
		Extra:    map[string]any{"x_" + strings.ToValidUTF8(f.extraKey, "\uFFFD"): f.extraValue},
		Sections: []note.Section{{Heading: "Context", Markdown: f.context}}}
	outcomes := note.Outcomes()
	if f.pick%2 == 1 {
		w := f.weight
		n.Kind, n.Type = note.KindPattern, "pattern"
		n.Pattern = &note.Pattern{Trigger: f.trigger, Action: f.action,
			Causal:   []note.CausalLink{{Type: note.CausalTypes()[f.pick/2%4], Target: f.target, Weight: &w}},
			Evidence: []note.Evidence{{Target: f.target, Outcome: outcomes[f.pick/8%3], Text: f.evidenceText}}}
		return n
	}
	n.Episode = &note.Episode{Outcome: note.Outcome(f.outcome), Task: f.task,
		Decisions: []note.Decision{{ID: f.decID, Title: f.decTitle, Timestamp: f.decTS, Type: note.DecisionType(f.decType), Context: f.decContext,
			Options: []string{f.decOption, f.decChosen}, Chosen: f.decChosen, Rationale: f.decRationale, Outcome: note.Outcome(f.decOutc),
			Effects: []note.Link{{Target: f.target}}}},
		Events:  []note.Event{{Timestamp: f.evTS, Type: f.evType, Text: f.evText, CausedBy: []string{"e001"}}},
		Lessons: []note.Lesson{{Text: f.lesson}}}
	return n
}

// carried reports whether Format can carry n at all; what it cannot is
// documented on Format and refused by every writer (or escaped there).
func carried(n note.Note) bool {
	for _, s := range n.Sections {
		// A section's markdown must close what it opens: an open fence or
		// HTML block would run over the next sections.
		if strings.ContainsAny(s.Markdown, "`~<") {
			return false
		}
	}
	if e := n.Episode; e != nil {
		for _, ev := range e.Events {
			// An event's text may not end as its type or links do.
			if t := " " + OneLine(ev.Text); eventTypeRE.MatchString(t) || eventLinkRE.MatchString(t) {
				return false
			}
		}
	}
	return true
}

// normalize is n as Format writes it and Parse reads it back: what the
// format cannot carry as it is, as Format's doc comment lists it.
func normalize(n note.Note) note.Note {
	n = cleanStrings(n)
	if t, _ := cleanTitle(n.Title); t != "" {
		n.Title = t
	} else {
		n.Title = "x"
	}
	var tags []string
	for _, t := range n.Tags {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	n.Tags = tags
	for i := range n.Sections {
		n.Sections[i].Markdown = strings.TrimSpace(ProseText(n.Sections[i].Markdown))
	}
	if e := n.Episode; e != nil {
		e.Outcome, e.Task = note.Outcome(strings.ToLower(strings.TrimSpace(string(e.Outcome)))), strings.TrimSpace(e.Task)
		for i := range e.Decisions {
			normalizeDecision(&e.Decisions[i], i)
		}
		for i := range e.Events {
			normalizeEvent(&e.Events[i], i)
		}
		var ls []note.Lesson
		for _, l := range e.Lessons {
			if t := ItemText(l.Text); t != "" {
				ls = append(ls, note.Lesson{Text: t})
			}
		}
		e.Lessons = ls
	}
	if p := n.Pattern; p != nil {
		p.Trigger, p.Action = strings.TrimSpace(p.Trigger), strings.TrimSpace(p.Action)
		for i := range p.Evidence {
			ev := &p.Evidence[i]
			ev.Target = linkTarget(ev.Target)
			ev.Text = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(OneLine(ev.Text)), "-–—:, "))
		}
		for i := range p.Causal {
			p.Causal[i].Target = linkTarget(p.Causal[i].Target)
		}
	}
	return n
}

func normalizeDecision(d *note.Decision, i int) {
	if !IsWord(d.ID) {
		d.ID = fmt.Sprintf("d%03d", i+1)
	}
	one := func(s string) string { return strings.TrimSpace(OneLine(s)) }
	if d.Title = titleText(d.Title); d.Title == "" {
		d.Title = d.ID // "### d001" is its own title
	}
	d.Timestamp = timestamp(one(d.Timestamp))
	d.Type, d.Outcome = note.DecisionType(strings.ToLower(one(string(d.Type)))), note.Outcome(strings.ToLower(one(string(d.Outcome))))
	d.Context, d.Chosen, d.Rationale = one(d.Context), one(d.Chosen), one(d.Rationale)
	for k, o := range d.Options {
		d.Options[k] = OneLine(o)
	}
	d.Options = splitList(strings.Join(d.Options, ", "))
	for k := range d.Effects {
		d.Effects[k].Target = linkTarget(d.Effects[k].Target)
	}
}

func normalizeEvent(e *note.Event, i int) {
	e.ID = fmt.Sprintf("e%03d", i+1)
	e.Timestamp = timestamp(strings.TrimSpace(strings.NewReplacer("[", "(", "]", ")").Replace(OneLine(e.Timestamp))))
	e.Text = strings.TrimSpace(OneLine(e.Text))
	if e.Type = strings.ToLower(e.Type); !IsWord(e.Type) {
		e.Type = ""
	}
	if e.Text == "" && e.Type != "" {
		e.Text, e.Type = "#"+e.Type, "" // "[ts] #type": no text before the type
	}
}

// timestamp is a decision's or an event's timestamp as the parser reads
// it: a time in RFC 3339, else the text.
func timestamp(s string) string {
	if t, err := ParseTime(s); err == nil {
		return t.Format("2006-01-02T15:04:05Z07:00")
	}
	return s
}

// linkTarget is a wikilink target the fuzzer can give: one that is a
// note title (the writers refuse others).
func linkTarget(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "[]|#`\r\n\x00") {
		return "Target"
	}
	return s
}

// cleanStrings makes every string valid UTF-8, as Parse reads a file.
func cleanStrings(n note.Note) note.Note {
	var fix func(v reflect.Value)
	fix = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			v.SetString(strings.ToValidUTF8(v.String(), "\uFFFD"))
		case reflect.Pointer:
			if !v.IsNil() {
				fix(v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				fix(v.Field(i))
			}
		case reflect.Slice:
			for i := range v.Len() {
				fix(v.Index(i))
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				if s, ok := v.MapIndex(k).Interface().(string); ok {
					v.SetMapIndex(k, reflect.ValueOf(strings.ToValidUTF8(s, "\uFFFD")))
				}
			}
		}
	}
	fix(reflect.ValueOf(&n).Elem())
	return n
}

// readBack is what Parse reads of Format(n), without positions and what
// Parse derives (links, observations, relations).
func readBack(t *testing.T, n note.Note) note.Note {
	data := Format(n, FormatOptions{})
	got, _, err := New(Roots{}).Parse("notes/x.md", data)
	if err != nil {
		t.Fatalf("Format wrote a note Parse refuses: %v\n%s", err, data)
	}
	got.Path, got.Links, got.Observations, got.Relations = "", nil, nil, nil
	clearLines(reflect.ValueOf(&got).Elem())
	return got
}

// clearLines zeroes the Line and Col fields, at any depth.
func clearLines(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			clearLines(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if name := v.Type().Field(i).Name; name == "Line" || name == "Col" {
				v.Field(i).SetInt(0)
			} else {
				clearLines(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			clearLines(v.Index(i))
		}
	}
}

// FuzzFormat holds Parse(Format(n)) equal to n, n normalised as Format's
// doc comment says, for notes made of the fuzzer's strings.
func FuzzFormat(f *testing.F) {
	// The shapes of the real corpus: engram new, ai-agents import.
	f.Add("EPISODE-2026-03-02-session-42", "Make the webhook client retry", "success", "session-log", "source_log", "x.md",
		"Extracted by engram extract.\n\n- **Branch**: fix/retry", "d001", "Retry with backoff", "2026-03-02T10:00:00Z", "recovery",
		"Task 1: Reproduce", "fixed", "backoff", "intervals hammered the endpoint", "success",
		"2026-03-02", "Webhook delivery failed under load", "error", "Jitter matters as much as the backoff", "a retry storm", "add jitter",
		"EPISODE-2026-03-02-session-42", "saw it twice", uint8(0), 0.8)
	f.Add("PATTERN-retry-jitter", "", "", "", "written_by", "engram", "# not a heading\n===", "d 1", "[[x]] title ##",
		"[2026]", "Design", "ctx", "a, b", "b", "", "Partial", "[ts]", "## lesson", "Tool_Call", "1. numbered",
		"when retries align", "spread them", "EPISODE-x", "- : partial note", uint8(5), 1e-05)
	f.Fuzz(func(t *testing.T, title, task, outcome, tag, extraKey, extraValue, context, decID, decTitle, decTS, decType,
		decContext, decOption, decChosen, decRationale, decOutc, evTS, evText, evType, lesson, trigger, action, target, evidenceText string,
		pick uint8, weight float64) {
		if !(weight > 0 && weight <= 1) {
			weight = 0.5
		}
		n := noteOf(formatFields{title, task, outcome, tag, extraKey, extraValue, context, decID, decTitle, decTS, decType,
			decContext, decOption, decChosen, decRationale, decOutc, evTS, evText, evType, lesson, trigger, action, target, evidenceText,
			pick, weight})
		if !carried(n) {
			return
		}
		want := normalize(n)
		if got := readBack(t, want); !reflect.DeepEqual(got, want) {
			t.Fatalf("Parse(Format(n)) differs from n:\n got  %#v\n want %#v\n%s", got, want, Format(want, FormatOptions{}))
		}
	})
}
