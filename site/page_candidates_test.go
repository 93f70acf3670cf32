package site

import (
	"fmt"
	"testing"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
)

// candidatesSite is a site whose candidates.json has n candidates, the
// first with a contrast and more evidence than the page lists.
func candidatesSite(n int) *export.Site {
	ev := func(i int, decision string) export.CandidateEvidence {
		id := fmt.Sprintf("EPISODE-%03d", i)
		return export.CandidateEvidence{ID: id, URL: "/episodes/" + id + "/", JSONURL: "/api/v1/episodes/" + id + ".json", Decision: decision, Outcome: "success"}
	}
	s := &export.Site{BaseURL: "/", Candidates: export.Candidates{Items: []export.Candidate{}, Write: export.CandidatesWrite,
		Withheld: map[string]int{"support": 3, "one-session": 3, causal.FlagTautology: 1, "unknown": 5}, Read: map[string]int{"episodes": 40, "decisions_without_context": 2, "new_count": 1}}}
	for i := range n {
		c := export.Candidate{ID: fmt.Sprintf("CANDIDATE-%d", i), Trigger: "When x", Terms: []string{"x"}, Contrasts: []export.CandidateChoice{}}
		c.CandidateChoice = export.CandidateChoice{Action: "do y", Occurrences: 3, Evidence: []export.CandidateEvidence{ev(1, "d001"), ev(2, ""), ev(3, "d002")}}
		s.Candidates.Items = append(s.Candidates.Items, c)
	}
	if n > 0 {
		c := &s.Candidates.Items[0]
		for i := range maxCandidateEvidence + 2 {
			c.Evidence = append(c.Evidence, ev(10+i, ""))
		}
		c.Contrasts = []export.CandidateChoice{{Action: "do z", Occurrences: 1, Evidence: []export.CandidateEvidence{ev(4, "d003")}}}
	}
	return s
}

// TestCandidatesPage: the page lists the candidates in candidates.json's
// order up to its cap, each choice's first evidence episodes linked,
// a decision to its place on its episode's page, and the withheld
// counts largest first (ties by reason), each with what it means.
func TestCandidatesPage(t *testing.T) {
	s := candidatesSite(maxCandidates + 1)
	ps := candidatesPages(input{s: s, ix: newIndex(s)})
	if len(ps) != 1 || ps[0].path != "candidates/_index.md" || ps[0].api != "api/v1/candidates.json" {
		t.Fatalf("pages %+v", ps)
	}
	p := ps[0].params.(candidatesPage)
	if len(p.Candidates) != maxCandidates || p.Count != maxCandidates+1 || p.More != 1 || p.Write != export.CandidatesWrite {
		t.Errorf("%d listed of %d, %d more, write %q", len(p.Candidates), p.Count, p.More, p.Write)
	}
	c := p.Candidates[0]
	if c.Anchor != "candidate-1" || p.Candidates[1].Anchor != "candidate-2" || c.ID != "CANDIDATE-0" {
		t.Errorf("first candidates %s %s (%s)", c.Anchor, p.Candidates[1].Anchor, c.ID)
	}
	if len(c.Choice.Evidence) != maxCandidateEvidence || c.Choice.More != 5 {
		t.Errorf("%d evidence listed, %d more, want %d and 5", len(c.Choice.Evidence), c.Choice.More, maxCandidateEvidence)
	}
	if e := c.Choice.Evidence[0]; e.DecisionURL != "/episodes/EPISODE-001/#decision-d001" || e.URL != "/episodes/EPISODE-001/" {
		t.Errorf("evidence %+v", e)
	}
	if e := c.Choice.Evidence[1]; e.DecisionURL != "" {
		t.Errorf("evidence without a decision links %q", e.DecisionURL)
	}
	if len(c.Contrasts) != 1 || c.Contrasts[0].Action != "do z" || c.Contrasts[0].Evidence[0].DecisionURL != "/episodes/EPISODE-004/#decision-d003" {
		t.Errorf("contrasts %+v", c.Contrasts)
	}
	want := []reasonCount{{"unknown", 5, ""}, {"one-session", 3, withheldTexts["one-session"]}, {"support", 3, withheldTexts["support"]},
		{causal.FlagTautology, 1, flagTexts[causal.FlagTautology]}}
	read := []reasonCount{{"episodes", 40, ""}, {readTexts["decisions_without_context"], 2, ""}, {"new count", 1, ""}}
	if fmt.Sprint(p.Read) != fmt.Sprint(read) {
		t.Errorf("read %v, want %v: each count in words", p.Read, read)
	}
	if fmt.Sprint(p.Withheld) != fmt.Sprint(want) || p.WithheldCount != 12 {
		t.Errorf("withheld %v (%d), want %v (12)", p.Withheld, p.WithheldCount, want)
	}
}

// TestCandidatesPageEmpty: with no candidates the page still says what
// was withheld, and its lists are empty, never null.
func TestCandidatesPageEmpty(t *testing.T) {
	s := candidatesSite(0)
	p := candidatesPages(input{s: s, ix: newIndex(s)})[0].params.(candidatesPage)
	if p.Candidates == nil || len(p.Candidates) != 0 || p.Count != 0 || p.WithheldCount != 12 {
		t.Errorf("empty page %+v", p)
	}
	s.Candidates = export.Candidates{}
	p = candidatesPages(input{s: s, ix: newIndex(s)})[0].params.(candidatesPage)
	if p.Candidates == nil || p.Withheld == nil || p.Read == nil || p.WithheldCount != 0 {
		t.Errorf("page of nothing mined %+v", p)
	}
}
