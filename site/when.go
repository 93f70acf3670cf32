package site

import "time"

// when is a timestamp as a reader reads it: the date in words, the time
// of day when there is one, and the exact value for <time datetime> and
// its title (shown on hover).
type when struct {
	Datetime string `json:"datetime"`
	Text     string `json:"text"`
}

// whenOf words a note's timestamp. A value that is not RFC 3339 (or a
// plain date) is shown as written. prev is the timestamp before it in the
// same list: on the same day only the time of day is repeated, and the
// same instant not at all (Text empty).
func whenOf(ts, prev string) when {
	t, date, ok := parseWhen(ts)
	if !ok {
		return when{Datetime: "", Text: ts}
	}
	w := when{Datetime: ts}
	p, _, pok := parseWhen(prev)
	switch {
	case pok && p.Equal(t):
		return w
	case pok && p.Format(time.DateOnly) == t.Format(time.DateOnly) && !date:
		w.Text = t.Format("15:04")
	case date:
		w.Text = t.Format("2 January 2006")
	default:
		w.Text = t.Format("2 January 2006, 15:04") + zoneName(t)
	}
	return w
}

// parseWhen reads an RFC 3339 timestamp or a date; date is true when it
// has no time of day (a plain date, or exactly midnight UTC, as tools
// write a date they have no time for).
func parseWhen(ts string) (t time.Time, date bool, ok bool) {
	if ts == "" {
		return t, false, false
	}
	if t, err := time.Parse(time.DateOnly, ts); err == nil {
		return t, true, true
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return t, false, false
	}
	_, off := t.Zone()
	return t, off == 0 && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0, true
}

func zoneName(t time.Time) string {
	if _, off := t.Zone(); off == 0 {
		return " UTC"
	}
	return t.Format(" -07:00")
}

// whens words a list of timestamps, each against the one before it.
func whens(ts []string) []when {
	out := make([]when, len(ts))
	prev := ""
	for i, t := range ts {
		out[i] = whenOf(t, prev)
		if t != "" {
			prev = t
		}
	}
	return out
}
