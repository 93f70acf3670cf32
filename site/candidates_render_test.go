package site_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/mine"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/site"
)

// hostileTrigger is a candidate's trigger that tries to become markup.
const hostileTrigger = `When <script>window.pwned=1</script> the <img src=x onerror="window.pwned=2"> deploy fails`

// renderCandidates renders the demo with a miner's result made from its
// episodes (the miner's own input is its tests'): a candidate with a
// hostile trigger, evidence from four episodes and a contrast; it
// returns the output folder and the candidate's evidence episodes.
func renderCandidates(t *testing.T) (string, []note.Note) {
	t.Helper()
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	in, err := indexer.Load(context.Background(), indexer.Options{Repo: filepath.Join("..", "content"), Now: &now, BaseURL: "/"})
	if err != nil {
		t.Fatal(err)
	}
	var eps []note.Note
	for _, n := range in.Export.Notes {
		if n.Episode != nil && len(n.Episode.Decisions) > 0 && len(eps) < 4 {
			eps = append(eps, n)
		}
	}
	if len(eps) < 4 {
		t.Fatalf("the demo has %d episodes with decisions, want 4", len(eps))
	}
	evidence := func(ns ...note.Note) []mine.Evidence {
		var out []mine.Evidence
		for _, n := range ns {
			out = append(out, mine.Evidence{Episode: n.Title, Decision: n.Episode.Decisions[0].ID, Outcome: n.Episode.Outcome})
		}
		return out
	}
	in.Export.Candidates = mine.Result{
		Candidates: []mine.Candidate{{ID: "CANDIDATE-deploy-fails-roll-back", Trigger: hostileTrigger, Terms: []string{"deploy", "fails"}, Action: "roll back <b>first</b>",
			Choice:    mine.Choice{Action: "roll back <b>first</b>", Evidence: evidence(eps[:3]...), Occurrences: 3, SuccessRate: 1, Confidence: 0.4385, Sessions: 3},
			Contrasts: []mine.Choice{{Action: "retry the deploy", Evidence: evidence(eps[3]), Occurrences: 1, SuccessRate: 0, Confidence: 0, Sessions: 1}}}},
		Withheld: map[string]int{"support": 7, "tautology": 2},
		Read:     map[string]int{"episodes": len(eps), "decisions": 12},
	}
	s := export.Documents(in.Export)
	files, err := s.Files()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, err := site.Render(context.Background(), s, out, site.Options{API: append(export.Paths(files), "api/v1/search/meta.json")}); err != nil {
		t.Fatal(err)
	}
	for _, f := range files { // the API, which the pages link as their twins
		p := filepath.Join(out, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out, eps
}

// TestCandidatesPageRendered: the candidates page of a site with a
// candidate shows its rule as text (a hostile trigger stays text), links
// every evidence episode with its headline and its decision, gives the
// command that writes it, and the withheld counts; the home page does
// not list it (the navigation link is the only way in).
func TestCandidatesPageRendered(t *testing.T) {
	out, eps := renderCandidates(t)
	data, err := os.ReadFile(filepath.Join(out, "candidates", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range hostileTags(data) {
		t.Errorf("candidates page: %s", bad)
	}
	page := string(data)
	for _, want := range []string{
		"&lt;script&gt;window.pwned=1&lt;/script&gt;", "roll back &lt;b&gt;first&lt;/b&gt;",
		"engram mine --write CANDIDATE-deploy-fails-roll-back", `href="/api/v1/candidates.json"`,
		`<link rel="alternate" type="application/json" href="/api/v1/candidates.json"`,
		"retry the deploy", "<strong>7</strong> support", withheldSupport, "Proposals, not advice.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the candidates page lacks %s", want)
		}
	}
	for _, n := range eps {
		url := "/episodes/" + export.Slug(n.Title) + "/"
		if !strings.Contains(page, `href="`+url+`"`) || !strings.Contains(page, `href="`+url+"#"+export.DecisionAnchor(n.Episode.Decisions[0].ID)+`"`) {
			t.Errorf("the candidates page does not link %s and its decision %s", url, n.Episode.Decisions[0].ID)
		}
		if !strings.Contains(page, `<span class="id">`+n.Title+`</span>`) {
			t.Errorf("the candidates page names %s by its id, not its headline", n.Title)
		}
	}
}

// withheldSupport is what the page says of the support rule.
const withheldSupport = "Fewer than three different episodes support it."
