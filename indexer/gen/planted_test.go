package gen

import (
	"reflect"
	"testing"
)

// TestPlantedDeterministic: the same options give the same bytes and
// truth; another seed gives another repository; every truth episode is
// a file.
func TestPlantedDeterministic(t *testing.T) {
	a, b := Planted(PlantedOptions{Seed: 7, Episodes: 60}), Planted(PlantedOptions{Seed: 7, Episodes: 60})
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same options gave two repositories")
	}
	if c := Planted(PlantedOptions{Seed: 8, Episodes: 60}); reflect.DeepEqual(a.Files, c.Files) {
		t.Error("seeds 7 and 8 gave the same repository")
	}
	if len(a.Files) != 60 {
		t.Errorf("%d files, want 60", len(a.Files))
	}
	for _, p := range a.Patterns {
		for _, e := range p.Episodes {
			if a.Files["episodes/planted/"+e+".md"] == nil {
				t.Errorf("truth names %s, which is not a file", e)
			}
		}
	}
}
