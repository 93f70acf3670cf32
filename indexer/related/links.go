package related

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/note"
)

// The types of the links between episodes (graph.json's links). Neither
// says that one episode caused another: they say the two are about the
// same numbered piece of work.
const (
	// ContinuedBy joins an episode to the next one, in time, that names
	// the same pull request or issue: a run of sessions on one PR is a
	// chain of them, not every pair.
	ContinuedBy = "continued_by"
	// ResolvedBy joins an episode that filed an issue to a later one that
	// fixed, closed or resolved it.
	ResolvedBy = "resolved_by"
)

// maxChain: a pull request or issue named by more episodes than this is
// a hub (a tracking issue, an epic every session mentions), not a run of
// work, and links nothing.
const maxChain = 8

// Link is a typed link from an earlier episode to a later one.
type Link struct {
	From, To int // indexes of the notes given to Analyze
	Type     string
	// Via are the pull requests or issues the two share, "#2829", in
	// number order.
	Via []string
}

var (
	// filed: "filed #2258", "opened issue #3589", "created a follow-up issue #12".
	filed = regexp.MustCompile(`(?i)\b(?:filed|opened|created|raised|logged)\s+(?:(?:a|an|new|follow-?up|tracking)\s+)*(?:(?:issue|bug|ticket)s?\s+)?#(\d{2,7})\b`)
	// closed: GitHub's closing words, "fixes #12", "closed issue #3063", "resolves GH #40".
	closed = regexp.MustCompile(`(?i)\b(?:fix(?:es|ed)?|clos(?:es|ed)|resolv(?:es|ed))\s+(?:(?:github|gh)\s+)?(?:issue\s+)?#(\d{2,7})\b`)
)

// links returns the links between the episodes of notes, whose times
// are created (an episode's date): for every pull request or issue that
// two to maxChain episodes name, each of them continued_by the next; and
// resolved_by from the episode that filed an issue to each later one
// that closed it. Links are sorted by from, to and type; two episodes
// sharing several numbers have one link with every number as Via.
func (s scanned) links(notes []note.Note, created []time.Time) []Link {
	at := func(i int) time.Time {
		if i < len(created) {
			return created[i]
		}
		return time.Time{}
	}
	before := func(a, b int) int {
		return cmp.Or(at(a).Compare(at(b)), cmp.Compare(notes[a].Title, notes[b].Title))
	}
	links := map[linkKey]*Link{}
	add := func(from, to int, typ, via string) {
		k := linkKey{from, to, typ}
		if l, ok := links[k]; ok {
			l.Via = append(l.Via, via)
			return
		}
		links[k] = &Link{From: from, To: to, Type: typ, Via: []string{via}}
	}
	for ref, eps := range s.byRef {
		if !strings.HasPrefix(ref, "#") || len(eps) < 2 || len(eps) > maxChain {
			continue
		}
		eps = slices.Clone(eps)
		slices.SortFunc(eps, before)
		for k := 0; k+1 < len(eps); k++ {
			add(eps[k], eps[k+1], ContinuedBy, ref)
		}
	}
	for ref, filers := range s.filedBy {
		if len(s.byRef[ref]) > maxChain {
			continue // a hub: every episode files and closes it
		}
		for _, a := range filers {
			for _, b := range s.closedBy[ref] {
				if a != b && before(a, b) < 0 {
					add(a, b, ResolvedBy, ref)
				}
			}
		}
	}
	return sortLinks(links)
}

// numbersOf are the numbers re's first group finds in s, as references
// ("#12"), with the mentions negated leaves out.
func numbersOf(re *regexp.Regexp, s string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		line := s[strings.LastIndexByte(s[:m[0]], '\n')+1 : m[0]]
		if !negated(line) {
			out = append(out, "#"+strings.TrimLeft(s[m[2]:m[3]], "0"))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// linkKey is a link without its Via.
type linkKey struct {
	from, to int
	typ      string
}

// sortLinks lists links by from, to and type, each one's Via in number
// order.
func sortLinks(links map[linkKey]*Link) []Link {
	out := make([]Link, 0, len(links))
	for _, l := range links {
		slices.SortFunc(l.Via, func(a, b string) int {
			x, _ := strconv.Atoi(a[1:])
			y, _ := strconv.Atoi(b[1:])
			return cmp.Or(cmp.Compare(x, y), cmp.Compare(a, b))
		})
		out = append(out, *l)
	}
	slices.SortFunc(out, func(a, b Link) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To), cmp.Compare(a.Type, b.Type))
	})
	return out
}
