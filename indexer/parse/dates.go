package parse

import (
	"fmt"
	"strings"
	"time"
)

// Layouts accepted for dates, most specific first. Go's parser accepts a
// fraction of any length after the seconds, so 7-digit fractions work.
var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04",
	"2006-01-02",
}

// ParseTime reads an RFC 3339 / ISO 8601 date or time; one without a zone is
// UTC. The result is in UTC.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			// A zone can move year 0000 or 9999 out of the four-digit
			// years that JSON and Hugo read back.
			if t = t.UTC(); t.Year() < 1 || t.Year() > 9999 {
				return time.Time{}, fmt.Errorf("parse time %q: year %d is outside 1..9999", s, t.Year())
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("parse time %q: not an RFC 3339 or ISO 8601 date", s)
}

// tomlLocal reads TOML's zone-less dates, which the TOML decoder places in
// the machine's zone, as UTC wall-clock times: output must not depend on
// the machine.
func tomlLocal(v any) (time.Time, bool) {
	t, ok := v.(time.Time)
	if !ok {
		return time.Time{}, false
	}
	switch t.Location().String() {
	case "datetime-local", "date-local", "time-local":
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC), true
	}
	return t.UTC(), true
}
