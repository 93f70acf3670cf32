// Package secrets finds credentials in text (API keys, tokens, private
// keys, JWTs, passwords in URLs) with gitleaks' default rule set and
// engram's rules in rules.toml, and redacts them (SPEC §6).
// It is the only package of engram that imports gitleaks.
//
// A Finding says where a secret is, which rule matched and its gitleaks
// fingerprint, never the secret itself: it does not hold it, so no
// message, log or report made from one can quote it. gitleaks' own
// logging, which does quote secrets, is switched off.
package secrets

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/engramhq/engram/indexer/note"
	"github.com/rs/zerolog"
	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
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
	// InName is a secret in the file's path rather than its text (see
	// names.go); Path is then the path redacted.
	InName bool
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
	cfg config.Config
	// full is gitleaks as its command line runs it (every rule, decoding
	// five deep); win holds the rules plan can window, whole the others.
	full, win, whole *detect.Detector
	rules            []windowed
	words            *keywords
	// byWord lists, for each keyword, the windowed rules it may lead.
	byWord [][]int
	// wholeWord marks the keywords of the rules run over whole files;
	// byPath are those rules that only look at files whose path they
	// match (*.tf, *.p12...), run over a file whose path matches.
	wholeWord []bool
	byPath    []config.Rule
	// always is set when a rule run over whole files has neither keyword
	// nor path: gitleaks runs such a rule on every file.
	always bool
	// context is how many lines around an encoded string gitleaks sees
	// when it decodes it: the most lines any planned rule can span.
	context int
	ignore  map[string]bool
	// output is a scanner for a build's output (see Output).
	output bool
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
	s := &Scanner{cfg: cfg, full: detector(cfg, decodeDepth)}
	var whole []string
	s.rules, whole = plan(cfg)
	var winIDs []string
	for _, w := range s.rules {
		winIDs = append(winIDs, w.id)
	}
	s.win = detector(subset(cfg, winIDs), 0)
	s.whole = detector(subset(cfg, whole), 0)
	s.index(whole)
	set, problems := parseIgnore(ignore)
	s.ignore = set
	return s, problems, nil
}

// WithIgnore returns s letting through the findings that ignore
// (IgnoreFile's content, or nil) lists, in place of those s was made
// with. Making a Scanner compiles every rule (a tenth of a second);
// this does not, so a process that scans often makes one and reuses it.
func (s *Scanner) WithIgnore(ignore []byte) (*Scanner, []note.Diagnostic) {
	s2 := *s
	var problems []note.Diagnostic
	s2.ignore, problems = parseIgnore(ignore)
	return &s2, problems
}

func detector(cfg config.Config, depth int) *detect.Detector {
	d := detect.NewDetector(cfg)
	d.MaxDecodeDepth = depth
	d.IgnoreGitleaksAllow = true
	return d
}

// subset is cfg with only the given rules (and their keywords).
func subset(cfg config.Config, ids []string) config.Config {
	c := cfg
	c.Rules = map[string]config.Rule{}
	c.Keywords = map[string]struct{}{}
	c.OrderedRules = ids
	for _, id := range ids {
		r := cfg.Rules[id]
		c.Rules[id] = r
		for _, k := range r.Keywords {
			c.Keywords[strings.ToLower(k)] = struct{}{}
		}
	}
	return c
}

// index builds the keyword automaton and what each keyword triggers.
func (s *Scanner) index(whole []string) {
	ids := map[string]int{}
	var words []string
	id := func(k string) int {
		k = strings.ToLower(k)
		if i, ok := ids[k]; ok {
			return i
		}
		ids[k] = len(words)
		words = append(words, k)
		return ids[k]
	}
	var byWord = map[int][]int{}
	for i, w := range s.rules {
		for _, k := range s.cfg.Rules[w.id].Keywords {
			byWord[id(k)] = append(byWord[id(k)], i)
		}
		s.context = max(s.context, maxLines(s.cfg.Rules[w.id]))
	}
	wholeWord := map[int]bool{}
	for _, rid := range whole {
		r := s.cfg.Rules[rid]
		if r.Path != nil {
			s.byPath = append(s.byPath, r)
			continue
		}
		s.always = s.always || len(r.Keywords) == 0
		for _, k := range r.Keywords {
			wholeWord[id(k)] = true
		}
	}
	s.words = newKeywords(words)
	s.byWord = make([][]int, len(words))
	s.wholeWord = make([]bool, len(words))
	for i := range words {
		s.byWord[i], s.wholeWord[i] = byWord[i], wholeWord[i]
	}
}

// ownRules are engram's rules, in gitleaks' format, for what gitleaks'
// default rules miss (a password in a URL).
//
//go:embed rules.toml
var ownRules string

// defaultConfig reads gitleaks' default rules and ownRules after them
// with a viper of its own: detect.NewDetectorDefaultConfig uses viper's
// global instance, which two builds at once would share.
func defaultConfig() (config.Config, error) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig + "\n" + ownRules)); err != nil {
		return config.Config{}, err
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		return config.Config{}, err
	}
	return vc.Translate()
}

// Key identifies what s lets through: the same bytes at the same path
// give the same findings under two scanners of one Key (in one binary:
// the rules are the binary's).
func (s *Scanner) Key() [sha256.Size]byte {
	h := sha256.New()
	if s.output {
		h.Write([]byte("output\n"))
	}
	for _, fp := range slices.Sorted(maps.Keys(s.ignore)) {
		h.Write([]byte(fp + "\n"))
	}
	sums := slices.SortedFunc(maps.Keys(s.allowed), func(a, b [sha256.Size]byte) int { return bytes.Compare(a[:], b[:]) })
	for _, sum := range sums {
		h.Write(sum[:])
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// Output returns a scanner for a build's output. It lets through,
// wherever they are, the secrets of the given findings that are allowed
// (the same secret shows again in the output under other paths and
// lines, escaped or in lower case), and it scans every file whatever its
// path: gitleaks' path rules and path allowlists (images, lock files,
// vendored code, *.tf) are about source trees, and an output's paths are
// engram's own.
func (s *Scanner) Output(found []Finding) *Scanner {
	s2 := *s
	s2.output = true
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

// lineStarts are the byte offsets at which each line of text begins.
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, i)
	}
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
