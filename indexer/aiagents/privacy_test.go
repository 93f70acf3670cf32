package aiagents

import (
	"bytes"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// TestDecodePrivacy: an ai-agents episode is withheld as a markdown note
// is, failing closed: "private": true, a value neither true nor false, a
// key like "private", and a repeat that sets it. Good and bad side by side.
func TestDecodePrivacy(t *testing.T) {
	const task = `"task": "Fix the build",`
	for _, tc := range []struct {
		name    string
		add     string // inserted after the task
		private bool
		rule    string // the diagnostic saying why, "" for none
		sev     note.Severity
	}{
		{"none", "", false, "", 0},
		{"false", `"private": false,`, false, "", 0},
		{"false-as-text", `"private": "no",`, false, "", 0},
		{"true", `"private": true,`, true, "private-json", note.Info},
		{"true-as-text", `"private": "yes",`, true, "private-json", note.Info},
		{"maybe", `"private": "maybe",`, true, "private-value", note.Error},
		{"null", `"private": null,`, true, "private-value", note.Error},
		{"number", `"private": 2,`, true, "private-value", note.Error},
		{"object", `"private": {"value": false},`, true, "private-value", note.Error},
		{"title-case", `"Private": false,`, true, "private-key", note.Warning},
		{"misspelt", `"privte": true,`, true, "private-key", note.Warning},
		{"swapped", `"pirvate": true,`, true, "private-key", note.Warning},
		{"repeated", `"private": true, "private": false,`, true, "private-json", note.Info},
		{"repeated-false-last", `"private": false, "private": true,`, true, "private-json", note.Info},
		{"unrelated", `"priority": "high",`, false, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := edit(t, task, task+tc.add)
			n, diags, err := Decode(testPath, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if n.Private != tc.private {
				t.Errorf("private = %t, want %t", n.Private, tc.private)
			}
			found := false
			for _, d := range diags {
				if strings.HasPrefix(d.Rule, "private-") {
					if d.Rule != tc.rule || d.Severity != tc.sev || d.Line != 6 || !strings.Contains(d.Message, "withheld") {
						t.Errorf("diagnostic %v, want %s %s on line 6 saying the episode is withheld", d, tc.sev, tc.rule)
					}
					found = true
				}
			}
			if tc.rule != "" && !found {
				t.Errorf("no %s diagnostic in %v", tc.rule, diags)
			}
		})
	}
}

// TestImportPrivate: engram import of a private episode writes a markdown
// note that is private too, and one of a public episode does not.
func TestImportPrivate(t *testing.T) {
	for _, tc := range []struct {
		add     string
		private bool
	}{
		{``, false},
		{`"private": false,`, false},
		{`"private": true,`, true},
		{`"Private": true,`, true},
		{`"private": "maybe",`, true},
	} {
		src := edit(t, `"task": "Fix the build",`, `"task": "Fix the build",`+tc.add)
		md, _, _, err := EpisodeMarkdown(testPath, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tc.add, err)
		}
		n, _, err := parse.New(parse.Roots{}).Parse("episodes/x.md", md)
		if err != nil || n.Private != tc.private {
			t.Errorf("%s: imported note private = %t (%v), want %t:\n%s", tc.add, n.Private, err, tc.private, md)
		}
		if tc.private && !bytes.Contains(md, []byte("\nprivate: true\n")) {
			t.Errorf("%s: no top-level private: true in\n%s", tc.add, md)
		}
	}
}
