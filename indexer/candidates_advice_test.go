package indexer_test

import (
	"bytes"
	"context"
	"encoding/json"
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
	in, err := indexer.Load(context.Background(), indexer.Options{Repo: filepath.Join("..", "content")})
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
	if len(docs.Candidates.Items) != 1 || len(docs.Candidates.Items[0].Evidence) != len(evidence) {
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
