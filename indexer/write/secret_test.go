package write

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/secrets"
	"github.com/engramhq/engram/indexer/secrets/secretstest"
	"github.com/engramhq/engram/indexer/source"
)

// TestWriteRefusesSecrets: a write that would put a secret into the
// repository is refused before anything is written, naming where, the
// rule and the fingerprint and never the secret, whichever field holds
// it and whichever write it is; a secret split across two fields is
// found as the build would find it, in the bytes of the file.
func TestWriteRefusesSecrets(t *testing.T) {
	ctx := context.Background()
	ks := secretstest.Kinds(29)
	ghp, pem, url, jwt := ks[0], ks[7], ks[9], ks[8]
	begin, rest, _ := strings.Cut(pem.Line, "\n")
	// Each half of the split key is no secret alone: only the note's
	// bytes, as the build reads them, hold one.
	s, _, err := secrets.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, half := range []string{begin, strings.ReplaceAll(rest, "\n", " ")} {
		if f := s.Scan("x.md", []byte(half)); len(f) > 0 {
			t.Fatalf("half of the split key is found alone: %v", f)
		}
	}
	for _, tc := range []struct {
		name, where string
		secret      string
		write       func(WriteOptions) (Written, error)
	}{
		{"in the task", "task", ghp.Secret, func(o WriteOptions) (Written, error) {
			in := episode("EPISODE-s")
			in.Task = "deploy with " + ghp.Line
			return NewEpisode(ctx, o, in)
		}},
		{"in the context", "Context", url.Secret, func(o WriteOptions) (Written, error) {
			in := episode("EPISODE-s")
			in.Context = "The database is " + url.Line + "."
			return UpsertEpisode(ctx, o, in)
		}},
		{"in a lesson", "Lessons Learned", jwt.Secret, func(o WriteOptions) (Written, error) {
			in := episode("EPISODE-s")
			in.Lessons = []string{"send " + jwt.Line}
			return NewEpisode(ctx, o, in)
		}},
		{"in a decision", "Decisions", ghp.Secret, func(o WriteOptions) (Written, error) {
			in := episode("EPISODE-s")
			in.Decisions = []DecisionInput{{Title: "auth", Rationale: ghp.Line}}
			return NewEpisode(ctx, o, in)
		}},
		{"in the title", "title", ghp.Secret, func(o WriteOptions) (Written, error) {
			return NewEpisode(ctx, o, episode("EPISODE-"+ghp.Secret))
		}},
		{"split across the context and a lesson", "Context", pem.Secret[:20], func(o WriteOptions) (Written, error) {
			in := episode("EPISODE-s")
			in.Context = begin
			in.Lessons = []string{strings.ReplaceAll(rest, "\n", " ")}
			return NewEpisode(ctx, o, in)
		}},
		{"in a pattern's trigger", "trigger", ghp.Secret, func(o WriteOptions) (Written, error) {
			return NewPattern(ctx, o, PatternInput{Title: "PATTERN-s", Trigger: "when " + ghp.Line + " expires", Action: "rotate it"})
		}},
		{"in a feedback session", "line 1", ghp.Secret, func(o WriteOptions) (Written, error) {
			return RecordFeedback(ctx, o, Feedback{Note: "retries", Kind: "echo", Session: ghp.Secret})
		}},
		{"in an event", "line 1", url.Secret, func(o WriteOptions) (Written, error) {
			w, _, err := AddEvents(ctx, o, []byte(`{"workflow_id":"w","event_type":"task_complete","timestamp":"2026-05-01T10:00:00Z","data":{"result":"`+url.Line+`"}}`))
			return w, err
		}},
		{"committed", "task", ghp.Secret, func(o WriteOptions) (Written, error) {
			o.Commit = true
			in := episode("EPISODE-s")
			in.Task = ghp.Line
			return NewEpisode(ctx, o, in)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := newWriteRepo(t)
			before := repoState(t, repo)
			_, err := tc.write(WriteOptions{Repo: repo, Now: writeNow})
			refused(t, repo, before, err, "secret")
			if err == nil {
				return
			}
			// A secret in the title is in the file name too, and so in
			// the fingerprint (path:rule:line): the rule is all it names.
			if msg := err.Error(); !strings.Contains(msg, tc.where) || tc.where != "title" && !strings.Contains(msg, "fingerprint") {
				t.Errorf("the refusal does not say where the secret is (%s) and its fingerprint: %v", tc.where, err)
			}
			if strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tc.secret)) {
				t.Errorf("the refusal quotes the secret: %v", err)
			}
		})
	}
}

// TestWriteAllowedSecret: a finding that .gitleaksignore allows, as the
// build reads it (committed or staged), is written, and the build takes
// it; the same line in an untracked .gitleaksignore allows nothing, as
// the build ignores that file.
func TestWriteAllowedSecret(t *testing.T) {
	ctx := context.Background()
	ghp := secretstest.Kinds(30)[0]
	repo := newWriteRepo(t)
	in := episode("EPISODE-fixture")
	in.Task = "a test fixture: " + ghp.Line
	opt := WriteOptions{Repo: repo, Now: writeNow}
	_, err := NewEpisode(ctx, opt, in)
	fp := regexp.MustCompile(`fingerprint (\S+:\S+:\d+)`).FindStringSubmatch(errText(err))
	if fp == nil {
		t.Fatalf("err = %v, want a fingerprint", err)
	}
	ignore := filepath.Join(repo, ".gitleaksignore")
	if err := os.WriteFile(ignore, []byte(fp[1]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := repoState(t, repo)
	_, err = NewEpisode(ctx, opt, in)
	refused(t, repo, before, err, "secret")
	if err := source.Stage(repo, ".gitleaksignore"); err != nil {
		t.Fatal(err)
	}
	if _, err := NewEpisode(ctx, opt, in); err != nil {
		t.Fatalf("a secret the staged .gitleaksignore allows: %v", err)
	}
	buildable(t, repo, "EPISODE-fixture")
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
