package aiagents

import (
	"encoding/json"
	"fmt"
	"strings"
)

// sidecarKey is the front matter key where engram import keeps what the
// markdown of a note cannot hold exactly.
const sidecarKey = "ai_agents"

// sidecar is the ai_agents front matter of an imported episode.
//
// Exact maps a field (task, lessons.2, decisions.d001.options,
// events.e003.timestamp, ...; decisions and events named by their ids in
// the markdown) to its value in the JSON and to what the markdown shows
// instead; the value is exported only while the note still shows that.
// Events is the number of events the import wrote: when it changed, the
// events.* entries no longer line up and are set aside. Extra holds
// top-level JSON keys that front matter cannot carry as they are (keys
// engram reads, numbers beyond float64), as JSON text.
type sidecar struct {
	Events int               `json:"events,omitempty" yaml:"events,omitempty"`
	Exact  map[string]exact  `json:"exact,omitempty" yaml:"exact,omitempty"`
	Extra  map[string]string `json:"extra,omitempty" yaml:"extra,omitempty"`
}

type exact struct {
	Value any `json:"value" yaml:"value"`
	Shown any `json:"shown" yaml:"shown"`
}

// readSidecar reads front matter (YAML or TOML values) through JSON.
func readSidecar(raw any) (sidecar, error) {
	var s sidecar
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	return s, err
}

// apply puts the exact values into e, whose decisions and events the note
// names ids; it returns the entries set aside.
func (s sidecar) apply(e *Episode, ids partIDs) []string {
	var stale []string
	eventsOK := s.Events == 0 || s.Events == len(e.Events)
	decIDs, evIDs := map[string]string{}, map[string]string{}
	for key, x := range s.Exact {
		sec, id, field := splitKey(key)
		if field != "id" || sec == "events" && !eventsOK {
			continue
		}
		if v, ok := x.Value.(string); ok && canonical(x.Shown) == canonical(id) {
			if sec == "decisions" {
				decIDs[id] = v
			} else {
				evIDs[id] = v
			}
		}
	}
	renameParts(e, decIDs, evIDs)
	for _, key := range sortedKeys(s.Exact) {
		x := s.Exact[key]
		sec, _, field := splitKey(key)
		if field == "id" && sec != "" {
			continue
		}
		if sec == "events" && !eventsOK {
			stale = append(stale, key)
			continue
		}
		v, ok := slotOf(e, ids, key)
		if !ok || canonical(v.get()) != canonical(x.Shown) || !v.set(x.Value) {
			stale = append(stale, key)
		}
	}
	for _, k := range sortedKeys(s.Extra) {
		dec := json.NewDecoder(strings.NewReader(s.Extra[k]))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil {
			e.Extra[k] = v
		}
	}
	return stale
}

// splitKey splits "decisions.d001.context" into its section, part id and
// field; a top-level key ("task") has only a field, "lessons.2" a section
// and an id.
func splitKey(key string) (sec, id, field string) {
	sec, rest, ok := strings.Cut(key, ".")
	if !ok {
		return "", "", key
	}
	if sec == "lessons" {
		return sec, rest, ""
	}
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return sec, rest, ""
	}
	return sec, rest[:i], rest[i+1:]
}

// renameParts gives decisions and events their JSON ids, in their own
// fields and in the links that name them.
func renameParts(e *Episode, decIDs, evIDs map[string]string) {
	if len(decIDs) == 0 && len(evIDs) == 0 {
		return
	}
	rename := func(ids []string, maps ...map[string]string) []string {
		var out []string
		for _, id := range ids {
			for _, m := range maps {
				if v, ok := m[id]; ok {
					id = v
					break
				}
			}
			out = append(out, id)
		}
		return out
	}
	for i := range e.Decisions {
		d := &e.Decisions[i]
		if v, ok := decIDs[d.ID]; ok {
			d.ID = v
		}
		d.Effects = rename(d.Effects, decIDs, evIDs)
	}
	for i := range e.Events {
		ev := &e.Events[i]
		if v, ok := evIDs[ev.ID]; ok {
			ev.ID = v
		}
		ev.CausedBy = rename(ev.CausedBy, evIDs)
		ev.LeadsTo = rename(ev.LeadsTo, evIDs)
	}
}

// slotOf returns the value a sidecar key names; ok is false when there is
// no such value.
func slotOf(e *Episode, ids partIDs, key string) (slot, bool) {
	sec, id, field := splitKey(key)
	switch sec {
	case "":
		return exactSlot(episodeFields, e, field)
	case "lessons":
		var k int
		if _, err := fmt.Sscanf(id, "%d", &k); err != nil || k < 1 || k > len(e.Lessons) {
			return slot{}, false
		}
		return strSlot(&e.Lessons[k-1]), true
	case "decisions":
		if i := indexOf(ids.decisions, id); i >= 0 && i < len(e.Decisions) {
			return exactSlot(decisionFields, &e.Decisions[i], field)
		}
	case "events":
		if i := indexOf(ids.events, id); i >= 0 && i < len(e.Events) {
			return exactSlot(eventFields, &e.Events[i], field)
		}
	}
	return slot{}, false
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}
