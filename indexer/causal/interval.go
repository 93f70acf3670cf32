package causal

import "math"

// WilsonInterval returns the 95% Wilson score interval (z = 1.96) for a
// rate p over n trials: Wilson is its lower end, so a drawn interval
// starts exactly at a pattern's published confidence. Both ends are 0
// when n <= 0.
func WilsonInterval(p float64, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 0
	}
	const z = 1.96
	fn := float64(n)
	center := p + z*z/(2*fn)
	margin := z * math.Sqrt(p*(1-p)/fn+z*z/(4*fn*fn))
	denom := 1 + z*z/fn
	return math.Max(0, (center-margin)/denom), math.Min(1, (center+margin)/denom)
}
