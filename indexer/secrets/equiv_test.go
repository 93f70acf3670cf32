package secrets

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/secrets/secretstest"
	"github.com/zricethezav/gitleaks/v8/detect/codec"
)

// stock is what gitleaks itself finds in a file: its detector as its
// command line runs it (every rule, decoding five deep) over the whole
// text, read into Findings as Scan reads its own.
func stock(s *Scanner, path string, data []byte) []Finding {
	f := file{text: string(data), path: path, gitleaksPath: path}
	if s.output {
		f.gitleaksPath = ""
	} else if pathAllowed(s.cfg.Allowlists, path) {
		return nil
	}
	f.run(s.full, 0, -1)
	found, _ := s.findings(&f)
	return found
}

// agreementCases are texts holding each kind of secret in each place a
// note can hold it, disguised, and around the edges of the planner: lines
// the keyword is on, the lines after it, no final newline, CRLF, long
// lines, characters that lower-case to ASCII.
func agreementCases() map[string]string {
	cases := map[string]string{}
	for _, k := range secretstest.Kinds(7) {
		js, _ := json.Marshal(map[string]string{"task": "use " + k.Line})
		cases[k.Name+"/body"] = "---\ntitle: t\n---\n\n## Context\n\nWe used " + k.Line + " here.\n"
		cases[k.Name+"/frontmatter"] = "---\ntitle: t\nnote: |\n  " + strings.ReplaceAll(k.Line, "\n", "\n  ") + "\n---\nbody\n"
		cases[k.Name+"/code"] = "text\n\n```sh\nexport X=1\n" + k.Line + "\n```\n"
		cases[k.Name+"/json"] = string(js)
		cases[k.Name+"/last"] = "x\r\n" + k.Line
		cases[k.Name+"/base64"] = "blob " + base64.StdEncoding.EncodeToString([]byte(k.Line)) + "\n"
		cases[k.Name+"/long"] = strings.Repeat("word-"+k.Name+" ", 400) + k.Line + strings.Repeat(" tail", 400)
	}
	ghp := secretstest.Kinds(8)[0].Secret
	for name, text := range map[string]string{
		"password-next-line":  "password:\n    " + "Zq8" + "xK2mP9vL4nR7tY1wB5cD" + "\n",
		"key-then-value-line": "api_key =\n\n  \"" + "aK9" + "fL3mQ7xR2vT8wY4zB6n" + "\"\n",
		"generic-json":        `{"secret": "` + "p0Q" + `r8sT2uV6wX9yZ3aB5cD7e"}`,
		"generic-and-ghp":     "token = " + ghp + "\n",
		"kelvin":              "\u212aey = " + "Zq8" + "xK2mP9vL4nR7tY1wB5cD" + "\n",
		"dotted-i":            "\u0130 token = " + "Zq8" + "xK2mP9vL4nR7tY1wB5cD" + "\n",
		"words-only":          "the key insight: tokens are authored by the access layer; they say so.\n",
		"hex":                 "x " + fmt.Sprintf("%x", "token = "+ghp) + "\n",
		"percent":             "x %74oken=" + ghp + "\n",
		"no-newline":          ghp,
		"empty":               "",
	} {
		cases[name] = text
	}
	return cases
}

// TestScanAgreesWithGitleaks: the planned scan finds what gitleaks finds
// over the whole file, position, rule and fingerprint alike, in a note
// and in a build's output.
func TestScanAgreesWithGitleaks(t *testing.T) {
	s, _, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range agreementCases() {
		t.Run(name, func(t *testing.T) {
			for _, sc := range []*Scanner{s, s.Output(nil)} {
				got, want := sc.Scan("episodes/a.md", []byte(text)), stock(sc, "episodes/a.md", []byte(text))
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("output=%v\nscan     %v\ngitleaks %v", sc.output, got, want)
				}
			}
		})
	}
}

// FuzzScanAgreesWithGitleaks: for any text, the planned scan and gitleaks
// over the whole file agree.
func FuzzScanAgreesWithGitleaks(f *testing.F) {
	for _, text := range agreementCases() {
		f.Add(text)
	}
	s, _, err := New(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, want := s.Scan("a.md", []byte(text)), stock(s, "a.md", []byte(text))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("scan     %v\ngitleaks %v", got, want)
		}
	})
}

// TestPlanWindowsBusyRules: the rules whose keywords are common words
// are scanned around their keywords, not over whole files (a gitleaks
// update that changes their expressions shows here first).
func TestPlanWindowsBusyRules(t *testing.T) {
	cfg, err := defaultConfig()
	if err != nil {
		t.Fatal(err)
	}
	win, whole := plan(cfg)
	planned := map[string]bool{}
	for _, w := range win {
		planned[w.id] = true
	}
	for _, id := range []string{"generic-api-key", "jwt", "vault-service-token", "twilio-api-key", "private-key", "github-pat", "aws-access-token", "atlassian-api-token"} {
		if !planned[id] {
			t.Errorf("%s is scanned over whole files", id)
		}
	}
	t.Logf("%d rules windowed, %d over whole files: %v", len(planned), len(whole), whole)
}

// FuzzDecodeGate: wherever gitleaks' decoder decodes something, the
// decode gate sends the lines to gitleaks.
func FuzzDecodeGate(f *testing.F) {
	for _, s := range []string{
		"episode-2026-01-04-session-01", "4de5df5ff1cd90c875884aeb798bb57a430788b3", "dG9rZW4gPSBhYmNkZWZnaGlqa2xtbm9w",
		"x 746f6b656e203d20616263646566676869 y", "a%20b", `\u0041\u0042`, "U+0041 ", "/api/v1/episodes/x-1.json",
		"YWJjZGVmZ2hpamtsbW5vcA==", "YWJjZGVmZ2hpamtsbW5vcA", "abc_def-ghi_jkl-mno", base64.URLEncoding.EncodeToString([]byte("token=abc123-xyz?")),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		_, segs := codec.NewDecoder().Decode(text, nil)
		fired := false
		encodedLines(text, func(int) { fired = true })
		if len(segs) > 0 && !fired {
			t.Errorf("gitleaks decodes %q; the gate does not send it", text)
		}
	})
}
