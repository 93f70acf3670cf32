package parse

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/note"
)

// fields reads typed values out of decoded front matter tolerantly: a
// number may be a string, tags may be a list or a comma-separated string,
// null is empty. Every value it cannot use becomes a diagnostic at its key.
type fields struct {
	fm frontMatter
	// broken is set when the front matter did not decode: missing fields
	// are then not reported again.
	broken bool
	path   string
	diags  note.Diagnostics
	used   map[string]bool
}

func (f *fields) line(key string) int {
	if l, ok := f.fm.lines[key]; ok {
		return l
	}
	return f.fm.start
}

// report reports a problem with a front matter key, at the key's line.
func (f *fields) report(key string, sev note.Severity, rule, format string, args ...any) {
	f.diags.Report(f.path, f.line(key), 1, sev, rule, format, args...)
}

func (f *fields) get(key string) (any, bool) {
	f.used[key] = true
	v, ok := f.fm.values[key]
	return v, ok && v != nil
}

// str reads a scalar as a string; lists and maps are reported.
func (f *fields) str(key string) string {
	v, ok := f.get(key)
	if !ok {
		return ""
	}
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case bool, int64, float64:
		if t := f.fm.text[key]; len(t) == 1 && t[0] != "" {
			return t[0] // 0777 and 1.10 as written, not 511 and 1.1
		}
		return fmt.Sprint(x)
	case time.Time:
		t, _ := tomlLocal(x)
		return t.Format(time.RFC3339)
	}
	f.report(key, note.Warning, "frontmatter-type", "%s should be a single value, not a %s; ignored", key, typeName(v))
	return ""
}

func typeName(v any) string {
	switch v.(type) {
	case []any:
		return "list"
	case map[string]any:
		return "mapping"
	}
	return fmt.Sprintf("%T", v)
}

// list reads a list of strings, or a comma-separated string.
func (f *fields) list(key string) []string {
	v, ok := f.get(key)
	if !ok {
		return nil
	}
	var out []string
	switch x := v.(type) {
	case string:
		for _, s := range strings.Split(x, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	case []any:
		text := f.fm.text[key]
		for i, e := range x {
			s := ""
			switch v := e.(type) {
			case map[string]any, []any:
				f.report(key, note.Warning, "frontmatter-type", "%s should list plain values; a nested %s is ignored", key, typeName(e))
				continue
			case nil:
				continue
			case string:
				s = v
			default:
				s = fmt.Sprint(e)
				if len(text) == len(x) && text[i] != "" {
					s = text[i] // as written: 0777, 1.10
				}
			}
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	default:
		if s := f.str(key); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (f *fields) float(key string) *float64 {
	v, ok := f.get(key)
	if !ok {
		return nil
	}
	if t := inexact(v); t != "" {
		f.report(key, note.Warning, "frontmatter-number-precision", "%s %s is a whole number a JSON number cannot hold exactly (over 2^53, it would be published as %s); left out", key, t, rounded(t))
		return nil
	}
	n, ok := toFloat(v)
	if !ok {
		f.report(key, note.Error, "frontmatter-number", "%s must be a number, got %q", key, fmt.Sprint(v))
		return nil
	}
	return &n
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case string:
		n, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return n, err == nil && !math.IsNaN(n) && !math.IsInf(n, 0)
	}
	return 0, false
}

// inexact returns the text of v when v is a whole number that a float64,
// and so a JSON number, cannot hold exactly (beyond 2^53, 9007199254740993
// reads as 9007199254740992), else "". A number field is a float64: such
// a value is left out rather than published changed. YAML and JSON keep
// a whole number beyond int64 as its text.
func inexact(v any) string {
	var s string
	switch x := v.(type) {
	case int64:
		if f := float64(x); f != 0x1p63 && int64(f) == x {
			return ""
		}
		return strconv.FormatInt(x, 10)
	case string:
		s = strings.TrimPrefix(strings.TrimSpace(x), "+")
	default:
		return ""
	}
	i, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return ""
	}
	if _, acc := new(big.Float).SetInt(i).Float64(); acc == big.Exact {
		return ""
	}
	return s
}

// rounded is the decimal text of the float64 nearest to whole number t.
func rounded(t string) string {
	f, _ := strconv.ParseFloat(t, 64)
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func (f *fields) date(key string) time.Time {
	v, ok := f.get(key)
	if !ok {
		return time.Time{}
	}
	if t, ok := tomlLocal(v); ok {
		return t
	}
	s := strings.TrimSpace(fmt.Sprint(v))
	t, err := ParseTime(s)
	if err != nil {
		f.report(key, note.Error, "frontmatter-date", "%s %q is not a date (use RFC 3339, e.g. 2026-08-04T09:12:00Z, or 2026-08-04)", key, s)
		return time.Time{}
	}
	return t
}

// metrics reads a map of numbers; entries that are not numbers are reported.
func (f *fields) metrics(key string) map[string]float64 {
	v, ok := f.get(key)
	if !ok {
		return nil
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		f.report(key, note.Warning, "frontmatter-type", "%s should be a mapping of names to numbers, not a %s; ignored", key, typeName(v))
		return nil
	}
	out := make(map[string]float64, len(m))
	keys := sortedKeys(m)
	for _, k := range keys {
		if t := inexact(m[k]); t != "" {
			f.report(key, note.Warning, "frontmatter-number-precision", "metric %s %s is a whole number a JSON number cannot hold exactly (over 2^53, it would be published as %s); left out", k, t, rounded(t))
			continue
		}
		n, ok := toFloat(m[k])
		if !ok {
			f.report(key, note.Warning, "frontmatter-number", "metric %s must be a number, got %q; ignored", k, fmt.Sprint(m[k]))
			continue
		}
		out[k] = n
	}
	return out
}

// extra returns the keys no field read, to be passed through.
func (f *fields) extra() map[string]any {
	var out map[string]any
	for _, k := range sortedKeys(f.fm.values) {
		if f.used[k] {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		out[k] = f.fm.values[k]
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
