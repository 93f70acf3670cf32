package main

import (
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/query"
)

// FuzzParseContext reads `engram events similar --context`. A context
// that is accepted is a JSON object with a key, and reads back the same
// when written out again; one that is refused is a usage error on one line.
func FuzzParseContext(f *testing.F) {
	for _, s := range []string{
		`{"service":"payouts","env":"prod"}`,
		`{"n": 1.10, "big": 123456789012345678901234567890, "nested": {"a": [1, null, true]}}`,
		` {"k":"v"} `,
		`{"k":"\u00e9\ud83d\ude00"}`,
		``, `{}`, `[]`, `null`, `"k"`, `1`, `{"k":"v"} {"k":"v"}`, `{"k":"v"}x`,
		`{"k":`, `{"a":1,"a":2}`, "{\"k\":\"\xff\"}", "{\"k\n\":1}", `{"k":"v"}` + "\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := parseContext(s)
		if err != nil {
			if !errors.Is(err, errUsage) || strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("error %q is not a one-line usage error", err)
			}
			return
		}
		if len(m) == 0 {
			t.Fatalf("%q accepted with no key", s)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("accepted context %v does not marshal: %v", m, err)
		}
		back, err := parseContext(string(b))
		if err != nil || !reflect.DeepEqual(back, m) {
			t.Fatalf("%q read as %v, written as %s, read back as %v (%v)", s, m, b, back, err)
		}
	})
}

// FuzzParseNow reads --now. An accepted time is UTC, within the years a
// layout can spell, and reads back the same once formatted.
func FuzzParseNow(f *testing.F) {
	for _, s := range []string{
		"2026-08-01", "2026-08-01T12:30:00", "2026-08-01T12:30:00Z", "2026-08-01T12:30:00.1234567+05:30",
		"2026-08-01T12:30:00-23:59", "0000-01-01T00:00:00+23:59", "9999-12-31T23:59:59-23:59",
		"", "now", "2026-13-01", "2026-02-30", "2026-08-01T25:00:00Z", "2026-08-01 12:30:00", "1785000000",
		" 2026-08-01", "2026-08-01T12:30:00ZZ", "\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := parseNow(s)
		if err != nil {
			if !errors.Is(err, errUsage) {
				t.Fatalf("error %v is not a usage error", err)
			}
			return
		}
		if s == "" {
			if ref != nil {
				t.Fatalf("no --now gave %v", ref)
			}
			return
		}
		if ref == nil || ref.Location() != time.UTC {
			t.Fatalf("%q gave %v, not a UTC time", s, ref)
		}
		if y := ref.Year(); y < -1 || y > 10000 {
			t.Fatalf("%q gave year %d", s, y)
		}
		if y := ref.Year(); y >= 0 && y <= 9999 {
			back, err := parseNow(ref.Format(time.RFC3339Nano))
			if err != nil || !back.Equal(*ref) {
				t.Fatalf("%q gave %v, which reads back as %v (%v)", s, ref, back, err)
			}
		}
	})
}

var durationRE = regexp.MustCompile(`^[0-9]+[hdw]$`)

// FuzzParseSince reads `engram episodes --since`. A duration goes back
// from the reference time, never forward; a date is a date; anything else
// is an error naming --since.
func FuzzParseSince(f *testing.F) {
	for _, s := range []string{
		"7d", "36h", "2w", "0h", " 7d ", "100000d", "100000w", "99999w", "14286w", "100001d",
		"99999999999999999999h", "2026-08-01", "2026-08-01T12:00:00+02:00", "2026-08-01T12:00:00Z",
		"", "7", "d", "-7d", "7D", "7 d", "1.5d", "7m", "7y", "٣d", "2026-08-01T12:00:00",
	} {
		f.Add(s)
	}
	ref := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		since, err := query.ParseSince(s, ref)
		if err != nil {
			if !strings.Contains(err.Error(), "--since") {
				t.Fatalf("error %q does not name --since", err)
			}
			return
		}
		if durationRE.MatchString(strings.TrimSpace(s)) {
			// A duration goes back from the reference time, never forward
			// (a time.Duration that overflows would).
			if back := ref.Sub(since); since.After(ref) || back > 100000*24*time.Hour {
				t.Fatalf("%q goes from %v to %v", s, ref, since)
			}
			return
		}
		back, err := query.ParseSince(since.Format(time.RFC3339Nano), ref)
		if err != nil || !back.Equal(since) {
			t.Fatalf("%q gave %v, which reads back as %v (%v)", s, since, back, err)
		}
	})
}
