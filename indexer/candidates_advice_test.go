package indexer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/bootstrap"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/mine"
	"github.com/engramhq/engram/indexer/query"
)

// TestCandidatesAreNoAdvice: a candidate is published in candidates.json
// and reaches nothing an agent is advised from (SPEC §3: never advice
// until written as a pattern): not the bootstrap, whole or by area, nor
// the snapshot the query commands and the MCP server answer from.
func TestCandidatesAreNoAdvice(t *testing.T) {
	repo := t.TempDir()
	for i, o := range []string{"success", "success", "failure"} {
		md := fmt.Sprintf("---\ntitle: EPISODE-2026-05-0%[1]d-session-0%[1]d\ntype: episode\ndate: 2026-05-0%[1]dT10:00:00Z\noutcome: %[2]s\ntask: Deploy the payments service\n---\n\n"+
			"## Decisions\n\n### d001: Roll back\n\n- **Chosen**: roll back\n\n## Lessons Learned\n\n- Roll back first when a deploy fails\n", i+1, o)
		if err := os.MkdirAll(filepath.Join(repo, "episodes"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "episodes", fmt.Sprintf("e%d.md", i)), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in, err := indexer.Load(context.Background(), indexer.Options{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	const marker = "zqxcandidatemarker"
	var evidence []mine.Evidence
	for _, n := range in.Export.Notes {
		if n.Episode != nil && len(evidence) < 3 {
			evidence = append(evidence, mine.Evidence{Episode: n.Title, Outcome: n.Episode.Outcome})
		}
	}
	choice := mine.Choice{Action: marker + " action", Evidence: evidence, Occurrences: len(evidence), SuccessRate: 1, Confidence: 0.44, Sessions: 3}
	in.Export.Candidates = mine.Result{Candidates: []mine.Candidate{{ID: "CANDIDATE-" + marker, Trigger: "When " + marker, Terms: []string{marker}, Action: choice.Action, Choice: choice}}}
	docs := export.Documents(in.Export)
	if len(evidence) != 3 || len(docs.Candidates.Items) != 1 || len(docs.Candidates.Items[0].Evidence) != 3 || len(docs.Lessons) == 0 {
		t.Fatalf("candidates.json holds %+v", docs.Candidates.Items)
	}

	boot, areas := bootstrap.BuildAll(docs)
	outputs := map[string]any{"the snapshot": query.FromSite(docs, boot)}
	for _, c := range append([]bootstrap.Candidates{boot}, slicesOf(areas)...) {
		_, js, md, err := bootstrap.Fit(c, 1_000_000)
		if err != nil {
			t.Fatal(err)
		}
		outputs["a bootstrap's JSON"], outputs["a bootstrap's Markdown"] = json.RawMessage(js), string(md)
		for what, v := range outputs {
			data, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(data, []byte(marker)) {
				t.Errorf("%s holds the candidate", what)
			}
		}
	}
}

// slicesOf are the bootstrap's candidates of each area.
func slicesOf(areas []bootstrap.Slice) []bootstrap.Candidates {
	var out []bootstrap.Candidates
	for _, a := range areas {
		out = append(out, a.Candidates)
	}
	return out
}
