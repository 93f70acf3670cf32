package secrets

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/report"
)

// Scan returns the secrets in one file, ordered by position.
func (s *Scanner) Scan(path string, data []byte) []Finding {
	found, _ := s.scan(path, data)
	return found
}

// scan returns the findings, and beside each the texts that hold its
// secret: the secret itself, and the encoded text it was decoded from
// when gitleaks found it by decoding (base64, percent-encoding...).
func (s *Scanner) scan(path string, data []byte) ([]Finding, [][]string) {
	// Read in place, not copied: a build's output is hundreds of
	// megabytes, and data is not changed while the text is in use.
	text := unsafe.String(unsafe.SliceData(data), len(data))
	f := file{text: text, path: path, gitleaksPath: path}
	if s.output {
		f.gitleaksPath = ""
	}
	if foldsToASCII(text) {
		// gitleaks lower-cases with Unicode rules, and K (Kelvin) or
		// İ then read as k or i: leave such a file to gitleaks whole.
		f.run(s.full, 0, -1)
	} else {
		s.windows(&f)
	}
	// gitleaks' global path allowlist (images, lock files, vendored
	// code) drops every finding of a file: asked only of a file that has
	// some, as it costs more than scanning most notes.
	if len(f.raw) == 0 || (!s.output && pathAllowed(s.cfg.Allowlists, path)) {
		return nil, nil
	}
	return s.findings(&f)
}

// file is one file being scanned and what gitleaks found in it.
type file struct {
	text, path string
	// gitleaksPath is the path gitleaks is told: none for an output.
	gitleaksPath string
	starts       []int
	raw          []located
}

// located is a gitleaks finding placed in the whole file.
type located struct {
	report.Finding
	begin, end int // byte range of the match, when known
}

// windows runs gitleaks over the lines where something can be found:
// around the keywords whose gate matches (planned rules), around every
// string gitleaks could decode (every rule, decoding as gitleaks does),
// and over the whole file for the rules plan could not window, when one
// of their keywords is there.
func (s *Scanner) windows(f *file) {
	var win, dec []span
	whole := s.always
	for _, r := range s.byPath {
		whole = whole || (f.gitleaksPath != "" && r.Path.MatchString(f.gitleaksPath))
	}
	s.words.find(f.text, func(at, word int) {
		whole = whole || s.wholeWord[word]
		for _, i := range s.byWord[word] {
			r := &s.rules[i]
			rest := f.text[at:]
			if !r.unbounded && len(rest) > r.maxGate+1 {
				rest = rest[:r.maxGate+1]
			}
			if loc := r.gate.FindStringIndex(rest); loc != nil {
				win = append(win, f.lines(max(at-r.before, 0), at+loc[1], 1))
			}
		}
	})
	encodedLines(f.text, func(at int) {
		dec = append(dec, f.lines(at, at+1, s.context+1))
	})
	if whole {
		f.run(s.whole, 0, -1)
	}
	for _, w := range merge(win) {
		f.run(s.win, w.first, w.last)
	}
	for _, w := range merge(dec) {
		f.run(s.full, w.first, w.last)
	}
}

// span is a range of lines, 0-based and inclusive.
type span struct{ first, last int }

// lines is the span of the lines holding bytes [begin, end), widened by
// margin lines on each side.
func (f *file) lines(begin, end, margin int) span {
	f.index()
	first := sort.SearchInts(f.starts, begin+1) - 1
	last := sort.SearchInts(f.starts, max(end, begin+1)) - 1
	return span{max(first-margin, 0), min(last+margin, len(f.starts)-1)}
}

func merge(spans []span) []span {
	sort.Slice(spans, func(i, j int) bool { return spans[i].first < spans[j].first })
	var out []span
	for _, s := range spans {
		if n := len(out); n > 0 && s.first <= out[n-1].last+1 {
			out[n-1].last = max(out[n-1].last, s.last)
			continue
		}
		out = append(out, s)
	}
	return out
}

// index finds where the lines start, when first needed: most files
// have nothing to look at more closely.
func (f *file) index() {
	if f.starts == nil {
		f.starts = lineStarts(f.text)
	}
}

