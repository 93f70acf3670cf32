package parse

import (
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	cases := []struct {
		in   string
		want time.Time // zero: an error is wanted
	}{
		{"2026-08-04T09:12:00Z", utc(2026, 8, 4, 9, 12, 0, 0)},
		{"2026-08-04T09:12:00.1234567+02:00", utc(2026, 8, 4, 7, 12, 0, 123456700)},
		{"2026-08-04T09:12:00.1234567", utc(2026, 8, 4, 9, 12, 0, 123456700)},
		{"2026-08-04T09:12:00", utc(2026, 8, 4, 9, 12, 0, 0)},
		{"2026-08-04T09:12:00+0200", utc(2026, 8, 4, 7, 12, 0, 0)},
		{"2026-08-04 09:12:00", utc(2026, 8, 4, 9, 12, 0, 0)},
		{"2026-08-04 09:12:00 -0700", utc(2026, 8, 4, 16, 12, 0, 0)},
		{"2026-08-04T09:12", utc(2026, 8, 4, 9, 12, 0, 0)},
		{"2026-08-04 09:12", utc(2026, 8, 4, 9, 12, 0, 0)},
		{"  2026-08-04\n", utc(2026, 8, 4, 0, 0, 0, 0)},
		{"2026-02-30", time.Time{}},
		{"last tuesday", time.Time{}},
		{"2026-08-04T25:00:00Z", time.Time{}},
		{"", time.Time{}},
		// A zone must not carry a date out of the four-digit years.
		{"0000-01-01T00:00:00+00:01", time.Time{}},
		{"0000-06-01", time.Time{}},
		{"9999-12-31T23:59:00-00:01", time.Time{}},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseTime(c.in)
			if c.want.IsZero() {
				if err == nil {
					t.Fatalf("ParseTime(%q) = %v, want an error", c.in, got)
				}
				return
			}
			if err != nil || !got.Equal(c.want) || got.Location() != time.UTC {
				t.Errorf("ParseTime(%q) = %v, %v; want %v in UTC", c.in, got, err, c.want)
			}
		})
	}
}
