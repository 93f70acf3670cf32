package indexer_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/poison"
)

// lookAlikes are the topics of memory poisoning as real notes talk about
// them: --no-verify, force-pushes, pushes to main, system prompts, curl,
// skipped reviews, comments, invisible characters, secrets and tokens.
// The real-corpus test counts the texts that mention one, to say how many
// look-alikes the detector read without flagging.
var lookAlikes = regexp.MustCompile(`(?i)--no-verify|force[- ]?push|push(?:ed|ing|es)? (?:\w+ )?(?:directly )?to (?:main|master)|system prompt|\bcurl\b|\bwget\b|ignor(?:e|ed|ing) (?:the |all |any )?(?:previous|prior|above)|skip(?:ped|ping|s)? (?:the )?(?:code )?review|<!--|[\x{200B}-\x{200D}\x{2060}\x{FEFF}\x{202A}-\x{202E}]|\bsecrets?\b|\btokens?\b|\bcredentials?\b|do not tell|don't tell`)

// TestPoisoningRealCorpus: on every real snapshot (each ai-agents
// snapshot as a repository, with its causal graph's patterns imported
// where it has one, and every basic-memory note), memory poisoning flags
// nothing: real agent notes talk about these things without addressing
// an agent. Every finding would be listed here with its text.
func TestPoisoningRealCorpus(t *testing.T) {
	if _, err := os.Stat(realCorpus); err != nil {
		t.Skipf("the real-data corpus (%s) is not here; skipping: %v", realCorpus, err)
	}
	total := struct{ notes, fields, lookAlike int }{}
	check := func(t *testing.T, notes []note.Note, read func(string) ([]byte, error)) {
		r := poison.Check(notes, read, nil)
		for _, fs := range r.Findings {
			for _, f := range fs {
				t.Errorf("%s:%d:%d: %s in %s: %q", f.Path, f.Line, f.Col, f.Category, f.Field, f.Excerpt)
			}
		}
		for i := range notes {
			for _, f := range poison.Fields(&notes[i]) {
				total.fields++
				if lookAlikes.MatchString(f.Text) {
					total.lookAlike++
				}
			}
		}
		total.notes += len(notes)
	}
	for _, s := range realSnapshots {
		for _, dir := range []string{filepath.Join(realCorpus, s.name), s.repo(t)} {
			t.Run(dir, func(t *testing.T) {
				l, err := indexer.Load(context.Background(), indexer.Options{Repo: dir})
				if err != nil {
					t.Fatal(err)
				}
				check(t, l.Export.Notes, func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, p)) })
			})
		}
	}
	// basic-memory's notes are its test fixtures and docs, with titles
	// that repeat across folders: each is read on its own.
	t.Run("basic-memory", func(t *testing.T) {
		p := parse.New(parse.Roots{})
		var notes []note.Note
		srcs := map[string][]byte{}
		root := filepath.Join(realCorpus, "basic-memory")
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || filepath.Ext(path) != ".md" {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			n, _, err := p.Parse(filepath.ToSlash(rel), src)
			if err == nil {
				notes, srcs[n.Path] = append(notes, n), src
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		check(t, notes, func(p string) ([]byte, error) { return srcs[p], nil })
	})
	t.Logf("%d notes, %d texts an agent may be handed, %d of them about a look-alike topic; none flagged", total.notes, total.fields, total.lookAlike)
}
