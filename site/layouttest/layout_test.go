package layouttest_test

import (
	"path/filepath"
	"testing"

	"github.com/engramhq/engram/site/browsertest"
)

// TestLayout checks every kind of page of the demo and of issue 33's
// bad-input repository (badInputRepo) with browsertest.Layout; the real
// snapshots are site/layouttest/real's, so that each package stays under
// five minutes on two cores. Every layout of templates/layouts must be
// checked here.
func TestLayout(t *testing.T) {
	checked := browsertest.Layout(t, []browsertest.Corpus{
		{Name: "demo", Repo: func(*testing.T) string { return filepath.Join("..", "..", "content") }},
		{Name: "bad-input", Repo: badInputRepo},
	})
	if checked != nil {
		browsertest.CheckCoverage(t, checked)
	}
}
