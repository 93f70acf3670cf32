package bootstrap

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
)

// maxRecent caps recent work below MaxItems: read as an agent starting a
// session, five latest episodes say what is in flight, and ten took the
// budget from the practice and the warnings (issue 31: on ai-agents'
// newest snapshot all ten stayed while six practice items and five
// warnings were cut).
const maxRecent = 5

// episodes are the recent failures (failure or partial, within
// RecentDays), with their first lesson unless it is among the warnings,
// and the latest other episodes that give a task or an outcome, newest
// first. Episodes come sorted newest first.
func episodes(s *export.Site, warned map[string]bool) (failures, recent []Item) {
	for _, e := range s.Episodes {
		if causal.Excludes(e.Flags) {
			continue
		}
		// The headline is made only for the episodes listed: a
		// repository has thousands.
		switch {
		case failed(e) && e.AgeDays <= recentDays:
			text := headline(e)
			if len(e.Lessons) > 0 && !warned[e.Lessons[0]] {
				text = cutJoin(text, "Lesson: "+sentence(plain(e.Lessons[0])))
			}
			failures = append(failures, Item{ID: e.ID, URL: e.URL, Score: e.Score, Text: Cut(text)})
		case e.Outcome == "" && e.Task == "":
			// Says neither what was attempted nor how it ended: not a
			// record of work (ai-agents keeps a CLAUDE.md among its
			// episodes).
		case len(recent) < maxRecent:
			recent = append(recent, Item{ID: e.ID, URL: e.URL, Score: e.Score, Text: Cut(headline(e))})
		}
	}
	sort.SliceStable(failures, func(i, j int) bool { return failures[i].Score > failures[j].Score })
	return failures, recent
}

// failed is whether an episode counts as a failure for the bootstrap:
// its outcome says failure or partial, and its own last event does not
// contradict it (graph health flags outcome_contradicted: the work was
// merged, or ready to merge). This is the one place to ask it.
func failed(e export.Episode) bool {
	return (e.Outcome == "failure" || e.Outcome == "partial") && !slices.Contains(e.Flags, causal.FlagOutcomeContradicted)
}

// headline is an episode as its outcome in one sentence: how it ended and
// when, what it set out to do (the task's first sentence, or its first
// event when the task says nothing, "Session 807 - 2026-01-08") and what
// it produced (the result its record states last). The id is not in it:
// the item's link names the episode.
func headline(e export.Episode) string {
	outcome := e.Outcome
	if outcome == "" {
		outcome = "no outcome"
	}
	about, result := aboutOf(e), resultOf(e)
	if about == "" {
		about, result = result, ""
	}
	if about == "" {
		about = "no task given"
	}
	line := fmt.Sprintf("%s, %s: %s", outcome, day(e.Date), about)
	if result != "" && !strings.Contains(about, result) {
		line = cutJoin(cutTo(line, aboutText), "Result: "+cutTo(result, resultText))
	}
	return line
}

// aboutText and resultText cap the two halves of a headline with a
// result, so that a line reads in two short sentences.
const (
	aboutText  = 120
	resultText = 100
)

// aboutOf is what the episode set out to do: the first sentence of its
// task, or, when the task is only a name ("Session 379 - 2026-01-06"),
// its first event that says something, or what else it has.
func aboutOf(e export.Episode) string {
	about := firstSentence(plain(e.Task))
	if len(causal.Words(about)) > 3 {
		return about
	}
	for _, ev := range e.Events {
		if t := firstSentence(plain(ev.Content)); says(t) && !strings.HasPrefix(strings.TrimSpace(ev.Content), "|") {
			return t
		}
	}
	if about != "" {
		return about
	}
	for _, t := range append([]string{e.Context}, sectionTexts(e)...) {
		if t = firstSentence(plain(t)); t != "" {
			return t
		}
	}
	return ""
}

func sectionTexts(e export.Episode) []string {
	var out []string
	for _, sec := range e.Sections {
		out = append(out, sec.Markdown)
	}
	return out
}

