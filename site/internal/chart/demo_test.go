package chart_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/site/internal/chart"
)

// TestChartsOfTheDemo draws every chart of the demo repository from the
// JSON the build publishes: each is well-formed and safe, every pattern
// with evidence has an interval starting at its published confidence, and
// every node with an edge has a neighbourhood.
func TestChartsOfTheDemo(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: filepath.Join("..", "..", "..", "content"), Out: out, Now: &now}); err != nil {
		t.Fatal(err)
	}
	var g export.Graph
	var patterns export.List[export.Pattern]
	var episodes export.List[export.EpisodeHead]
	for _, f := range []struct {
		name string
		v    any
	}{{"graph.json", &g}, {"patterns.json", &patterns}, {"episodes.json", &episodes}} {
		b, err := os.ReadFile(filepath.Join(out, "api", "v1", f.name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, f.v); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
	}
	if len(episodes.Items) == 0 || len(patterns.Items) == 0 || len(g.Edges) == 0 {
		t.Fatal("the demo has no episodes, patterns or edges")
	}

	chart.CheckSVG(t, chart.Outcomes(episodes.Items))
	for _, p := range patterns.Items {
		t.Run(p.ID, func(t *testing.T) {
			svg := chart.Interval(p)
			if svg == "" {
				t.Fatal("no interval chart")
			}
			if p.StatsSource != "evidence" {
				return
			}
			lo := ""
			for _, el := range chart.CheckSVG(t, svg) {
				if v, ok := chart.Attr(el, "data-lo"); ok {
					lo = v
				}
			}
			if want := strconv.FormatFloat(*p.Confidence, 'f', 4, 64); lo != want {
				t.Errorf("interval from %q, want the published confidence %s", lo, want)
			}
		})
	}
	hood := chart.NewNeighbourhoods(g).SVG
	linked := map[string]bool{}
	for _, e := range g.Edges {
		// An episode's own parts are not its causal neighbours.
		if e.Source != e.Target && e.Type != note.EdgeContains {
			linked[e.Source], linked[e.Target] = true, true
		}
	}
	for _, n := range g.Nodes {
		svg := hood(n.ID)
		if (svg != "") != linked[n.ID] {
			t.Errorf("%s: drawn %v, has edges %v", n.ID, svg != "", linked[n.ID])
		}
		if svg != "" {
			chart.CheckSVG(t, svg)
		}
	}
}
