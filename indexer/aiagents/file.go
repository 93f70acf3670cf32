package aiagents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
)

// Episode is an ai-agents episode file (episode.schema.json), as export
// writes it. Extra holds the top-level keys outside the schema; they are
// written after the others, sorted.
type Episode struct {
	ID        string
	Session   string
	Timestamp string
	Outcome   string
	Task      string
	Decisions []Decision
	Events    []Event
	Metrics   map[string]float64
	Lessons   []string
	Extra     map[string]any
}

// Decision is a decision of an episode file.
type Decision struct {
	ID        string
	Timestamp string
	Type      string
	Context   string
	Options   []string
	Chosen    string
	Rationale string
	Outcome   string
	Effects   []string
}

// Event is an event of an episode file. SourceSession is the writer's
// bookkeeping field _source_session (schema of 2026-08).
type Event struct {
	ID            string
	Timestamp     string
	Type          string
	Content       string
	CausedBy      []string
	LeadsTo       []string
	SourceSession string
}

// MarshalJSON writes the keys of episodeFields in its order, lists as []
// rather than null, then the extra keys.
func (e Episode) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := writeFields(&buf, episodeFields, &e); err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(e.Extra) {
		if row := rowOf(episodeFields, k); row != nil && row.file != nil {
			continue
		}
		vb, err := marshal(e.Extra[k])
		if err != nil {
			return nil, fmt.Errorf("episode %s: key %s: %w", e.ID, k, err)
		}
		writeMember(&buf, k, vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// MarshalJSON writes the keys of decisionFields in its order.
func (d Decision) MarshalJSON() ([]byte, error) { return marshalFields(decisionFields, &d) }

// MarshalJSON writes the keys of eventFields in its order.
func (ev Event) MarshalJSON() ([]byte, error) { return marshalFields(eventFields, &ev) }

func marshalFields[R, N, F any](table []field[R, N, F], f *F) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeFields(&buf, table, f); err != nil {
		return nil, err
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// writeFields writes "{" and the keys the table writes; the caller
// closes the object.
func writeFields[R, N, F any](buf *bytes.Buffer, table []field[R, N, F], f *F) error {
	buf.WriteByte('{')
	for _, row := range table {
		if row.file == nil {
			continue
		}
		v := row.file(f).get()
		if row.omitEmpty && v == "" {
			continue
		}
		vb, err := marshal(orEmptyValue(v))
		if err != nil {
			return fmt.Errorf("key %s: %w", row.key, err)
		}
		writeMember(buf, row.key, vb)
	}
	return nil
}

func writeMember(buf *bytes.Buffer, key string, value []byte) {
	if buf.Len() > 1 {
		buf.WriteByte(',')
	}
	kb, _ := marshal(key)
	buf.Write(kb)
	buf.WriteByte(':')
	buf.Write(value)
}

// orEmptyValue gives a nil list or map as an empty one, so that the file
// says [] or {} and never null.
func orEmptyValue(v any) any {
	rv := reflect.ValueOf(v)
	switch {
	case rv.Kind() == reflect.Slice && rv.IsNil():
		return reflect.MakeSlice(rv.Type(), 0, 0).Interface()
	case rv.Kind() == reflect.Map && rv.IsNil():
		return reflect.MakeMap(rv.Type()).Interface()
	}
	return v
}

// marshal is json.Marshal without escaping <, > and &: episodes are
// read by people too.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	// A copy, so that filling in empty lists never writes to the caller's.
	return append([]T{}, s...)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// slot is one value of a file, read and written as JSON-like values:
// the export sets it from the note, the sidecar from front matter. set
// reports whether the value had the slot's type.
type slot struct {
	get func() any
	set func(any) bool
}

func strSlot(p *string) slot {
	return slot{func() any { return *p }, func(v any) bool {
		s, ok := v.(string)
		if ok {
			*p = s
		}
		return ok
	}}
}

func listSlot(p *[]string) slot {
	return slot{func() any { return *p }, func(v any) bool {
		l, ok := asStrings(v)
		if ok {
			*p = l
		}
		return ok
	}}
}

func metricsSlot(p *map[string]float64) slot {
	return slot{func() any { return *p }, func(v any) bool {
		m, ok := asMetrics(v)
		if ok {
			*p = m
		}
		return ok
	}}
}

// valueSlot holds a value of one Go type (the decisions, the events).
func valueSlot[T any](p *T) slot {
	return slot{func() any { return *p }, func(v any) bool {
		x, ok := v.(T)
		if ok {
			*p = x
		}
		return ok
	}}
}

func asStrings(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return l, true
	case []any:
		out := make([]string, 0, len(l))
		for _, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	case nil:
		return nil, true
	}
	return nil, false
}

func asMetrics(v any) (map[string]float64, bool) {
	if m, ok := v.(map[string]float64); ok {
		return m, true // from the note
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, v == nil
	}
	out := make(map[string]float64, len(m))
	for k, x := range m {
		f, ok := x.(float64)
		if !ok {
			return nil, false
		}
		out[k] = f
	}
	return out, true
}

// canonical is a value's JSON text, with an absent list the same as an
// empty one.
func canonical(v any) string {
	switch l := v.(type) {
	case nil:
		return "[]"
	case []string:
		v = orEmpty(l)
	case []any, map[string]float64, map[string]any:
		if reflect.ValueOf(l).Len() == 0 {
			return "[]"
		}
	}
	b, _ := marshal(v)
	return string(b)
}
