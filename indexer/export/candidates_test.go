package export

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/engramhq/engram/indexer/mine"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/routes"
)

// testCandidates is a miner's result over testInput's three episodes:
// one candidate with a contrast, and evidence that names a note that is
// no episode (a pattern) and one that names nothing.
func testCandidates() mine.Result {
	ev := func(id, decision string, o note.Outcome) mine.Evidence {
		return mine.Evidence{Episode: id, Decision: decision, Outcome: o}
	}
	return mine.Result{
		Candidates: []mine.Candidate{{
			ID: "CANDIDATE-deploy-retry", Trigger: "When a <deploy> fails", Terms: []string{"deploy", "fails"}, Action: "retry the deploy",
			Choice: mine.Choice{Action: "retry the deploy", Occurrences: 3, SuccessRate: 2.0 / 3, Confidence: 0.20765, Sessions: 2, Evidence: []mine.Evidence{
				ev("EPISODE-2026-08-01-session-01", "d001", note.Success),
				ev("EPISODE-2026-08-03-session-01", "", note.Failure),
				ev("EPISODE-2026-08-05-session-02", "d002", note.Success),
			}},
			Contrasts: []mine.Choice{{Action: "roll back", Occurrences: 2, SuccessRate: 0.5, Confidence: 0.0945, Sessions: 1, Evidence: []mine.Evidence{
				ev("EPISODE-2026-08-03-session-01", "d001", note.Partial),
				ev("EPISODE-no-such-episode", "d001", note.Success),
				ev("PATTERN-retry", "", note.Success),
			}}},
		}},
		Withheld: map[string]int{"support": 4, "tautology": 1, "one-session": 2},
		Read:     map[string]int{"episodes": 3, "decisions": 5},
	}
}

// candidatesFile is the bytes of candidates.json and of its schema.
func candidatesFile(t *testing.T, r mine.Result) (doc, schema []byte) {
	t.Helper()
	in := testInput(t)
	in.Candidates = r
	files, err := Documents(in).Files()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		switch f.Path {
		case routes.Candidates:
			doc = f.Data
		case routes.Schema("candidates"):
			schema = f.Data
		}
	}
	if doc == nil || schema == nil {
		t.Fatalf("no %s or no schema for it", routes.Candidates)
	}
	return doc, schema
}

// validate checks doc against schema.
func validate(t *testing.T, doc, schema []byte) {
	t.Helper()
	s, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(routes.SchemaFile("candidates"), s); err != nil {
		t.Fatal(err)
	}
	compiled, err := c.Compile(routes.SchemaFile("candidates"))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := compiled.Validate(inst); err != nil {
		t.Errorf("candidates.json does not validate: %v", err)
	}
}

// TestCandidatesDocument: a miner's result is published in its order,
// valid against its schema, every evidence episode linked to its page
// and document, evidence that names no published episode left out and
// counted, and the file says it is no advice.
func TestCandidatesDocument(t *testing.T) {
	doc, schema := candidatesFile(t, testCandidates())
	validate(t, doc, schema)
	var got Candidates
	if err := json.Unmarshal(doc, &got); err != nil {
		t.Fatal(err)
	}
	if got.Advice || got.Note != CandidatesNote || got.Write != CandidatesWrite || got.ReferenceTime != formatTime(refTime) {
		t.Errorf("advice %v, note %q, write %q, reference time %q", got.Advice, got.Note, got.Write, got.ReferenceTime)
	}
	if len(got.Items) != 1 {
		t.Fatalf("%d candidates, want 1", len(got.Items))
	}
	c := got.Items[0]
	if c.ID != "CANDIDATE-deploy-retry" || c.Trigger != "When a <deploy> fails" || c.Action != "retry the deploy" || c.SuccessRate != 0.6667 || c.Confidence != 0.2077 || c.Sessions != 2 {
		t.Errorf("candidate %+v", c)
	}
	if len(c.Evidence) != 3 || c.Evidence[0].Decision != "d001" || c.Evidence[1].Decision != "" || c.Evidence[1].Outcome != "failure" {
		t.Errorf("evidence %+v", c.Evidence)
	}
	for _, ev := range append(c.Evidence, c.Contrasts[0].Evidence...) {
		slug := Slug(ev.ID)
		if ev.URL != "https://mem.example/"+routes.Page(routes.EpisodeFolder, slug) || ev.JSONURL != "https://mem.example/"+routes.Document(routes.EpisodeFolder, slug) {
			t.Errorf("%s links %s and %s", ev.ID, ev.URL, ev.JSONURL)
		}
	}
	if n := len(c.Contrasts[0].Evidence); n != 1 || got.DroppedEvidence != 2 || c.Contrasts[0].Occurrences != 2 {
		t.Errorf("contrast keeps %d evidence, dropped %d, want 1 and 2 (the pattern's and the missing episode's)", n, got.DroppedEvidence)
	}
	if got.Withheld["one-session"] != 2 || len(got.Withheld) != 3 || got.Read["decisions"] != 5 {
		t.Errorf("withheld %v, read %v", got.Withheld, got.Read)
	}
	if bytes.Contains(doc, []byte("<deploy>")) {
		t.Error("note text is not escaped for JSON: <deploy> appears as is")
	}
}

// TestCandidatesEmpty: with nothing mined the file is valid and its
// lists and counts are empty, never null; the manifest counts 0.
func TestCandidatesEmpty(t *testing.T) {
	doc, schema := candidatesFile(t, mine.Result{})
	validate(t, doc, schema)
	for _, want := range []string{`"items": []`, `"withheld": {}`, `"read": {}`, `"advice": false`, `"dropped_evidence": 0`} {
		if !bytes.Contains(doc, []byte(want)) {
			t.Errorf("candidates.json lacks %s:\n%s", want, doc)
		}
	}
	if n, ok := Documents(testInput(t)).Manifest.Counts["candidates"]; !ok || n != 0 {
		t.Errorf("the manifest counts %d candidates (%v)", n, ok)
	}
}
