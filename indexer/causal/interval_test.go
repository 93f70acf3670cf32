package causal

import (
	"math"
	"testing"
)

func TestWilsonInterval(t *testing.T) {
	tests := []struct {
		name   string
		p      float64
		n      int
		lo, hi float64
	}{
		// Reference values of the Wilson score interval at z = 1.96 exactly
		// (not 1.959964), as SPEC §3 fixes it.
		{"3 of 5", 0.6, 5, 0.230720, 0.882382},
		{"all of 2", 1, 2, 0.342372, 1},
		{"none of 10", 0, 10, 0, 0.277540},
		{"half of 100", 0.5, 100, 0.403830, 0.596170},
		{"no trials", 0.5, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := WilsonInterval(tt.p, tt.n)
			if math.Abs(lo-tt.lo) > 1e-6 || math.Abs(hi-tt.hi) > 1e-6 {
				t.Errorf("WilsonInterval(%v, %d) = [%.6f, %.6f], want [%.6f, %.6f]", tt.p, tt.n, lo, hi, tt.lo, tt.hi)
			}
		})
	}
}

// TestWilsonIntervalLowerIsWilson: the interval's lower end is the
// published confidence, bit for bit, and the interval holds the rate.
func TestWilsonIntervalLowerIsWilson(t *testing.T) {
	for n := 1; n <= 60; n++ {
		for half := 0; half <= 2*n; half++ {
			p := float64(half) / 2 / float64(n)
			lo, hi := WilsonInterval(p, n)
			if lo != Wilson(p, n) {
				t.Fatalf("WilsonInterval(%v, %d) lower %v != Wilson %v", p, n, lo, Wilson(p, n))
			}
			if lo > p+1e-12 || hi < p-1e-12 || lo < 0 || hi > 1 {
				t.Fatalf("WilsonInterval(%v, %d) = [%v, %v] does not hold p within [0, 1]", p, n, lo, hi)
			}
		}
	}
}
