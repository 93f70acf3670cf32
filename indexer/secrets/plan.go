package secrets

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zricethezav/gitleaks/v8/config"
)

// Why a plan: gitleaks runs a rule's regular expression over a whole file
// as soon as one of the rule's keywords is anywhere in it. Words such as
// "key", "token", "auth" or "s." are everywhere in notes and pages, and the
// rules they trigger (generic-api-key and the 90 rules built like it) start
// with an unanchored [\w.-]{0,50}?, which Go's regexp runs at about 2 MB/s.
// At 10,000 notes that is minutes for a build's output.
//
// Most rules, though, match text that begins with one of their keywords,
// a bounded number of bytes after the start of the match. For those a
// match can only be where a keyword is, and only if the rest of the
// rule's expression, anchored there (the gate), matches. The scanner
// finds the keywords with one pass of an automaton, tries the gates, and
// hands gitleaks the lines around each keyword whose gate matched, with
// the rule's own expression, entropy and allowlists deciding. Rules that
// cannot be planned so run over the whole file, as gitleaks does.

// windowed is a rule, or one alternative of a rule, whose every match
// starts at most before bytes ahead of one of its keywords, from where
// gate matches the rest of the match.
type windowed struct {
	id     string
	before int
	gate   *regexp.Regexp
	// unbounded is set when the gate may match text of any length: it is
	// then given the rest of the file, not a slice of maxGate+1 bytes.
	unbounded bool
	maxGate   int
}

// plan sorts a configuration's rules into windowed ones (a rule whose
// expression is an alternation gives one per alternative) and the rest.
func plan(cfg config.Config) (win []windowed, whole []string) {
	for _, id := range cfg.OrderedRules {
		ws, ok := planRule(cfg.Rules[id])
		if !ok {
			whole = append(whole, id)
			continue
		}
		win = append(win, ws...)
	}
	return win, whole
}

func planRule(r config.Rule) ([]windowed, bool) {
	if r.Regex == nil || r.Path != nil || len(r.Keywords) == 0 || len(r.RequiredRules) > 0 || r.SkipReport {
		return nil, false
	}
	re, err := syntax.Parse(r.Regex.String(), syntax.Perl)
	if err != nil {
		return nil, false
	}
	alts := []*syntax.Regexp{re}
	for len(alts) == 1 && (alts[0].Op == syntax.OpCapture || alts[0].Op == syntax.OpAlternate) {
		alts = alts[0].Sub
	}
	var out []windowed
	for _, alt := range alts {
		w, ok := planSeq(r, flatten(alt), re.Flags)
		if !ok {
			return nil, false
		}
		out = append(out, w)
	}
	return out, true
}

// planSeq finds the first part of a sequence from which every match is
// led by a keyword, with a bounded number of bytes before it.
func planSeq(r config.Rule, seq []*syntax.Regexp, flags syntax.Flags) (windowed, bool) {
	before := 0
	for i := range seq {
		if led(seq[i:], r.Keywords) {
			rest := &syntax.Regexp{Op: syntax.OpConcat, Sub: seq[i:], Flags: flags}
			gate, err := regexp.Compile(`^(?:` + rest.String() + `)`)
			if err != nil {
				return windowed{}, false
			}
			n := maxBytes(rest)
			return windowed{id: r.RuleID, before: before, gate: gate, unbounded: n < 0, maxGate: n}, true
		}
		n := maxBytes(seq[i])
		if n < 0 {
			return windowed{}, false
		}
		before += n
	}
	return windowed{}, false
}

// flatten lists the parts of a concatenation, through capture groups
// (which only number the parts).
func flatten(re *syntax.Regexp) []*syntax.Regexp {
	switch re.Op {
	case syntax.OpCapture:
		return flatten(re.Sub[0])
	case syntax.OpConcat:
		var out []*syntax.Regexp
		for _, s := range re.Sub {
			out = append(out, flatten(s)...)
		}
		return out
	}
	return []*syntax.Regexp{re}
}

