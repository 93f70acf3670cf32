package poison

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/engramhq/engram/indexer/note"
)

// Result is what Check finds in a repository's notes.
type Result struct {
	// Findings holds each note's findings, allowed ones too, in the order
	// of the notes given to Check.
	Findings [][]Finding
	// Poisoned says, for each note, whether it has a finding the allow
	// list does not name: the note is flagged.
	Poisoned []bool
	// Unused are the allow list's fingerprints that name no finding, in
	// the list's order.
	Unused []string
	Diags  note.Diagnostics
}

// Check finds the poisoned text of every note. read gives the file a note
// was read from, for positions (nil, or an error: the note's own lines);
// allow is the repository's reviewed list of fingerprints that are meant
// (a note about prompt injection quotes one on purpose). Each finding is
// a warning, an allowed one an info.
func Check(notes []note.Note, read func(path string) ([]byte, error), allow []string) Result {
	allowed := map[string]bool{}
	for _, a := range allow {
		allowed[a] = true
	}
	used := map[string]bool{}
	r := Result{Findings: findAll(notes, read), Poisoned: make([]bool, len(notes))}
	for i, fs := range r.Findings {
		for k := range fs {
			f := &fs[k]
			f.Allowed = allowed[f.Fingerprint]
			used[f.Fingerprint] = used[f.Fingerprint] || f.Allowed
			r.Poisoned[i] = r.Poisoned[i] || !f.Allowed
			r.report(f)
		}
	}
	for _, a := range allow {
		if !used[a] {
			r.Unused = append(r.Unused, a)
		}
	}
	return r
}

// findAll finds the poisoned text of every note on every core, in the
// notes' order. Only a note with a finding is read again, for positions.
func findAll(notes []note.Note, read func(path string) ([]byte, error)) [][]Finding {
	out := make([][]Finding, len(notes))
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var sc scanner
			for i := int(next.Add(1) - 1); i < len(notes); i = int(next.Add(1) - 1) {
				out[i] = sc.find(&notes[i], nil)
				if len(out[i]) > 0 && read != nil {
					if src, err := read(notes[i].Path); err == nil {
						out[i] = sc.find(&notes[i], src)
					}
				}
			}
		})
	}
	wg.Wait()
	return out
}

// AllowKey is where the allow list lives, for messages.
const AllowKey = "engram.toml [poisoning] allow"

func (r *Result) report(f *Finding) {
	where := "the " + f.Field
	if f.InComment {
		where += ", in an HTML comment the page does not show,"
	}
	if f.Allowed {
		r.Diags.Report(f.Path, f.Line, f.Col, note.Info, Rule, "%s asks an agent %s (%s, fingerprint %s); allowed by %s", where, f.Why, f.Category, f.Fingerprint, AllowKey)
		return
	}
	r.Diags.Report(f.Path, f.Line, f.Col, note.Warning, Rule,
		"%s addresses an agent with instructions: it asks the agent %s: %q (%s, fingerprint %s); the note is flagged and kept out of the bootstrap, advice and MCP answers; if the text is meant, allow its fingerprint in %s",
		where, f.Why, f.Excerpt, f.Category, f.Fingerprint, AllowKey)
}
