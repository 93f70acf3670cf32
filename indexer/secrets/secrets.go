// Package secrets finds credentials in text (API keys, tokens, private
// keys, JWTs) with gitleaks' default rule set, and redacts them (SPEC §6).
// It is the only package of engram that imports gitleaks.
//
// A Finding says where a secret is, which rule matched and its gitleaks
// fingerprint, never the secret itself: it does not hold it, so no
// message, log or report made from one can quote it. gitleaks' own
// logging, which does quote secrets, is switched off.
package secrets

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/note"
	"github.com/rs/zerolog"
	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
	"github.com/zricethezav/gitleaks/v8/report"
)

// IgnoreFile is the reviewed list of allowed findings at the root of a
// memory repository, in gitleaks' own format: one fingerprint
// (path:rule:line) a line, # for comments.
const IgnoreFile = ".gitleaksignore"

// Redacted is what stands in a published file for a secret of a rule.
func Redacted(rule string) string { return "[REDACTED:" + rule + "]" }

// decodeDepth is how many decoding passes (base64, percent, hex, unicode
// escapes) gitleaks makes over a file: its command line's default.
const decodeDepth = 5

// Finding is one secret found in a file.
type Finding struct {
	Path string
	// Line and Col are where the match starts, 1-based, Col in runes.
	Line, Col int
	Rule      string
	// Fingerprint is gitleaks' global fingerprint, path:rule:line: the
	// line to put in IgnoreFile to allow this finding.
	Fingerprint string
	// Allowed is a finding that IgnoreFile lists (or, in a build's
	// output, one whose secret an allowed finding of the input holds).
	Allowed bool
	// sum identifies the secret without holding it (see digest).
	sum [sha256.Size]byte
}

// String is path:line:col: rule RULE, fingerprint FP.
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: rule %s, fingerprint %s", f.Path, f.Line, f.Col, f.Rule, f.Fingerprint)
}

// Format prints String for every verb, %#v and %+v included.
func (f Finding) Format(s fmt.State, _ rune) { io.WriteString(s, f.String()) }

// Scanner runs gitleaks' default rules. It is safe for concurrent use and
// never changes once made.
type Scanner struct {
	d      *detect.Detector
	ignore map[string]bool
	// allowed are the digests of secrets let through wherever they are.
	allowed map[[sha256.Size]byte]bool
}

// quiet switches gitleaks' logger off once per process: it is a package
// variable of gitleaks that writes to stderr, and its debug and trace
// messages quote the secrets they are about.
var quiet sync.Once

// New makes a scanner with gitleaks' default configuration that lets
// through the findings whose fingerprints ignore (IgnoreFile's content, or
// nil) lists. Inline gitleaks:allow comments allow nothing: an allowed
// finding is reviewed in one file, not in the note.
func New(ignore []byte) (*Scanner, []note.Diagnostic, error) {
	quiet.Do(func() { logging.Logger = zerolog.Nop() })
	cfg, err := defaultConfig()
	if err != nil {
		return nil, nil, fmt.Errorf("gitleaks configuration: %w", err)
	}
	d := detect.NewDetector(cfg)
	d.MaxDecodeDepth = decodeDepth
	d.IgnoreGitleaksAllow = true
	set, problems := parseIgnore(ignore)
	return &Scanner{d: d, ignore: set}, problems, nil
}

// defaultConfig reads gitleaks' default rules with a viper of its own:
// detect.NewDetectorDefaultConfig uses viper's global instance, which two
// builds at once would share.
func defaultConfig() (config.Config, error) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
		return config.Config{}, err
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		return config.Config{}, err
	}
	return vc.Translate()
}

// Allowing returns a scanner that also allows, wherever they are, the
// secrets of the given findings that are allowed: the same secret shows
// again in a build's output under other paths and lines.
func (s *Scanner) Allowing(found []Finding) *Scanner {
	s2 := *s
	s2.allowed = map[[sha256.Size]byte]bool{}
	for k := range s.allowed {
		s2.allowed[k] = true
	}
	for _, f := range found {
		if f.Allowed {
			s2.allowed[f.sum] = true
		}
	}
	return &s2
}

// Scan returns the secrets in one file, ordered by position.
func (s *Scanner) Scan(path string, data []byte) []Finding {
	found, _ := s.scan(path, data)
	return found
}

// raw is a finding with what redaction needs: the texts to replace.
type raw struct {
	Finding
	texts []string
}

// scan returns the findings, and beside each the texts that hold its
// secret: the secret itself, and the encoded text it was decoded from
// when gitleaks found it by decoding (base64, percent-encoding...).
func (s *Scanner) scan(path string, data []byte) ([]Finding, [][]string) {
	text := string(data)
	rs := s.d.DetectContext(context.Background(), detect.Fragment{Raw: text, FilePath: path, StartLine: 1})
	starts := lineStarts(text)
	seen := map[string]bool{}
	var out []raw
	for _, r := range rs {
		f, texts := s.finding(path, text, starts, r)
		key := fmt.Sprintf("%d:%d:%s:%x", f.Line, f.Col, f.Rule, f.sum)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, raw{f, texts})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Finding, out[j].Finding
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Rule < b.Rule
	})
	found := make([]Finding, len(out))
	texts := make([][]string, len(out))
	for i, r := range out {
		found[i], texts[i] = r.Finding, r.texts
	}
	return found, texts
}

func (s *Scanner) finding(path, text string, starts []int, r report.Finding) (Finding, []string) {
	fp := fmt.Sprintf("%s:%s:%d", path, r.RuleID, r.StartLine)
	f := Finding{Path: path, Line: r.StartLine, Rule: r.RuleID, Fingerprint: fp, sum: digest(r.Secret)}
	f.Allowed = s.ignore[fp] || s.allowed[f.sum]
	texts := []string{r.Secret}
	begin, end, ok := span(text, starts, r)
	if ok {
		f.Col = utf8.RuneCountInString(text[starts[r.StartLine-1]:begin]) + 1
		if !strings.Contains(text[begin:end], r.Secret) {
			// Found by decoding: the file holds it encoded.
			texts = append(texts, text[begin:end])
		}
	}
	return f, texts
}

// span is the byte range of a finding's match in text. gitleaks counts
// columns from the newline before a line, so they are one more than the
// column on every line but the first.
func span(text string, starts []int, r report.Finding) (begin, end int, ok bool) {
	if r.StartLine < 1 || r.StartLine > len(starts) || r.EndLine < r.StartLine || r.EndLine > len(starts) {
		return 0, 0, false
	}
	begin = starts[r.StartLine-1] + r.StartColumn - 1
	if r.StartLine > 1 {
		begin--
	}
	end = starts[r.EndLine-1] + r.EndColumn
	if r.EndLine > 1 {
		end--
	}
	if begin < 0 || end > len(text) || begin >= end {
		return 0, 0, false
	}
	return begin, end, true
}

// lineStarts are the byte offsets at which each line of text begins.
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// digest identifies a secret across the forms a build gives it (escaped
// in JSON or HTML, lower case in a slug, wrapped on lines): its letters
// and digits, lower case, hashed.
func digest(secret string) [sha256.Size]byte {
	b := make([]byte, 0, len(secret))
	for i := 0; i < len(secret); i++ {
		c := secret[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			b = append(b, c)
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		}
	}
	return sha256.Sum256(b)
}
