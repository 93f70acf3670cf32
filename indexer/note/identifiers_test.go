package note

import "testing"

func TestWithoutIdentifiers(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Commit: e07f40f69", "Commit:  "},
		{"merged 1159d8c5f2 and d5cfd551881491e03e47cb8fd588c3845c0977b6.", "merged   and  ."},
		{"sha256 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "sha256  "},
		{"id 3f2504e0-4f89-11d3-9a0c-0305e82c3301 done", "id   done"},
		{"at 2026-07-16T00:00:00+00:00, 2026-02-10T17:55:44.2369384-08:00 and 2026-07-16.", "at  ,   and  ."},
		{"on 2026-07-16 at 17:55:44.23 UTC", "on   at   UTC"},
		// Kept: numbers, versions, words made of hex letters, short ids.
		{"PR 2829 (#3351), 404s, Python 3.10, v1.2.3, CWE-78, ADR-073", "PR 2829 (#3351), 404s, Python 3.10, v1.2.3, CWE-78, ADR-073"},
		{"event e001, 1234567 rows, deadbeef, decade, defaced", "event e001, 1234567 rows, deadbeef, decade, defaced"},
		{"no digits at all", "no digits at all"},
		{"支付失败 2026-07-16", "支付失败  "},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := WithoutIdentifiers(tt.in); got != tt.want {
				t.Errorf("WithoutIdentifiers(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestIsHexID(t *testing.T) {
	for w, want := range map[string]bool{
		"e07f40f69": true, "d5cfd551881491e03e47cb8fd588c3845c0977b6": true, "A0387BC21": true,
		"1234567": false, "deadbeef": false, "abc123": false, "e001": false, "decade": false, "3f9a-2c4": false,
		"0123456789012345678901234567890123456789012": true,
	} {
		if got := IsHexID(w); got != want {
			t.Errorf("IsHexID(%q) = %v, want %v", w, got, want)
		}
	}
}
