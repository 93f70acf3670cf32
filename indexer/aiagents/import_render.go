package aiagents

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"go.yaml.in/yaml/v3"
)

// render writes the note: front matter, then Decisions, Events Timeline
// and Lessons Learned (SPEC §2.1), through parse.Format.
func (c *conversion) render() []byte {
	e := c.md
	date := map[string]string{"date": e.Timestamp}
	var side []parse.Entry
	if len(c.side.Exact) > 0 || len(c.side.Extra) > 0 {
		side = []parse.Entry{{Key: sidecarKey, Value: c.side, Style: sidecarStyle}}
	}
	return parse.Format(c.note(), parse.FormatOptions{Dates: date, Extra: side})
}

// note is the episode as the markdown writes it.
func (c *conversion) note() note.Note {
	e := c.md
	task := e.Task
	if task == "" {
		task = e.ID // a markdown episode needs a task; the sidecar keeps ""
	}
	ep := &note.Episode{Outcome: note.Outcome(e.Outcome), Task: task, Session: e.Session, Metrics: e.Metrics}
	for i, d := range e.Decisions {
		var effects []note.Link
		for _, t := range d.Effects {
			effects = append(effects, note.Link{Target: t})
		}
		ep.Decisions = append(ep.Decisions, note.Decision{ID: d.ID, Title: c.titles[i], Timestamp: d.Timestamp, Type: note.DecisionType(d.Type),
			Context: d.Context, Options: d.Options, Chosen: d.Chosen, Rationale: d.Rationale, Outcome: note.Outcome(d.Outcome), Effects: effects})
	}
	for _, ev := range e.Events {
		ep.Events = append(ep.Events, note.Event{Timestamp: ev.Timestamp, Type: ev.Type, Text: ev.Content, CausedBy: ev.CausedBy, LeadsTo: ev.LeadsTo})
	}
	for _, l := range e.Lessons {
		if strings.TrimSpace(parse.OneLine(l)) == "" {
			l = "(empty lesson)" // an empty item is no lesson; the sidecar keeps ""
		}
		ep.Lessons = append(ep.Lessons, note.Lesson{Text: l})
	}
	n := note.Note{Kind: note.KindEpisode, Type: "episode", Title: e.ID, Private: c.private, Episode: ep}
	for k, v := range e.Extra {
		if c.top[k] {
			if n.Extra == nil {
				n.Extra = map[string]any{}
			}
			n.Extra[k] = v
		}
	}
	return n
}

// sidecarStyle writes the ai_agents key's exact values one a line:
// {value: ..., shown: ...}.
func sidecarStyle(side *yaml.Node) {
	for i := 0; i+1 < len(side.Content); i += 2 {
		if side.Content[i].Value != "exact" {
			continue
		}
		entries := side.Content[i+1]
		for j := 1; j < len(entries.Content); j += 2 {
			e := entries.Content[j]
			e.Style = yaml.FlowStyle
			if len(e.Content) == 4 && e.Content[0].Value == "shown" {
				e.Content = append(e.Content[2:], e.Content[:2]...)
			}
		}
	}
}

// safeName is s as a file name: letters, digits, '.', '_' and '-', other
// runs as one '-', at most max bytes; a name that had to be cut ends in a
// hash of s, so that it stays unique.
func safeName(s string, max int) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r == '.' || r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
		if !ok {
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		b.WriteRune(r)
		dash = r == '-'
	}
	name := strings.Trim(b.String(), "-.")
	if name != "" && len(name) <= max {
		return name
	}
	sum := sha256.Sum256([]byte(s))
	cut := name
	for len(cut) > max-9 {
		_, size := utf8.DecodeLastRuneInString(cut)
		cut = cut[:len(cut)-size]
	}
	if cut = strings.Trim(cut, "-."); cut == "" {
		cut = "x"
	}
	return cut + "-" + hex.EncodeToString(sum[:])[:8]
}
