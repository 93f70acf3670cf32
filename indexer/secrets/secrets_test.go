package secrets_test

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/secrets"
	"github.com/engramhq/engram/indexer/secrets/secretstest"
)

func scanner(t *testing.T, ignore string) *secrets.Scanner {
	t.Helper()
	s, problems, err := secrets.New([]byte(ignore))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) > 0 {
		t.Fatalf("ignore file problems: %v", problems)
	}
	return s
}

// TestScanKinds: each kind of credential is found by its rule at its
// line and column (1-based, as the diagnostics print them), and Clean
// replaces it by [REDACTED:rule] and keeps the lines below in place.
func TestScanKinds(t *testing.T) {
	matchStartsLine := map[string]bool{"generic-api-key": true, "url-credentials": true, "private-key": true}
	s := scanner(t, "")
	for _, k := range secretstest.Kinds(1) {
		t.Run(k.Name, func(t *testing.T) {
			text := "# notes\n\nsome text é " + k.Line + "\nlast line\n"
			found := s.Scan("episodes/a.md", []byte(text))
			if len(found) != 1 || found[0].Rule != k.Rule {
				t.Fatalf("found %v, want one %s", found, k.Rule)
			}
			f := found[0]
			// generic-api-key's match begins at the key name,
			// url-credentials' at the URL's scheme, private-key's at
			// -----BEGIN; the others' at the secret.
			wantCol := len([]rune("some text é ")) + 1
			if i := strings.Index(k.Line, k.Secret); i >= 0 && !matchStartsLine[k.Rule] {
				wantCol += len([]rune(k.Line[:i]))
			}
			if f.Line != 3 || f.Col != wantCol || f.Fingerprint != "episodes/a.md:"+k.Rule+":3" || f.Allowed {
				t.Errorf("finding %v (line %d col %d), want line 3 col %d", f, f.Line, f.Col, wantCol)
			}
			clean, all, left := s.Clean("episodes/a.md", []byte(text))
			if len(left) != 0 || len(all) != 1 {
				t.Errorf("Clean found %v, left %v", all, left)
			}
			if strings.Contains(string(clean), k.Secret) || !strings.Contains(string(clean), "[REDACTED:"+k.Rule+"]") {
				t.Errorf("Clean did not redact:\n%s", clean)
			}
			if strings.Count(string(clean), "\n") != strings.Count(text, "\n") || !strings.HasSuffix(string(clean), "\nlast line\n") {
				t.Errorf("Clean moved the lines:\n%s", clean)
			}
		})
	}
}

// TestFindingNeverPrintsTheSecret: every way of printing a finding shows
// the position, rule and fingerprint only.
func TestFindingNeverPrintsTheSecret(t *testing.T) {
	s := scanner(t, "")
	k := secretstest.Kinds(2)[0]
	found := s.Scan("a.md", []byte(k.Line))
	if len(found) != 1 {
		t.Fatalf("found %v", found)
	}
	want := "a.md:1:7: rule github-pat, fingerprint a.md:github-pat:1"
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
		got := fmt.Sprintf(verb, found[0])
		if got != want {
			t.Errorf("%s prints %q, want %q", verb, got, want)
		}
	}
	if got := fmt.Sprintf("%v %+v", found, struct{ F secrets.Finding }{found[0]}); strings.Contains(got, k.Secret) {
		t.Errorf("the secret is printed: %s", got)
	}
}

// TestIgnoreFile: a fingerprint in .gitleaksignore allows exactly that
// finding, not the same rule on another line or in another file; Clean
// leaves an allowed secret as it is, and a scanner Allowing the input's
// allowed findings lets the same secret through anywhere (a build's
// output), in another case or escaped.
func TestIgnoreFile(t *testing.T) {
	ks := secretstest.Kinds(3)
	ghp, other := ks[0], secretstest.Kinds(4)[0]
	s := scanner(t, "# reviewed: a test fixture\n\nepisodes\\a.md:github-pat:2\n")
	text := "x\n" + ghp.Line + "\n" + other.Line + "\n"
	clean, found, left := s.Clean("episodes/a.md", []byte(text))
	if len(found) != 2 || !found[0].Allowed || found[1].Allowed || len(left) != 0 {
		t.Fatalf("found %v left %v, want line 2 allowed and line 3 not", found, left)
	}
	if !strings.Contains(string(clean), ghp.Secret) || strings.Contains(string(clean), other.Secret) {
		t.Errorf("Clean should keep the allowed secret only:\n%s", clean)
	}
	if f := s.Scan("episodes/b.md", []byte(text)); f[0].Allowed {
		t.Errorf("the fingerprint of a.md allowed b.md: %v", f)
	}
	out := s.Output(found)
	html := "<p>" + strings.ToLower(ghp.Secret) + "</p>\n<p>" + other.Secret + "</p>"
	if f := out.Scan("episodes/a/index.html", []byte(html)); len(f) != 2 || !f[0].Allowed || f[1].Allowed {
		t.Errorf("output scan %v: want the allowed secret allowed, the other not", f)
	}
}

