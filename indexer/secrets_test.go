package indexer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/secrets/secretstest"
	"github.com/engramhq/engram/indexer/source"
)

// secretCase is one kind of secret in one place of a memory repository.
type secretCase struct {
	kind  secretstest.Kind
	place string
	path  string
	title string
	data  []byte
}

func (c secretCase) name() string { return c.kind.Name + "/" + c.place }

// secretPlaces puts a line of text where a note can hold it: its markdown
// body, its front matter, a fenced code block, an ai-agents episode JSON.
var secretPlaces = []string{"body", "frontmatter", "code", "json"}

func newSecretCase(k secretstest.Kind, place string) secretCase {
	title := "EPISODE-2026-03-01-" + k.Name + "-" + place
	c := secretCase{kind: k, place: place, title: title, path: "episodes/" + title + ".md"}
	head := "---\ntitle: " + title + "\noutcome: success\n"
	switch place {
	case "body":
		c.data = []byte(head + "task: Deploy the service\n---\n\n## Context\n\nWe used " + k.Line + " for the deploy.\n")
	case "frontmatter":
		indented := strings.ReplaceAll(k.Line, "\n", "\n  ")
		c.data = []byte(head + "task: |\n  Deploy with " + indented + "\n---\n\n## Context\n\nPlain text.\n")
	case "code":
		c.data = []byte(head + "task: Deploy the service\n---\n\n## Context\n\nThe script:\n\n```sh\n" + k.Line + "\n```\n")
	case "json":
		id := "episode-2026-03-01-" + k.Name + "-json"
		c.title, c.path = id, "episodes/"+id+".json"
		c.data, _ = json.MarshalIndent(map[string]any{
			"id": id, "session": "s1", "timestamp": "2026-03-01T10:00:00Z", "outcome": "success",
			"task": "Deploy with " + k.Line, "events": []any{}, "lessons": []any{}, "decisions": []any{}, "metrics": map[string]any{},
		}, "", "  ")
	}
	return c
}

// secretCases are every kind of secret in every place.
func secretCases() []secretCase {
	var cs []secretCase
	for _, k := range secretstest.Kinds(11) {
		for _, p := range secretPlaces {
			cs = append(cs, newSecretCase(k, p))
		}
	}
	return cs
}

// writeRepo writes a plain directory repository of the files and a good
// episode.
func writeRepo(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	files["episodes/good.md"] = []byte(goodEpisode)
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// pieces are the parts of a secret that must never be published: a
// private key line by line (JSON escapes its newlines), in any case.
func pieces(k secretstest.Kind) []string {
	var out []string
	for _, p := range strings.Split(k.Secret, "\n") {
		out = append(out, p, strings.ToLower(p))
	}
	return out
}

// leaks names the places that hold a piece of a secret.
func leaks(k secretstest.Kind, texts map[string][]byte) []string {
	var where []string
	for name, text := range texts {
		for _, p := range pieces(k) {
			if bytes.Contains(text, []byte(p)) {
				where = append(where, name)
				break
			}
		}
	}
	return where
}

// reportTexts are everything a build says: its error, diagnostics and log.
func reportTexts(r *indexer.Report, err error, log *bytes.Buffer) map[string][]byte {
	texts := map[string][]byte{"log": log.Bytes()}
	if err != nil {
		texts["error"] = []byte(err.Error())
	}
	if r != nil {
		for _, d := range r.Diagnostics {
			texts["diagnostic "+d.String()] = []byte(d.String())
		}
	}
	return texts
}

// TestSecretsRefused: every kind of secret in every place refuses the
// build with an error diagnostic naming the file, the rule and the
// fingerprint, and nothing is published; the secret is in no diagnostic,
// no error and no log.
func TestSecretsRefused(t *testing.T) {
	for _, c := range secretCases() {
		t.Run(c.name(), func(t *testing.T) {
			repo := writeRepo(t, map[string][]byte{c.path: c.data})
			out := filepath.Join(t.TempDir(), "public")
			var log bytes.Buffer
			r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, Log: &log, CacheDir: t.TempDir()})
			if where := leaks(c.kind, reportTexts(r, err, &log)); len(where) > 0 {
				t.Errorf("the secret is in %v", where)
			}
			if !errors.Is(err, indexer.ErrRefused) {
				t.Fatalf("build: %v, want refused", err)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a refused build made its output: %v", err)
			}
			want := fmt.Sprintf("secret found (rule %s, fingerprint %s:%s:", c.kind.Rule, c.path, c.kind.Rule)
			if d, ok := diagnostic(r.Diagnostics, c.path, "secret"); !ok || d.Severity != note.Error || !strings.Contains(d.Message, want) {
				t.Errorf("want an error diagnostic %q at %s, got %v", want, c.path, d)
			}
		})
	}
}

