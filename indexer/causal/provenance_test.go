package causal

import (
	"slices"
	"testing"
)

// TestProvenance: episode ↔ thread and episode ↔ concept links are merged
// from both sides; a link only one side declares is an info diagnostic; a
// thread or session no episode derives from is pending.
func TestProvenance(t *testing.T) {
	notes, res := build(t, repo{
		"episodes/e1.md": "---\ntitle: EP-1\noutcome: success\ntask: t\nsource_thread: Thread A\nconcepts: [Ledger, Nowhere]\n---\n",
		"episodes/e2.md": "---\ntitle: EP-2\noutcome: success\ntask: t\n---\n",
		"notes/a.md":     "---\ntitle: Thread A\ntype: thread\n---\n",
		"notes/b.md":     "---\ntitle: Thread B\ntype: thread\nepisodes: [EP-2]\n---\n",
		"notes/c.md":     "---\ntitle: Thread C\ntype: thread\n---\n",
		"notes/s.md":     "---\ntitle: Session S\ntype: session\n---\n",
		"notes/l.md":     "---\ntitle: Ledger\ntype: concept\nepisodes: [EP-1, EP-2, Thread A]\n---\n",
	})
	pv := res.Provenance
	title := func(i int) string { return notes[i].Title }
	titles := func(is []int) []string {
		var out []string
		for _, i := range is {
			out = append(out, title(i))
		}
		return out
	}
	e1, e2 := noteIndex(t, notes, "EP-1"), noteIndex(t, notes, "EP-2")
	if title(pv.Thread[e1]) != "Thread A" || title(pv.Thread[e2]) != "Thread B" {
		t.Errorf("threads: %v, %v", pv.Thread[e1], pv.Thread[e2])
	}
	if got := titles(pv.Concepts[e2]); !slices.Equal(got, []string{"Ledger"}) {
		t.Errorf("EP-2 concepts %q (declared by the concept only)", got)
	}
	if got := titles(pv.Episodes[noteIndex(t, notes, "Ledger")]); !slices.Equal(got, []string{"EP-1", "EP-2"}) {
		t.Errorf("Ledger episodes %q", got)
	}
	if got := titles(pv.Pending); !slices.Equal(got, []string{"Thread C", "Session S"}) && !slices.Equal(got, []string{"Session S", "Thread C"}) {
		t.Errorf("pending %q, want Thread C and Session S", got)
	}
	// EP-1 → Thread A (episode side only), EP-2 ← Thread B (thread side
	// only), EP-2 ← Ledger (concept side only): three one-sided links.
	// EP-1 ↔ Ledger is declared by both.
	if got := withRule(res.Diags, "provenance-one-sided"); len(got) != 3 {
		t.Errorf("provenance-one-sided: %v", got)
	}
	// Nowhere names no note; Thread A is not an episode.
	if got := withRule(res.Diags, "provenance-target"); len(got) != 2 {
		t.Errorf("provenance-target: %v", got)
	}
}
