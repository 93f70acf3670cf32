package secrets

import (
	"fmt"
	"testing"
)

// BenchmarkCleanName10k scans 10,000 paths as a repository of 10,000
// notes has (ScanFS scans each file's path as well as its text, issue
// 29), on one core.
func BenchmarkCleanName10k(b *testing.B) {
	s, _, err := New(nil)
	if err != nil {
		b.Fatal(err)
	}
	paths := make([]string, 10_000)
	for i := range paths {
		paths[i] = fmt.Sprintf("episodes/2026/%02d/EPISODE-2026-%02d-%02d-session-%02d.md", i%12+1, i%12+1, i%28+1, i%7+1)
	}
	for b.Loop() {
		for _, p := range paths {
			if name, _, _ := s.cleanName(p); name != p {
				b.Fatalf("%s: %s", p, name)
			}
		}
	}
}
