package query

import (
	"strings"
	"testing"
)

func TestCheckBudget(t *testing.T) {
	for _, c := range []struct {
		in, want int
		err      string
	}{
		{0, 0, ""},
		{1, 1, ""},
		{2000, 2000, ""},
		{maxBudgetTokens + 1, maxBudgetTokens, ""},
		{1 << 62, maxBudgetTokens, ""},
		{-1, 0, "budget_tokens is -1"},
		{-1 << 62, 0, "at least 1"},
	} {
		got, err := CheckBudget(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("CheckBudget(%d) = %d, %v; want an error with %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("CheckBudget(%d) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

func TestFitCount(t *testing.T) {
	// An answer of k items costs 10 tokens of envelope and 7 a item.
	size := func(k int) int { return 10 + 7*k }
	for _, c := range []struct {
		name            string
		n, budget, want int
	}{
		{"no budget", 10, 0, 10},
		{"all fit", 10, 80, 10},
		{"exactly", 10, 10 + 7*4, 4},
		{"one short", 10, 10 + 7*4 - 1, 3},
		{"below one item: still one", 10, 5, 1},
		{"no items", 0, 5, 0},
		{"one item over budget", 1, 5, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := FitCount(c.n, c.budget, size); got != c.want {
				t.Errorf("FitCount(%d, %d) = %d, want %d", c.n, c.budget, got, c.want)
			}
		})
	}
}
