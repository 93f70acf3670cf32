package bootstrap

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/tokens"
)

func items(prefix string, n int, score func(i int) float64) []Item {
	var out []Item
	for i := range n {
		out = append(out, Item{ID: fmt.Sprintf("%s-%02d", prefix, i), Text: fmt.Sprintf("%s number %d: a line of advice that an agent should read at the start of a session", prefix, i),
			URL: fmt.Sprintf("/x/%s-%02d/", prefix, i), Score: score(i)})
	}
	return out
}

func candidates() Candidates {
	return Candidates{
		Title: "Test memory", ReferenceTime: "2026-08-10T00:00:00Z",
		Sections: Sections{
			Warnings:       items("warning", 12, func(i int) float64 { return 0.9 - float64(i)*0.01 }),
			RecentFailures: items("failure", 3, func(i int) float64 { return 0.5 - float64(i)*0.1 }),
			Patterns:       items("pattern", 10, func(i int) float64 { return 0.6 - float64(i)*0.05 }),
			Lessons:        items("lesson", 10, func(i int) float64 { return 0.45 - float64(i)*0.04 }),
			Due:            items("due", 1, func(int) float64 { return 1 }),
		},
	}
}

func TestFitWithinBudget(t *testing.T) {
	for _, budget := range []int{2000, 1000, 500, 250} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			b, js, md, err := Fit(candidates(), budget)
			if err != nil {
				t.Fatal(err)
			}
			if n := tokens.Count(string(js)); n > budget || n != b.Tokens {
				t.Errorf("bootstrap.json: %d tokens (tokens field %d), budget %d", n, b.Tokens, budget)
			}
			if n := tokens.Count(string(md)); n > budget {
				t.Errorf("bootstrap.md: %d tokens, budget %d", n, budget)
			}
			if len(b.Warnings) > MaxItems {
				t.Errorf("%d warnings, cap %d", len(b.Warnings), MaxItems)
			}
			// Within a section the best items stay, and an item is dropped
			// only before every item that scores higher relative to its
			// section's best.
			c := candidates()
			kept := b.lists()
			rel := func(l []Item, j int) float64 { return l[j].Score / l[0].Score }
			minKept := 2.0
			for i := range kept {
				for j := range *kept[i] {
					minKept = min(minKept, rel(*c.lists()[i], j))
				}
			}
			for i, l := range c.lists() {
				got := *kept[i]
				for j, it := range got {
					if it.ID != (*l)[j].ID {
						t.Errorf("section %d keeps %s at %d, want %s", i, it.ID, j, (*l)[j].ID)
					}
				}
				for j := len(got); j < min(len(*l), MaxItems); j++ {
					if rel(*l, j) > minKept+1e-12 {
						t.Errorf("dropped %s (relative score %v) but kept one of %v", (*l)[j].ID, rel(*l, j), minKept)
					}
				}
			}
			if budget >= 500 && (len(b.Warnings) == 0 || len(b.Patterns) == 0 || len(b.Due) == 0) {
				t.Errorf("a section was emptied: %d warnings, %d patterns, %d due", len(b.Warnings), len(b.Patterns), len(b.Due))
			}
		})
	}
	b, _, _, err := Fit(candidates(), 5000)
	if err != nil || b.count() != 10+3+10+10+1 {
		t.Errorf("a large budget keeps everything but the 11th and 12th warnings: %d items, %v", b.count(), err)
	}
}

// TestFitEmptySections: sections with nothing are empty lists, never null,
// and say "None." in Markdown.
func TestFitEmptySections(t *testing.T) {
	b, js, md, err := Fit(Candidates{Title: "Empty", ReferenceTime: "2026-08-10T00:00:00Z"}, 2000)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(js, &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"warnings", "recent_failures", "patterns", "lessons", "due"} {
		if l, ok := v[k].([]any); !ok || len(l) != 0 {
			t.Errorf("%s = %#v, want []", k, v[k])
		}
	}
	if strings.Count(string(md), "None.") != 5 || b.Tokens == 0 {
		t.Errorf("markdown:\n%s", md)
	}
}

// TestFitBudgetTooSmall: a budget that fits no item is a clear error,
// never an empty or over-budget file.
func TestFitBudgetTooSmall(t *testing.T) {
	for _, c := range []Candidates{candidates(), {Title: "Empty"}} {
		_, js, md, err := Fit(c, 20)
		if !errors.Is(err, ErrBudget) || js != nil || md != nil {
			t.Errorf("budget 20: %v", err)
		}
		if err != nil && !strings.Contains(err.Error(), "raise --budget") {
			t.Errorf("message %q does not say what to do", err)
		}
	}
}

func TestFitDeterministic(t *testing.T) {
	_, a, _, _ := Fit(candidates(), 700)
	for range 3 {
		if _, b, _, _ := Fit(candidates(), 700); !slices.Equal(a, b) {
			t.Fatal("Fit differs between runs")
		}
	}
}