// led reports whether every match of the sequence starts with one of the
// keywords (compared in lower case, as gitleaks does).
func led(seq []*syntax.Regexp, keywords []string) bool {
	starts, _, ok := leads(seq)
	if !ok {
		return false
	}
	for _, s := range starts {
		s = strings.ToLower(s)
		hit := false
		for _, k := range keywords {
			if strings.HasPrefix(s, strings.ToLower(k)) {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// maxLeads bounds the strings leads enumerates.
const maxLeads = 64

// leads returns strings one of which every match of the sequence starts
// with: the products of its leading parts while they are finite; ok when
// there is at least one non-empty string, complete when they are whole
// matches of the sequence.
func leads(seq []*syntax.Regexp) (set []string, complete, ok bool) {
	out := []string{""}
	some := func() bool { return len(out) > 1 || out[0] != "" }
	for _, re := range seq {
		sub, whole, known := lead(re)
		if !known {
			return out, false, some()
		}
		next := product(out, sub)
		if len(next) > maxLeads {
			return out, false, some()
		}
		out = next
		if !whole {
			return out, false, some()
		}
	}
	return out, true, some()
}

func product(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

// lead returns the strings one of which every match of re starts with;
// complete when re matches exactly one of them; ok false when nothing is
// known.
func lead(re *syntax.Regexp) (set []string, complete, ok bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}, true, true
	case syntax.OpLiteral:
		return []string{string(re.Rune)}, true, true
	case syntax.OpCharClass:
		var rs []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for c := re.Rune[i]; c <= re.Rune[i+1]; c++ {
				if len(rs) == 8 {
					return nil, false, false
				}
				rs = append(rs, string(c))
			}
		}
		return rs, true, len(rs) > 0
	case syntax.OpCapture:
		return lead(re.Sub[0])
	case syntax.OpConcat:
		s, whole, _ := leads(re.Sub)
		return s, whole, true
	case syntax.OpAlternate:
		complete = true
		for _, sub := range re.Sub {
			s, whole, ok := lead(sub)
			if !ok {
				return nil, false, false
			}
			set = append(set, s...)
			complete = complete && whole
		}
		return set, complete, len(set) <= maxLeads
	case syntax.OpQuest:
		s, whole, ok := lead(re.Sub[0])
		if !ok {
			return nil, false, false
		}
		return append(s, ""), whole, true
	case syntax.OpPlus:
		s, _, ok := lead(re.Sub[0])
		return s, false, ok
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil, false, false
		}
		s, whole, ok := lead(re.Sub[0])
		if ok && whole && re.Min == re.Max && re.Min <= 4 {
			out := []string{""}
			for range re.Min {
				out = product(out, s)
			}
			if len(out) <= maxLeads {
				return out, true, true
			}
		}
		return s, false, ok
	}
	return nil, false, false
}

// maxBytes is the longest text re can match, in bytes; -1 if unbounded.
func maxBytes(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			n += runeBytes(r, re.Flags&syntax.FoldCase != 0)
		}
		return n
	case syntax.OpCharClass:
		n := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			n = max(n, utf8.RuneLen(re.Rune[i+1]))
		}
		return n
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return utf8.UTFMax
	case syntax.OpCapture:
		return maxBytes(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			m := maxBytes(s)
			if m < 0 {
				return -1
			}
			n += m
		}
		return n
	case syntax.OpAlternate:
		n := 0
		for _, s := range re.Sub {
			m := maxBytes(s)
			if m < 0 {
				return -1
			}
			n = max(n, m)
		}
		return n
	case syntax.OpQuest:
		return maxBytes(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		if maxBytes(re.Sub[0]) == 0 {
			return 0
		}
		return -1
	case syntax.OpRepeat:
		m := maxBytes(re.Sub[0])
		if m < 0 || (re.Max < 0 && m > 0) {
			return -1
		}
		return m * max(re.Max, 0)
	}
	return 0 // empty-width assertions and empty matches
}

// runeBytes is the longest UTF-8 form of r, or of any case of r.
func runeBytes(r rune, fold bool) int {
	n := utf8.RuneLen(r)
	if fold {
		for c := unicode.SimpleFold(r); c != r; c = unicode.SimpleFold(c) {
			n = max(n, utf8.RuneLen(c))
		}
	}
	return n
}

// maxLines is how many newlines a match of r can hold, or 0 when that is
// unbounded (such rules find what they find inside the lines given).
func maxLines(r config.Rule) int {
	re, err := syntax.Parse(r.Regex.String(), syntax.Perl)
	if err != nil {
		return 0
	}
	return max(newlines(re), 0)
}

// newlines is the most newlines a match of re holds; -1 if unbounded.
func newlines(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return strings.Count(string(re.Rune), "\n")
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return 1
			}
		}
		return 0
	case syntax.OpAnyChar:
		return 1
	case syntax.OpCapture, syntax.OpQuest:
		return newlines(re.Sub[0])
	case syntax.OpConcat, syntax.OpAlternate:
		n := 0
		for _, s := range re.Sub {
			m := newlines(s)
			if m < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				n += m
			} else {
				n = max(n, m)
			}
		}
		return n
	case syntax.OpStar, syntax.OpPlus:
		if newlines(re.Sub[0]) == 0 {
			return 0
		}
		return -1
	case syntax.OpRepeat:
		m := newlines(re.Sub[0])
		if m < 0 || (re.Max < 0 && m > 0) {
			return -1
		}
		return m * max(re.Max, 0)
	}
	return 0
}