// run hands gitleaks lines first to last (-1: the last line), and places
// its findings.
func (f *file) run(d *detect.Detector, first, last int) {
	f.index()
	if last < 0 {
		last = len(f.starts) - 1
	}
	begin := f.starts[first]
	end := len(f.text)
	if last+1 < len(f.starts) {
		end = f.starts[last+1]
	}
	frag := f.text[begin:end]
	//lint:ignore SA1019 gitleaks v8's DetectContext takes only the deprecated detect.Fragment.
	rs := d.DetectContext(context.Background(), detect.Fragment{Raw: frag, FilePath: f.gitleaksPath, StartLine: first + 1})
	starts := f.starts[first : last+1]
	for _, r := range rs {
		b, e, ok := matchSpan(frag, starts, begin, first, r)
		if ok {
			b, e = b+begin, e+begin
		}
		f.raw = append(f.raw, located{r, b, e})
	}
}

// matchSpan is the byte range of a finding's match in frag, whose lines
// start at starts (offsets in the whole file, from base; the fragment's
// first line is line first+1 of the file). gitleaks counts columns from
// the newline before a line, so they are one more than the column on
// every line of a fragment but its first.
func matchSpan(frag string, starts []int, base, first int, r report.Finding) (begin, end int, ok bool) {
	ls, le := r.StartLine-first-1, r.EndLine-first-1
	if ls < 0 || le < ls || le >= len(starts) {
		return 0, 0, false
	}
	begin = starts[ls] - base + r.StartColumn - 1
	if ls > 0 {
		begin--
	}
	end = starts[le] - base + r.EndColumn
	if le > 0 {
		end--
	}
	if begin < 0 || end > len(frag) || begin >= end {
		return 0, 0, false
	}
	return begin, end, true
}

// findings turns what gitleaks found into Findings: one per place and
// secret, a generic rule's left out where a specific rule found the same
// secret on its line (as gitleaks does), ordered by position.
func (s *Scanner) findings(f *file) ([]Finding, [][]string) {
	type key struct {
		line, col int
		rule      string
		sum       [32]byte
	}
	seen := map[key]bool{}
	var found []Finding
	var texts [][]string
	for _, r := range f.raw {
		if shadowed(r.Finding, f.raw) {
			continue
		}
		fp := fmt.Sprintf("%s:%s:%d", f.path, r.RuleID, r.StartLine)
		x := Finding{Path: f.path, Line: r.StartLine, Rule: r.RuleID, Fingerprint: fp, sum: digest(r.Secret)}
		x.Allowed = s.ignore[fp] || s.allowed[x.sum]
		t := []string{r.Secret}
		if r.end > r.begin {
			x.Col = utf8.RuneCountInString(f.text[f.starts[r.StartLine-1]:r.begin]) + 1
			if !strings.Contains(f.text[r.begin:r.end], r.Secret) {
				t = append(t, f.text[r.begin:r.end]) // found by decoding
			}
		}
		k := key{x.Line, x.Col, x.Rule, x.sum}
		if seen[k] {
			continue
		}
		seen[k] = true
		found = append(found, x)
		texts = append(texts, t)
	}
	idx := make([]int, len(found))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := found[idx[i]], found[idx[j]]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Rule < b.Rule
	})
	sf, st := make([]Finding, len(idx)), make([][]string, len(idx))
	for i, j := range idx {
		sf[i], st[i] = found[j], texts[j]
	}
	return sf, st
}

// shadowed is gitleaks' filter: a generic rule's finding gives way to a
// specific rule's on the same line whose secret holds it.
func shadowed(f report.Finding, all []located) bool {
	if !strings.Contains(strings.ToLower(f.RuleID), "generic") {
		return false
	}
	for _, g := range all {
		if g.StartLine == f.StartLine && g.RuleID != f.RuleID && strings.Contains(g.Secret, f.Secret) &&
			!strings.Contains(strings.ToLower(g.RuleID), "generic") {
			return true
		}
	}
	return false
}

// pathAllowed is gitleaks' global path allowlist (checkCommitOrPathAllowed
// for a file with no commit): an allowed file is not scanned.
func pathAllowed(lists []*config.Allowlist, path string) bool {
	for _, a := range lists {
		if a.MatchCondition == config.AllowlistMatchAnd {
			if len(a.Regexes) > 0 || len(a.StopWords) > 0 || len(a.Commits) > 0 || len(a.Paths) == 0 {
				continue
			}
		}
		if a.PathAllowed(path) {
			return true
		}
	}
	return false
}

// foldsToASCII reports the two characters that strings.ToLower turns into
// ASCII letters: the Kelvin sign (k) and dotted capital I (i).
func foldsToASCII(text string) bool {
	return strings.Contains(text, "\u212a") || strings.Contains(text, "\u0130")
}