// TestScannerKey: the key of a scanner (what a reused page was scanned
// under) changes with the ignore file, with the secrets the output lets
// through, and with being an output scanner, and with nothing else.
func TestScannerKey(t *testing.T) {
	ghp := secretstest.Kinds(3)[0]
	plain, same := scanner(t, ""), scanner(t, "# only a comment\n")
	ignoring := scanner(t, "episodes\\a.md:github-pat:2\n")
	_, found, _ := ignoring.Clean("episodes/a.md", []byte("x\n"+ghp.Line+"\n"))
	keys := map[string][32]byte{
		"plain":                   plain.Key(),
		"ignoring":                ignoring.Key(),
		"output":                  plain.Output(nil).Key(),
		"output, one let through": ignoring.Output(found).Key(),
	}
	seen := map[[32]byte]string{}
	for name, k := range keys {
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s have one key", name, other)
		}
		seen[k] = name
	}
	if plain.Key() != same.Key() || plain.Output(nil).Key() != same.Output(nil).Key() {
		t.Error("two scanners that let the same through have different keys")
	}
}

// TestIgnoreFileProblems: lines that are not global fingerprints are
// reported with their line numbers.
func TestIgnoreFileProblems(t *testing.T) {
	_, problems, err := secrets.New([]byte("a.md:jwt:3\nnot a fingerprint\n0123abc:a.md:jwt:3\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 2 || problems[0].Line != 2 || problems[1].Line != 3 || problems[0].Path != secrets.IgnoreFile {
		t.Errorf("problems %v", problems)
	}
}

// TestBypasses records what gitleaks (its default rules and engram's,
// decoding 5 deep) finds when a token is disguised, and that Clean
// redacts what it finds.
// A miss here is a known gap (BENCHMARKS.md, "Secret scanning").
func TestBypasses(t *testing.T) {
	s := scanner(t, "")
	ks := secretstest.Kinds(5)
	ghp, awsSecret := ks[0].Secret, ks[3].Secret
	pct := func(s string) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			fmt.Fprintf(&b, "%%%02X", c)
		}
		return b.String()
	}
	for _, c := range []struct {
		name, text string
		found      bool
	}{
		{"in a URL's query", "https://api.github.com/user?access_token=" + ghp + "&page=2", true},
		{"as a URL's user", "https://" + ghp + "@github.com/o/r.git", true},
		{"URL query-escaped", "https://x.test/?t=" + url.QueryEscape(ghp+" "), true},
		{"percent-encoded", pct(ghp), true},
		{"base64", base64.StdEncoding.EncodeToString([]byte(ghp)), true},
		{"base64 twice", base64.StdEncoding.EncodeToString([]byte(base64.StdEncoding.EncodeToString([]byte(ghp)))), true},
		{"hex", fmt.Sprintf("%x", ghp), true},
		{"as a tag", "tags: [" + ghp + "]", true},
		{"a tag's slug", "/tags/" + strings.ReplaceAll(strings.ToLower(ghp), "_", "-") + "/", false},
		{"lower case", strings.ToLower(ghp), true},
		{"split by a space", ghp[:20] + " " + ghp[20:], false},
		{"zero-width space", ghp[:20] + "\u200b" + ghp[20:], false},
		{"HTML entity", strings.Replace(ghp, "_", "&#95;", 1), false},
		{"reversed", reverse(ghp), false},
		{"AWS secret key with no name", awsSecret, false},
		{"AWS secret key in YAML", "aws_secret_access_key: " + awsSecret, true},
		{"a URL's password", "postgres://app:" + awsSecret[:12] + "@db.internal:5432/app", true},
		{"a URL's password, no user", "redis://:" + awsSecret[:12] + "@cache.internal", true},
		{"a URL's password with a colon", "amqp://app:" + awsSecret[:6] + ":" + awsSecret[6:12] + "@mq.internal/", true},
		{"a URL's password in JDBC", "jdbc:mysql://app:" + awsSecret[:12] + "@db.internal/app", true},
		{"a URL's placeholder password", "postgres://user:password@localhost/app", false},
		{"a URL's password from a variable", "postgres://app:$DB_PASSWORD@db.internal/app", false},
		{"a URL's password as ${VAR}", "postgres://app:${DB_PASSWORD}@db.internal/app", false},
		{"a URL's password as <password>", "postgres://app:<password>@db.internal/app", false},
		{"a URL's masked password", "postgres://app:****@db.internal/app", false},
		{"a URL with a port and an @ in its path", "https://host.test:8080/users/@me", false},
		{"a URL with a user and no password", "ssh://git@github.com:22/o/r.git", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := "see " + c.text + "\n"
			found := s.Scan("a.md", []byte(text))
			if got := len(found) > 0; got != c.found {
				t.Fatalf("found %v, want found=%v", found, c.found)
			}
			if !c.found {
				return
			}
			clean, _, left := s.Clean("a.md", []byte(text))
			if len(left) > 0 || strings.Contains(string(clean), c.text) {
				t.Errorf("not redacted: %s (left %v)", clean, left)
			}
		})
	}
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// TestSourceHoldsNoSecrets: the secrets the tests use are made at run
// time; no source file of this package (or of the end-to-end test) holds
// one that gitleaks' rules find.
func TestSourceHoldsNoSecrets(t *testing.T) {
	s := scanner(t, "")
	var paths []string
	for _, glob := range []string{"*.go", "secretstest/*.go", "../secrets_test.go"} {
		ps, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, ps...)
	}
	if len(paths) < 5 {
		t.Fatalf("found only %v", paths)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if found := s.Scan(filepath.ToSlash(p), data); len(found) > 0 {
			t.Errorf("%v", found)
		}
	}
}

