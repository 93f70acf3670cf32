package aiagents_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/aiagents/exporter"
	"github.com/engramhq/engram/indexer/note"
)

// TestCausalOrderVersion: a JSON episode kept in a memory repository
// (not imported) exports its causal_order_version; one that is not a
// number is a positioned warning and is not written.
func TestCausalOrderVersion(t *testing.T) {
	const path = "episodes/episode-2026-08-02-session-8.json"
	tests := []struct {
		name, value string
		want        any    // in the exported file; nil: absent
		diag        string // the one diagnostic; "" for none
	}{
		{name: "good", value: `2`, want: json.Number("2")},
		{name: "bad", value: `"2"`,
			diag: path + ":1:26: warning: causal_order_version should be a number, not a string; ignored [aiagents-type]"},
		{name: "null", value: `null`, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `{"causal_order_version": ` + tt.value + "," + strings.TrimPrefix(plainEpisode, "{") // the value at 1:26
			n, diags, err := aiagents.Decode(path, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range diags {
				got = append(got, d.String())
			}
			if want := nonEmpty(tt.diag); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			files, _, err := exporter.Export(exporter.Input{Notes: []note.Note{n}})
			if err != nil {
				t.Fatal(err)
			}
			var raw map[string]any
			dec := json.NewDecoder(strings.NewReader(string(files[0].Data)))
			dec.UseNumber()
			if err := dec.Decode(&raw); err != nil {
				t.Fatal(err)
			}
			v, ok := raw["causal_order_version"]
			if v != tt.want || ok != (tt.name != "bad") {
				t.Errorf("exported causal_order_version %v (present %v), want %v", v, ok, tt.want)
			}
		})
	}
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
