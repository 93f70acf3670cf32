package aiagents

import (
	"fmt"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/note"
)

// EpisodeOf returns an episode note (markdown, or JSON as Decode reads
// it) as an episode file. created stands in for the timestamp when the
// note has no date. A note that engram import wrote keeps, in its
// ai_agents front matter, the values its markdown cannot hold exactly
// (sub-second times, event ids, options with commas, ...): each is used
// while the markdown still shows what the import wrote there, so an edit
// of the note wins over it. The diagnostics say when some were set aside.
func EpisodeOf(n *note.Note, created time.Time) (Episode, []note.Diagnostic) {
	e, mdIDs := plainEpisode(n)
	var diags []note.Diagnostic
	if raw, ok := n.Extra[sidecarKey]; ok {
		s, err := readSidecar(raw)
		if err != nil {
			diags = append(diags, sidecarDiag(n, "ai_agents front matter is unreadable (%v); ignored", err))
		} else if stale := s.apply(&e, mdIDs); len(stale) > 0 {
			diags = append(diags, sidecarDiag(n, "ai_agents values %s no longer match the note, which was edited; the note's values are exported", strings.Join(stale, ", ")))
		}
	}
	if e.Timestamp == "" && !created.IsZero() {
		e.Timestamp = created.UTC().Format(time.RFC3339Nano)
	}
	return e, diags
}

func sidecarDiag(n *note.Note, format string, args ...any) note.Diagnostic {
	return note.Diagnostic{Path: n.Path, Line: 1, Col: 1, Severity: note.Info, Rule: "aiagents-export", Message: fmt.Sprintf(format, args...)}
}

// partIDs are the ids of an episode's decisions and events as its note
// writes them, before the sidecar maps them back.
type partIDs struct{ decisions, events []string }

// plainEpisode exports the note through episodeFields.
func plainEpisode(n *note.Note) (Episode, partIDs) {
	e := Episode{Extra: map[string]any{}}
	exportPart(episodeFields, n, &e)
	var ids partIDs
	for _, d := range n.Episode.Decisions {
		ids.decisions = append(ids.decisions, d.ID)
	}
	for _, ev := range n.Episode.Events {
		ids.events = append(ids.events, ev.ID)
	}
	for k, v := range n.Extra {
		if k != sidecarKey {
			e.Extra[k] = v
		}
	}
	return e, ids
}

// metricsOf returns the metrics, with duration_minutes from the front
// matter field when the metrics lack it; nil for none.
func metricsOf(ep *note.Episode) map[string]float64 {
	var m map[string]float64
	for k, v := range ep.Metrics {
		if m == nil {
			m = map[string]float64{}
		}
		m[k] = v
	}
	if d := ep.DurationMinutes; d != nil {
		if _, ok := m["duration_minutes"]; !ok {
			if m == nil {
				m = map[string]float64{}
			}
			m["duration_minutes"] = *d
		}
	}
	return m
}