// TestWithIgnore: a scanner given another ignore file allows what that
// file lists and nothing the first one did, as a scanner made with it
// would, and keys the same.
func TestWithIgnore(t *testing.T) {
	ghp := secretstest.Kinds(3)[0]
	text := []byte("x\n" + ghp.Line + "\n")
	base := scanner(t, "episodes/a.md:github-pat:2\n")
	for _, tc := range []struct {
		name, ignore string
		allowed      bool
		problems     int
	}{
		{"allowing the finding", "episodes/a.md:github-pat:2\n", true, 0},
		{"allowing another line", "episodes/a.md:github-pat:3\n", false, 0},
		{"no ignore file", "", false, 0},
		{"a line that is no fingerprint", "not one\n", false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, problems := base.WithIgnore([]byte(tc.ignore))
			f := s.Scan("episodes/a.md", text)
			if len(f) != 1 || f[0].Allowed != tc.allowed || len(problems) != tc.problems {
				t.Errorf("found %v, %d problems; want allowed %v, %d problems", f, len(problems), tc.allowed, tc.problems)
			}
			made, _, err := secrets.New([]byte(tc.ignore))
			if err != nil {
				t.Fatal(err)
			}
			if s.Key() != made.Key() {
				t.Error("the key differs from a scanner made with the same ignore file")
			}
		})
	}
}

// TestScanDirKnownWritten: a file the caller wrote itself, whose sum as
// it was written is one the scan passed before, is not read back: the
// scan takes the caller's word for its bytes (here the file on disk was
// changed behind the caller's back, and the scan does not see it). One
// whose sum is not known is read and scanned, and so is every file the
// caller did not write. The sums returned name both, for the next build.
func TestScanDirKnownWritten(t *testing.T) {
	k := secretstest.Kinds(1)[0]
	dir := t.TempDir()
	clean, leak := []byte("nothing to see\n"), []byte("key: "+k.Secret+"\n")
	for name, data := range map[string][]byte{"api/known.json": leak, "api/new.json": leak, "page.html": append([]byte("<p>"), leak...)} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	knownSum, newSum := sha256.Sum256(clean), sha256.Sum256(leak)
	written := map[string]secrets.Sum{"api/known.json": knownSum, "api/new.json": newSum}
	found, sums, err := scanner(t, "").ScanDirKnown(t.Context(), dir, nil, map[secrets.Sum]bool{knownSum: true}, written)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range found {
		paths = append(paths, f.Path)
	}
	if !slices.Equal(paths, []string{"api/new.json", "page.html"}) {
		t.Errorf("found the secret in %v, want api/new.json and page.html (api/known.json is not read back)", paths)
	}
	if !slices.Contains(sums, knownSum) || !slices.Contains(sums, newSum) {
		t.Errorf("the sums returned leave out a file: %x", sums)
	}
}