// resultOf is what the episode produced, as its record says it: a later
// sentence of its task that opens with a verb of result ("Produced
// ADR-100 …", the task's own summary), else the last event that does
// ("Shipped the fifth bot round …"), else its decision's outcome. A
// commit hash or a one-word step ("implement") is not a result.
func resultOf(e export.Episode) string {
	for _, t := range sentences(plain(e.Task))[1:] {
		if resultVerb(t) {
			return t
		}
	}
	for i := len(e.Events) - 1; i >= 0; i-- {
		if t := firstSentence(plain(e.Events[i].Content)); resultVerb(t) && says(t) {
			return t
		}
	}
	return ""
}

// resultVerbs open a sentence that says what was produced.
var resultVerbs = map[string]bool{"produced": true, "shipped": true, "created": true, "added": true, "implemented": true,
	"fixed": true, "merged": true, "delivered": true, "wrote": true, "landed": true, "resolved": true, "completed": true,
	"published": true, "released": true, "removed": true, "replaced": true, "rewrote": true, "filed": true, "opened": true,
	"closed": true, "built": true, "migrated": true, "deployed": true, "documented": true, "introduced": true, "retired": true}

func resultVerb(s string) bool {
	first, _, _ := strings.Cut(s, " ")
	return resultVerbs[strings.ToLower(strings.Trim(first, ":,"))]
}

// says: a sentence with four words or more that is not a status line
// ("Status: Complete", "What was done:") or a commit ("Commit: 303c6d2").
func says(s string) bool {
	if strings.HasSuffix(s, ":") || statusLine.MatchString(s) {
		return false
	}
	return len(causal.Words(s)) >= 4
}

var statusLine = regexp.MustCompile(`^[A-Za-z][\w ]{0,30}:\s*\S*$`)

// plain is note text without the markup a session log leaves in it: list
// markers and check boxes at the start, emphasis ("*Status**:"), heading
// marks, table bars, on one line.
func plain(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if strings.HasPrefix(s, "|") {
		s = tableRow(s)
	}
	for {
		t := strings.TrimSpace(leadMarker.ReplaceAllString(s, ""))
		if t == s {
			break
		}
		s = t
	}
	return strings.TrimSpace(emphasis.ReplaceAllString(s, ""))
}

// tableRow is a Markdown table row as its cells, joined: no bars, no
// check boxes, no empty cells.
func tableRow(s string) string {
	var cells []string
	for _, c := range strings.Split(s, "|") {
		if c = strings.TrimSpace(c); c != "" && c != "[x]" && c != "[X]" && c != "[ ]" && strings.Trim(c, "-: ") != "" {
			cells = append(cells, c)
		}
	}
	return strings.Join(cells, "; ")
}

var (
	leadMarker = regexp.MustCompile(`^(?:[-+>#]+|\d+[.)]|\[[ xX]\])\s+`)
	emphasis   = regexp.MustCompile(`\*+|__+`)
)

// sentences splits text at the end of each sentence: a stop, then space,
// then a capital, a digit or a bracket.
func sentences(s string) []string {
	var out []string
	for s != "" {
		loc := sentenceEnd.FindStringIndex(s)
		if loc == nil {
			out = append(out, sentence(s))
			break
		}
		out = append(out, sentence(s[:loc[0]+1]))
		s = s[loc[1]-1:]
	}
	if len(out) == 0 {
		return []string{""}
	}
	return out
}

var sentenceEnd = regexp.MustCompile(`[.!?]\s+[A-Z0-9(“"]`)

func firstSentence(s string) string { return sentences(s)[0] }

// cutJoin joins a line and what follows it so that both are read: the
// line is cut to leave the second part room within MaxText.
func cutJoin(line, more string) string {
	room := maxText - len([]rune(more)) - 2
	room = max(room, maxText/2)
	if len([]rune(line)) > room {
		line = cutTo(line, room)
	}
	if strings.HasSuffix(line, "…") {
		return line + " " + more
	}
	return line + ". " + more
}
