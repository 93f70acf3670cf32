package layouttest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// crowdedMonth is how many episodes the bad-input repository has in one
// month (May 2026), for the outcomes chart's bar of that month.
const crowdedMonth = 10000

// Bad input that must not make a page wider than the screen: a path of
// 2,000 characters, a title that is one word of 300, 500 tags on a note.
var (
	longPath = "/" + strings.Repeat("very-long-directory-name/", 80)[:1990] + "/file.go"
	longWord = strings.Repeat("Supercalifragilistic", 15)
)

// badInputRepo writes issue 33's bad-input repository, a plain folder:
// crowdedMonth episodes in May 2026 and one a month around it (so the
// chart counts by month), an episode whose task is one 300-character
// word, with 500 tags, a 2,000-character path in its timeline and in a
// decision; a concept note titled with that word and those tags; a
// pattern whose rule is that word; a workflow event with that path.
func badInputRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	outcomes := []string{"success", "partial", "failure"}
	for i := range crowdedMonth {
		day := 1 + i%28
		write(t, dir, fmt.Sprintf("episodes/2026/05/EPISODE-2026-05-%02d-s%05d.md", day, i), fmt.Sprintf(
			"---\ntitle: EPISODE-2026-05-%02d-s%05d\ntype: episode\ndate: 2026-05-%02dT10:00:00Z\noutcome: %s\ntask: Routine task %d\n---\n\n## Context\n\nA routine session.\n",
			day, i, day, outcomes[i%len(outcomes)], i))
	}
	for m := 1; m <= 8; m++ {
		write(t, dir, fmt.Sprintf("episodes/2026/EPISODE-2026-%02d-20-other.md", m), fmt.Sprintf(
			"---\ntitle: EPISODE-2026-%02d-20-other\ntype: episode\ndate: 2026-%02d-20T10:00:00Z\noutcome: success\ntask: Another month\n---\n\n## Context\n\nAnother month.\n", m, m))
	}
	tags := make([]string, 500)
	for i := range tags {
		tags[i] = fmt.Sprintf("tag-%03d", i)
	}
	tagList := "[" + strings.Join(tags, ", ") + "]"
	write(t, dir, "episodes/2026/EPISODE-2026-06-02-bad.md", `---
title: EPISODE-2026-06-02-bad
type: episode
date: 2026-06-02T10:00:00Z
outcome: failure
task: `+longWord+`
tags: `+tagList+`
---

## Context

The file `+longPath+` was edited; `+longWord+`.

## Decisions

### d001: Keep the path `+longPath+`

- **Type**: design
- **Context**: `+longWord+`
- **Options**: `+longPath+`, `+longWord+`
- **Chosen**: `+longPath+`
- **Rationale**: `+longWord+`

## Events Timeline

- [2026-06-02T10:00:00Z] Edited `+longPath+` #tool_call
- [2026-06-02T10:05:00Z] `+longWord+` #error

## Lessons Learned

- `+longWord+`
`)
	write(t, dir, "concepts/long-title.md", "---\ntitle: "+longWord+"\ntype: concept\ntags: "+tagList+"\n---\n\n"+longPath+"\n\n## Observations\n\n- [fact] "+longWord+" #"+longWord[:60]+"\n")
	write(t, dir, "patterns/PATTERN-long.md", "---\ntitle: PATTERN-"+strings.ToLower(longWord)+"\ntype: pattern\ntrigger: "+longWord+"\naction: "+longPath+
		"\ntags: [bad]\n---\n\n## Evidence Episodes\n\n- [[EPISODE-2026-06-02-bad]] - failure\n")
	write(t, dir, "events/2026-06.jsonl", fmt.Sprintf(`{"id":"e-1","workflow_id":"%s","event_type":"task_complete","task_id":"%s","timestamp":"2026-06-02T11:00:00Z","data":{"path":%q}}`+"\n",
		strings.ToLower(longWord[:120]), longWord, longPath))
	return dir
}

func write(t *testing.T, dir, name, data string) {
	t.Helper()
	f := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
