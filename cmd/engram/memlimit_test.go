package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMemoryLimit: a soft limit of 4 GiB, or half the machine's memory
// when that is less; none when GOMEMLIMIT is set (the user's wins).
func TestMemoryLimit(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "GOMEMLIMIT" {
				return v
			}
			return ""
		}
	}
	for _, c := range []struct {
		name  string
		env   string
		total int64
		want  int64
		set   bool
	}{
		{"a large machine", "", 23 << 30, 4 << 30, true},
		{"a 7 GB runner", "", 7 << 30, 3584 << 20, true},
		{"memory unknown", "", 0, 4 << 30, true},
		{"GOMEMLIMIT given", "2GiB", 23 << 30, 0, false},
		{"GOMEMLIMIT off", "off", 7 << 30, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, set := memoryLimit(env(c.env), c.total)
			if got != c.want || set != c.set {
				t.Errorf("memoryLimit = %d, %v; want %d, %v", got, set, c.want, c.set)
			}
		})
	}
}

// TestMemTotal reads MemTotal from a meminfo file, and nothing from a
// file without it or none at all.
func TestMemTotal(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte("MemFree: 12 kB\nMemTotal:       24522952 kB\n"), 0o644)
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("MemTotal: lots\n"), 0o644)
	for path, want := range map[string]int64{good: 24522952 << 10, bad: 0, filepath.Join(dir, "none"): 0} {
		if got := memTotal(path); got != want {
			t.Errorf("memTotal(%s) = %d, want %d", filepath.Base(path), got, want)
		}
	}
}