func diagnostic(ds []note.Diagnostic, path, rule string) (note.Diagnostic, bool) {
	for _, d := range ds {
		if d.Path == path && d.Rule == rule {
			return d, true
		}
	}
	return note.Diagnostic{}, false
}

// TestSecretsRefusedKeepsOutput: a refused build leaves the previous
// output as it was.
func TestSecretsRefusedKeepsOutput(t *testing.T) {
	files := map[string][]byte{}
	repo := writeRepo(t, files)
	out := filepath.Join(t.TempDir(), "public")
	build(t, repo, out)
	before := tree(t, out)
	c := newSecretCase(secretstest.Kinds(12)[0], "body")
	if err := os.WriteFile(filepath.Join(repo, filepath.FromSlash(c.path)), c.data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: t.TempDir()})
	if !errors.Is(err, indexer.ErrRefused) {
		t.Fatalf("build: %v, want refused", err)
	}
	after := tree(t, out)
	if len(after) != len(before) {
		t.Fatalf("the output changed: %d files, then %d", len(before), len(after))
	}
	for p, data := range before {
		if !bytes.Equal(after[p], data) {
			t.Errorf("%s changed", p)
		}
	}
}

// TestSecretsRedacted: with Redact, every kind of secret in every place
// is published as [REDACTED:rule], in the note's own JSON, and is in no
// output file, no diagnostic and no log; each finding is a warning.
func TestSecretsRedacted(t *testing.T) {
	cases := secretCases()
	files := map[string][]byte{}
	for _, c := range cases {
		files[c.path] = c.data
	}
	repo := writeRepo(t, files)
	out := filepath.Join(t.TempDir(), "public")
	var log bytes.Buffer
	r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, Redact: true, Log: &log, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	output := tree(t, out)
	for _, c := range cases {
		t.Run(c.name(), func(t *testing.T) {
			if where := leaks(c.kind, output); len(where) > 0 {
				t.Errorf("the secret is published in %v", where)
			}
			if where := leaks(c.kind, reportTexts(r, nil, &log)); len(where) > 0 {
				t.Errorf("the secret is in %v", where)
			}
			page := output["api/v1/episodes/"+export.Slug(c.title)+".json"]
			if !bytes.Contains(page, []byte("[REDACTED:"+c.kind.Rule+"]")) {
				t.Errorf("%s's JSON does not show [REDACTED:%s]:\n%s", c.path, c.kind.Rule, page)
			}
			if d, ok := diagnostic(r.Diagnostics, c.path, "secret"); !ok || d.Severity != note.Warning || !strings.Contains(d.Message, "rule "+c.kind.Rule) {
				t.Errorf("want a warning for rule %s at %s, got %v", c.kind.Rule, c.path, d)
			}
		})
	}
}

// TestSecretsAllowedByFingerprint: a fingerprint in .gitleaksignore lets
// exactly that finding through, published as it is (and the output scan
// lets it through too), and not a secret of the same rule elsewhere.
func TestSecretsAllowedByFingerprint(t *testing.T) {
	ks := secretstest.Kinds(13)
	allowed := newSecretCase(ks[0], "body")
	allowed.path = "episodes/fixture.md"
	other := newSecretCase(secretstest.Kinds(14)[0], "code")
	// The body's secret is on line 9: the fingerprint gitleaks prints.
	ignore := []byte("# a token of the test fixture, revoked\n" + allowed.path + ":github-pat:9\n")
	repo := writeRepo(t, map[string][]byte{allowed.path: allowed.data, ".gitleaksignore": ignore})
	out := filepath.Join(t.TempDir(), "public")
	build(t, repo, out)
	if len(leaks(allowed.kind, tree(t, out))) == 0 {
		t.Errorf("the allowed secret is not published")
	}

	if err := os.WriteFile(filepath.Join(repo, filepath.FromSlash(other.path)), other.data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: t.TempDir()})
	if !errors.Is(err, indexer.ErrRefused) {
		t.Fatalf("build: %v, want refused for the secret that is not allowed", err)
	}
	if d, ok := diagnostic(r.Diagnostics, other.path, "secret"); !ok || d.Severity != note.Error {
		t.Errorf("want an error at %s, got %v", other.path, d)
	}
	if d, ok := diagnostic(r.Diagnostics, allowed.path, "secret"); !ok || d.Severity != note.Info {
		t.Errorf("want the allowed finding as info at %s, got %v", allowed.path, d)
	}
}

