package export

import (
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

// TestSchemaSameNames: two struct types of one name, from two packages,
// get a definition each, the second named by its package; a type met
// twice is defined once.
func TestSchemaSameNames(t *testing.T) {
	type both struct {
		Ours   Diagnostic      `json:"ours"`
		Theirs note.Diagnostic `json:"theirs"`
		Again  []Diagnostic    `json:"again"`
	}
	s := Schema("both.schema.json", "both", both{})
	defs := s["$defs"].(map[string]any)
	props := defs["both"].(map[string]any)["properties"].(map[string]any)
	ours := props["ours"].(map[string]any)["$ref"]
	theirs := props["theirs"].(map[string]any)["$ref"]
	again := props["again"].(map[string]any)["items"].(map[string]any)["$ref"]
	if ours != "#/$defs/Diagnostic" || again != ours {
		t.Errorf("export's Diagnostic is %v and %v, want #/$defs/Diagnostic", ours, again)
	}
	if theirs != "#/$defs/github_com_engramhq_engram_indexer_note_Diagnostic" {
		t.Errorf("note's Diagnostic is %v", theirs)
	}
	if len(defs) != 3 {
		t.Errorf("%d definitions, want 3 (both and the two Diagnostics)", len(defs))
	}
}
