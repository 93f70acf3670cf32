// Package related finds related work (SPEC §3): episodes that name the
// same pull request or issue, branch or file path. It reads the episodes'
// text and returns, for each episode, the others that share a reference
// with it, both ways; and the typed links between episodes that
// graph.json publishes (links.go). This is navigation, never a causal
// claim: nothing here becomes an edge of the causal graph.
package related

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/note"
)

// MaxPerEpisode caps the related work listed for one episode.
const maxPerEpisode = 10

// MaxVia caps the shared references shown for one related episode.
const maxVia = 3

// maxFileShare: a file path named by more episodes than this is a file
// everyone touches (a manifest, the test runner), not a sign of the same
// work, and links nothing. maxShare is the same for any reference: past
// it, the reference is a fixture of the repository (a tracking issue, a
// long-lived branch), and linking every pair would cost n².
const (
	maxFileShare = 8
	maxShare     = 50
)

// Work is another episode that shares references with an episode.
type Work struct {
	Note int // index of the other episode in the notes given to Analyze
	// Via are the shared references, the rarest first ("#2829",
	// "branch feat/x", "scripts/build.py").
	Via []string
}

// Result is what Analyze finds: each note's related work and the links
// between episodes.
type Result struct {
	Work  [][]Work
	Links []Link
}

// Analyze finds each note's related work and the links between the
// episodes of notes, whose times are created, reading each episode's text
// once.
func Analyze(notes []note.Note, created []time.Time) Result {
	s := scan(notes)
	return Result{Work: s.find(notes), Links: s.links(notes, created)}
}

// scanned is what the episodes' texts say: the references of each, the
// episodes that name each reference, and the numbers each files and
// closes.
type scanned struct {
	refs              [][]string
	byRef             map[string][]int
	filedBy, closedBy map[string][]int
	episodes          int
}

func scan(notes []note.Note) scanned {
	s := scanned{refs: make([][]string, len(notes)), byRef: map[string][]int{}, filedBy: map[string][]int{}, closedBy: map[string][]int{}}
	for i := range notes {
		if notes[i].Episode == nil {
			continue
		}
		s.episodes++
		t := text(&notes[i])
		s.refs[i] = References(t)
		for _, r := range s.refs[i] {
			s.byRef[r] = append(s.byRef[r], i)
		}
		if strings.Contains(t, "#") {
			for _, n := range numbersOf(filed, t) {
				s.filedBy[n] = append(s.filedBy[n], i)
			}
			for _, n := range numbersOf(closed, t) {
				s.closedBy[n] = append(s.closedBy[n], i)
			}
		}
	}
	return s
}

// find returns, for each note, its related work: the other episodes that
// name a reference it names, ordered by how rare the shared references
// are (the sum of their inverse document frequencies), then by title. A
// note that is not an episode has none.
func (s scanned) find(notes []note.Note) [][]Work {
	out := make([][]Work, len(notes))
	for i := range notes {
		out[i] = find(notes, i, s.refs[i], s.byRef, s.episodes)
	}
	return out
}

// find ranks the episodes that share one of refs with episode i.
func find(notes []note.Note, i int, refs []string, byRef map[string][]int, episodes int) []Work {
	score := map[int]float64{}
	via := map[int][]string{}
	for _, r := range refs {
		holders := byRef[r]
		if len(holders) < 2 || len(holders) > maxShare || isFile(r) && len(holders) > maxFileShare {
			continue
		}
		idf := math.Log(float64(episodes) / float64(len(holders)))
		for _, j := range holders {
			if j != i {
				score[j] += 1 + idf
				via[j] = append(via[j], r)
			}
		}
	}
	out := make([]Work, 0, len(score))
	for j := range score {
		v := via[j]
		slices.SortStableFunc(v, func(a, b string) int { return cmp.Compare(len(byRef[a]), len(byRef[b])) })
		out = append(out, Work{Note: j, Via: v[:min(len(v), maxVia)]})
	}
	slices.SortFunc(out, func(a, b Work) int {
		if c := cmp.Compare(score[b.Note], score[a.Note]); c != 0 {
			return c
		}
		return cmp.Compare(notes[a.Note].Title, notes[b.Note].Title)
	})
	return out[:min(len(out), maxPerEpisode)]
}

// text is everything an episode says: its id and session (ai-agents
// name them after the pull request), task, decisions, events, lessons,
// observations and prose.
func text(n *note.Note) string {
	e := n.Episode
	parts := []string{n.Title, e.Session, e.Task}
	for _, d := range e.Decisions {
		parts = append(parts, d.Title, d.Context, strings.Join(d.Options, ", "), d.Chosen, d.Rationale)
	}
	for _, ev := range e.Events {
		parts = append(parts, ev.Text)
	}
	for _, l := range e.Lessons {
		parts = append(parts, l.Text)
	}
	for _, o := range n.Observations {
		parts = append(parts, o.Content, o.Context)
	}
	for _, s := range n.Sections {
		parts = append(parts, s.Markdown)
	}
	return strings.Join(parts, "\n")
}

