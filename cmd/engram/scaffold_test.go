package main

import "testing"

func TestInstallVersion(t *testing.T) {
	for _, tc := range []struct {
		built, want string
		exact       bool
	}{
		{"v1.2.3", "v1.2.3", true},
		{"v0.1.0-rc.1", "v0.1.0-rc.1", true},
		{"v0.0.0-20261124210000-0ca0fe2ef95f", "v0.0.0-20261124210000-0ca0fe2ef95f", true},
		{"v0.1.1-0.20261124210000-0ca0fe2ef95f", "v0.1.1-0.20261124210000-0ca0fe2ef95f", true},
		{"v0.1.1-0.20261124210000-0ca0fe2ef95f+dirty", "latest", false},
		{"(devel)", "latest", false},
		{"", "latest", false},
		{"1.2.3", "latest", false},
	} {
		if got, exact := installVersion(tc.built); got != tc.want || exact != tc.exact {
			t.Errorf("installVersion(%q) = %q, %v; want %q, %v", tc.built, got, exact, tc.want, tc.exact)
		}
	}
}
