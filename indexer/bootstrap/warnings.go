package bootstrap

import (
	"fmt"
	"regexp"
	"sort"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
)

// warnings are what an agent should not do again: the antipatterns that
// graph health does not flag, the lessons that say to avoid something
// ("Avoid:", "Don't", "Never", "避免"), and the lessons of episodes that
// failed or ended partly, at most two from one episode: the antipatterns
// first, best first, then the lessons, best first.
// warned names the lessons that are warnings, so that the lessons section
// does not list them again.
func warnings(s *export.Site) (out []Item, warned map[string]bool) {
	for _, p := range s.Antipatterns {
		if len(p.Flags) == 0 {
			out = append(out, Item{ID: p.ID, URL: p.URL, Score: warningScore(p),
				Text: Cut(fmt.Sprintf("Avoid %s %s%s", quote(p.Action), condition(p.Trigger), rateNote(p.Pattern)))})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	var learned []Item
	byID := map[string]*export.Episode{}
	for i := range s.Episodes {
		byID[s.Episodes[i].ID] = &s.Episodes[i]
	}
	warned = map[string]bool{}
	perEpisode := map[string]int{}
	said := map[string]bool{} // one wording once, however many clusters hold it
	for _, l := range s.Lessons {
		e := lessonEpisode(l, byID)
		if len(l.Flags) > 0 || e == nil {
			continue
		}
		text := sentence(plain(l.Text))
		if avoids(text) {
			warned[l.Text] = true // a warning, listed here or not at all
		}
		if perEpisode[e.ID] >= 2 || said[text] {
			continue
		}
		switch {
		case avoids(text):
		case !failed(*e):
			continue
		case e.Outcome == "failure":
			text = "After a failure: " + text
		default:
			text = "After a partial outcome: " + text
		}
		perEpisode[e.ID]++
		said[text] = true
		warned[l.Text] = true
		learned = append(learned, Item{ID: e.ID, URL: e.URL, Score: l.Score, Text: Cut(text)})
	}
	return append(out, below(learned, out)...), warned
}

// below ranks the lessons that warn after the antipatterns: an
// antipattern is measured over its evidence, a lesson is one episode's
// word. They keep their order (best score first) and are scored by rank,
// from 1 down to 0.75 (as the practice is spread over [0.75, 1]), scaled
// under the lowest antipattern's score, so that the budget lets a lesson
// go first. By rank, because their own scores (a count and a decay of a
// few days) barely differ: on them every warning but the first would
// stay while the practice went.
func below(learned, antipatterns []Item) []Item {
	floor := 1.0
	for _, it := range antipatterns {
		floor = min(floor, it.Score)
	}
	floor = max(floor, 1e-3) // an antipattern of no measured failure still ranks them
	sort.SliceStable(learned, func(i, j int) bool { return learned[i].Score > learned[j].Score })
	for i := range learned {
		learned[i].Score = floor * (1 - 0.25*float64(i)/float64(len(learned)))
	}
	return learned
}

// lessonEpisode is the episode a lesson cluster links to: its first
// episode that failed (what the warning is about), else its first; nil
// when none is an unflagged episode of the site.
func lessonEpisode(l export.Lesson, byID map[string]*export.Episode) *export.Episode {
	var first *export.Episode
	for _, id := range l.Episodes {
		e := byID[id]
		if e == nil || causal.Excludes(e.Flags) {
			continue
		}
		if failed(*e) {
			return e
		}
		if first == nil {
			first = e
		}
	}
	return first
}

// avoids: the lesson says not to do something.
func avoids(s string) bool { return avoidWords.MatchString(s) }

var avoidWords = regexp.MustCompile(`(?i)^(?:avoid|don't|don’t|do not|never|stop|beware|anti-?pattern)\b|\bavoid:|^(?:避免|不要|切勿|禁止|别|勿)`)