var (
	// A pull request or issue: "PR #2829", "PR 2829", "pr-2829",
	// "pull request 12", ".../pull/12", "issue #3351", "#3351", a range
	// ("issues 2519-2527") or a list ("PRs 4459, 4477 and 4479"). GitHub
	// numbers pull requests and issues in one series, so the number is
	// the reference.
	numbered = regexp.MustCompile(`(?i)(?:\b(?:prs?|pulls?(?:[ \t]+requests?)?|issues?)[ \t#:/-]*|(?:^|[^\w&/#])#)(\d{2,7})(?:[ \t]*(?:-|–|\.\.|to)[ \t]*(\d{2,7}))?((?:[ \t]*(?:,|and|&)[ \t]*#?\d{2,7}\b)*)`)
	// A date after "issue" is a date ("…-audit-issue-2026-06-09").
	dateAfter = regexp.MustCompile(`^-\d{2}-\d{2}`)
	listed    = regexp.MustCompile(`\d{2,7}`)
	// A branch: "branch feat/x", "on branch `fix-y`", or a conventional
	// prefix ("feat/1798-autonomous") that is not a file.
	branchNamed  = regexp.MustCompile("(?i)\\bbranch(?:es)?\\s+[`'\"]?([A-Za-z0-9][A-Za-z0-9._/-]*[A-Za-z0-9])")
	branchPrefix = regexp.MustCompile(`\b((?:feat|feature|fix|bugfix|hotfix|docs|chore|refactor|release|perf|ci)/[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])\b`)
	// A file path: at least one folder and an extension.
	filePath = regexp.MustCompile(`(?:^|[\s` + "`" + `'"(\[])((?:\./)?(?:\.?[A-Za-z0-9_][A-Za-z0-9_.-]*/)+[A-Za-z0-9_][A-Za-z0-9_.-]*\.[A-Za-z][A-Za-z0-9]{0,7})\b`)
)

// defaultBranches name no particular work.
var defaultBranches = map[string]bool{"main": true, "master": true, "develop": true, "head": true, "trunk": true,
	"origin/main": true, "origin/master": true, "protection": true, "name": true, "and": true, "to": true, "from": true}

// maxRange caps an "issues 2519-2527" range: a longer one is a typo or
// not a list of issues.
const maxRange = 20

// References returns the references a text makes, sorted and distinct:
// "#N" for a pull request or issue, "branch NAME", and file paths.
func References(s string) []string {
	var out []string
	for line := range strings.Lines(s) {
		out = lineReferences(line, out)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// lineReferences appends the references of one line. Each pattern runs
// only on a line that has what it needs (a digit, a slash, the word
// branch): Go's regular expressions backtrack through every position of
// every line otherwise, and most lines have no reference at all.
func lineReferences(s string, out []string) []string {
	lower := strings.ToLower(s)
	if strings.ContainsAny(s, "0123456789") && (strings.Contains(s, "#") || strings.Contains(lower, "pr") ||
		strings.Contains(lower, "pull") || strings.Contains(lower, "issue")) {
		out = numbers(s, out)
	}
	if !strings.Contains(s, "/") && !strings.Contains(lower, "branch") {
		return out
	}
	files := map[string]bool{}
	for _, m := range filePath.FindAllStringSubmatchIndex(s, -1) {
		if url := strings.LastIndex(s[:m[2]], "://"); url >= 0 && !strings.ContainsAny(s[url:m[2]], " \t\n") {
			continue // part of a URL
		}
		f := strings.TrimPrefix(s[m[2]:m[3]], "./")
		files[f] = true
		out = append(out, f)
	}
	if strings.Contains(lower, "branch") {
		for _, m := range branchNamed.FindAllStringSubmatch(s, -1) {
			// A name with no separator or digit is a word ("branch off main").
			if b := strings.TrimRight(m[1], "."); !defaultBranches[strings.ToLower(b)] && !files[b] && strings.ContainsAny(b, "/-_0123456789") {
				out = append(out, "branch "+b)
			}
		}
	}
	for _, m := range branchPrefix.FindAllStringSubmatch(s, -1) {
		if !files[m[1]] && !hasExtension(m[1]) {
			out = append(out, "branch "+m[1])
		}
	}
	return out
}

// numbers appends the pull requests and issues a line names.
func numbers(s string, out []string) []string {
	for _, ix := range numbered.FindAllStringSubmatchIndex(s, -1) {
		m := submatches(s, ix)
		if dateAfter.MatchString(s[ix[3]:]) || negated(s[:ix[0]]) {
			continue
		}
		lo, _ := strconv.Atoi(m[1])
		hi := lo
		if m[2] != "" {
			hi, _ = strconv.Atoi(m[2])
		}
		if hi < lo || hi-lo > maxRange {
			hi = lo
		}
		for n := lo; n <= hi; n++ {
			out = append(out, "#"+strconv.Itoa(n))
		}
		for _, n := range listed.FindAllString(m[3], -1) {
			out = append(out, "#"+strings.TrimLeft(n, "0"))
		}
	}
	return out
}

// apart is what, just before a number, says the work is not that one's:
// "not part of epic #3197", "unrelated to #12", "independent of PR 40".
var apart = regexp.MustCompile(`(?i)\b(?:not (?:part of|related to|in|for|about)|unrelated to|independent of|separate from|outside(?: of)?|nothing to do with)(?:[ \t]+[\w-]+){0,3}[ \t]*$`)

// negated reports whether the text before a number on its line ends
// with words that set the number apart from the work (apart): such a
// mention is no reference.
func negated(before string) bool {
	return apart.MatchString(before[max(0, len(before)-60):])
}

// submatches are the texts of a match's groups, "" for one that did not
// take part.
func submatches(s string, ix []int) []string {
	out := make([]string, len(ix)/2)
	for g := range out {
		if ix[2*g] >= 0 {
			out[g] = s[ix[2*g]:ix[2*g+1]]
		}
	}
	return out
}

func isFile(ref string) bool {
	return !strings.HasPrefix(ref, "#") && !strings.HasPrefix(ref, "branch ")
}

// hasExtension: the last path element ends in a dot and one to eight
// letters or digits, as a file's name does.
func hasExtension(p string) bool {
	base := p[strings.LastIndex(p, "/")+1:]
	dot := strings.LastIndex(base, ".")
	return dot > 0 && len(base)-dot-1 >= 1 && len(base)-dot-1 <= 8
}
