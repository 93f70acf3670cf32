package search

import (
	"slices"
	"testing"
)

func TestAnalyze(t *testing.T) {
	tests := map[string][]string{
		"Running the tests before committing!": {"run", "test", "commit"},
		"the a of":                             {},
		"":                                     {},
		"ledger's CloseDay reads time.Now":     {"ledger", "closedai", "read", "time.now"},
		"支付失败":                                 {"支", "付", "失", "败"},
		"فشل الدفع":                            {"فشل", "الدفع"},
	}
	for in, want := range tests {
		if got := Analyze(in); !slices.Equal(got, want) {
			t.Errorf("Analyze(%q) = %q, want %q", in, got, want)
		}
	}
}
