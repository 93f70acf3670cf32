package search

// What static_search_test.go (package search_test, which can import
// searchtest where search's own tests cannot) reads of the static index's
// internals.
const (
	FirstTier  = firstTier
	TierGrowth = tierGrowth
	TierBudget = tierBudget
)

var (
	StaticIndex = staticIndex
	Pow         = pow
)
