package query

import (
	"fmt"
	"sort"
)

// Token budgets of list answers (issue 32): an agent says how many tokens
// an answer may cost it, and gets as many items as fit, at least one.

// maxBudgetTokens caps a budget: more is no budget at all (a page of the
// longest list at its largest is far smaller), and is taken as this.
const maxBudgetTokens = 100_000

// CheckBudget checks a budget in tokens: 0 is none (the argument left
// out), a negative budget is refused, and one over maxBudgetTokens is
// capped.
func CheckBudget(n int) (int, error) {
	if n < 0 {
		return 0, fmt.Errorf("budget_tokens is %d: give the most tokens the answer may cost, at least 1 (leave it out for no budget)", n)
	}
	return min(n, maxBudgetTokens), nil
}

// FitCount is how many of n items, from the first, an answer can hold
// within budget tokens, where size(k) is the tokens of the answer that
// holds the first k: at least one when there are items (an answer of
// nothing tells an agent nothing, and the item says what it costs), all
// of them when budget is 0. size must grow with k.
func FitCount(n, budget int, size func(k int) int) int {
	if budget <= 0 || n == 0 || size(n) <= budget {
		return n
	}
	// The first k in [1, n) whose answer is over budget, less one.
	k := sort.Search(n-1, func(i int) bool { return size(i+2) > budget }) + 1
	return k
}