// TestSecretsAsTag: a token used as a tag (it becomes a URL slug) is
// found in the front matter; redacted, neither it nor its slug is
// published.
func TestSecretsAsTag(t *testing.T) {
	k := secretstest.Kinds(15)[0]
	data := []byte("---\ntitle: EPISODE-2026-03-02-tagged\noutcome: success\ntask: T\ntags: [deploy, " + k.Secret + "]\n---\n\n## Context\n\nText.\n")
	repo := writeRepo(t, map[string][]byte{"episodes/tagged.md": data})
	out := filepath.Join(t.TempDir(), "public")
	_, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: t.TempDir()})
	if !errors.Is(err, indexer.ErrRefused) {
		t.Fatalf("build: %v, want refused", err)
	}
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, Redact: true, CacheDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	slug := export.Slug(k.Secret)
	for p, text := range tree(t, out) {
		if where := leaks(k, map[string][]byte{p: text}); len(where) > 0 || strings.Contains(p, slug) || bytes.Contains(text, []byte(slug)) {
			t.Errorf("%s holds the token or its slug %s", p, slug)
		}
	}
}

// BenchmarkSecrets10k is the whole build of 10,000 generated notes
// (gen.Sized), with the time of its two secret scans: every input file
// (stage secrets) and the finished output (stage secrets-out). overhead-%
// is their share of the rest of the build, measured in the same run.
func BenchmarkSecrets10k(b *testing.B) {
	repo := b.TempDir()
	if err := source.WriteRepo(repo, gen.Generate(gen.Sized(10_000)).Commits); err != nil {
		b.Fatal(err)
	}
	var in, out, rest time.Duration
	i := 0
	for b.Loop() {
		i++
		dir := filepath.Join(b.TempDir(), fmt.Sprint(i))
		r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: dir, CacheDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range r.Stages {
			switch s.Name {
			case "secrets":
				in += s.Duration
			case "secrets-out":
				out += s.Duration
			default:
				rest += s.Duration
			}
		}
	}
	b.ReportMetric(float64(in.Milliseconds())/float64(i), "in-ms/op")
	b.ReportMetric(float64(out.Milliseconds())/float64(i), "out-ms/op")
	b.ReportMetric(100*float64(in+out)/float64(rest), "overhead-%")
}

// TestSecretInFileName: a token in a file's or a folder's name, or in a
// symlink's, is found and named by the path with the token redacted, in
// every message a build or a check gives; the build refuses, and with
// Redact publishes the note under that path, the token in no output
// file's path or bytes (source.path, slugs, the diagnostics page).
func TestSecretInFileName(t *testing.T) {
	k := secretstest.Kinds(34)[0]
	red := "[REDACTED:" + k.Rule + "]"
	files := map[string][]byte{
		// A note with no title is titled by its file name.
		"notes/" + k.Secret + ".md":                 []byte("Plain [[missing-note]].\n"),
		"episodes/" + k.Secret + "/EPISODE-2026.md": []byte("---\ntitle: EPISODE-2026-03-04-session-01\noutcome: success\ntask: T\n---\n\n## Context\n\nSee [[nowhere]].\n"),
		"images/" + k.Secret + ".png":               []byte("not a note"),
	}
	repo := writeRepo(t, files)
	if err := os.Symlink("../episodes/good.md", filepath.Join(repo, "notes", "link-"+k.Secret+".md")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	var log bytes.Buffer
	r, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, Log: &log, CacheDir: t.TempDir()})
	if !errors.Is(err, indexer.ErrRefused) {
		t.Fatalf("build: %v, want refused", err)
	}
	for name, text := range reportTexts(r, err, &log) {
		if secretstest.Holds(text, k.Secret) {
			t.Errorf("the build's %s holds the token", name)
		}
	}
	for _, p := range []string{"notes/" + red + ".md", "episodes/" + red + "/EPISODE-2026.md", "images/" + red + ".png"} {
		if d, ok := diagnostic(r.Diagnostics, p, "secret"); !ok || d.Severity != note.Error || !strings.Contains(d.Message, "in the file's path (rule "+k.Rule) {
			t.Errorf("want an error diagnostic at %s for the token in its path, got %v", p, d)
		}
	}
	l, err := indexer.Load(context.Background(), indexer.Options{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range l.Diagnostics {
		if secretstest.Holds([]byte(d.String()), k.Secret) {
			t.Errorf("check prints the token: %s", d)
		}
	}

	log.Reset()
	r, err = indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, Log: &log, Redact: true, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatalf("build with Redact: %v", err)
	}
	for name, text := range reportTexts(r, nil, &log) {
		if secretstest.Holds(text, k.Secret) {
			t.Errorf("the redacting build's %s holds the token", name)
		}
	}
	output := tree(t, out)
	for p, data := range output {
		if secretstest.Holds([]byte(p), k.Secret) || secretstest.Holds(data, k.Secret) {
			t.Errorf("the output file %s holds the token in its path or bytes", p)
		}
	}
	if !bytes.Contains(output["api/v1/episodes/episode-2026-03-04-session-01.json"], []byte(`"path": "episodes/`+red+`/EPISODE-2026.md"`)) {
		t.Errorf("the episode's source.path is not its redacted path:\n%s", output["api/v1/episodes/episode-2026-03-04-session-01.json"])
	}
}
