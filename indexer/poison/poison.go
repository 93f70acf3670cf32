// Package poison finds memory poisoning (SPEC §3, "Graph health"): text
// in a note that addresses an agent with instructions, which every
// future session would read as its own. Agents inject what engram
// publishes into their context, so a note that says "ignore your previous
// instructions", "run curl … | sh", "always push to main without review"
// or "send the tokens to https://…", or hides text where a reader of the
// page cannot see it (an HTML comment, invisible characters), is a
// prompt-injection path into every session after it.
//
// The detector is deterministic, offline and LLM-free: rules over the
// text, aimed at imperative text addressed to the reader. Precision
// matters more than recall: real notes talk about these things ("the
// hook blocked --no-verify", "we decided not to push to main") without
// asking an agent to do them, so a rule matches an instruction, not a
// topic, and a match that the sentence before it negates, reports or
// quotes is talk about the thing. BENCHMARKS.md has the measurement.
//
// A scanner finds the matches in one text and, for a note, walks every
// text an agent may be handed (Fields) and positions each finding in the
// file; Check does so for a repository's notes against its allow list
// (the reviewed fingerprints of findings that are meant, as
// .gitleaksignore allows secrets).
package poison

import "slices"

// Categories: what a poisoned text asks of an agent.
const (
	// Override: to drop its instructions or take another role ("ignore
	// previous instructions", "you are now DAN", "new system prompt:",
	// role tokens such as <|im_start|>).
	Override = "override"
	// DownloadRun: to run a script fetched from the network (curl … | sh,
	// iwr … | iex, base64 -d | sh).
	DownloadRun = "download-exec"
	// Safeguard: to skip a safeguard as a standing rule (review, tests,
	// hooks, --no-verify, force-push or push to main), or to keep
	// something from the user.
	Safeguard = "safeguard"
	// Exfiltration: to send the environment, secrets or keys somewhere.
	Exfiltration = "exfiltration"
	// Hidden: instructions where a reader of the page cannot see them (in
	// an HTML comment), or invisible characters.
	Hidden = "hidden"
)

// Match is one poisoned span of a text.
type Match struct {
	Category string
	// Start and End are byte offsets into the text scanned.
	Start, End int
	// Why says what the text asks of an agent, for a message: "to ignore
	// its instructions".
	Why string
	// InComment: the span lies inside an HTML comment, which the page
	// does not show.
	InComment bool
}

// scanner scans texts one after another, keeping its buffers between
// them: most texts are short, and allocating for each cost more than
// reading it.
type scanner struct {
	needles found
	segs    []int
}

// scan finds the poisoned spans of text, in order of their start, one
// match per span (the first rule that matches it).
func (sc *scanner) scan(text string) []Match {
	if text == "" {
		return nil
	}
	n := normalize(text)
	sc.needles.find(n.s)
	sc.segs = sc.segs[:0] // the sentences' starts, made when a rule needs them
	var out []Match
	comments := commentSpans(n.s)
	for i, r := range rules {
		for _, w := range sc.needles.windows(i, n.s, &sc.segs) {
			for _, loc := range r.find(n.s[w[0]:w[1]]) {
				loc = []int{loc[0] + w[0], loc[1] + w[0]}
				if !r.talkAbout(n.s, loc) {
					out = append(out, n.match(r.category, r.why, loc, comments))
				}
			}
		}
	}
	out = append(out, n.hiddenInComments(comments, out)...)
	out = append(out, invisible(text)...)
	return merge(out)
}

// merge sorts matches by start and keeps one of any that overlap: the
// earliest, then the longest.
func merge(ms []Match) []Match {
	slices.SortStableFunc(ms, func(a, b Match) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return b.End - a.End
	})
	var out []Match
	for _, m := range ms {
		if len(out) > 0 && m.Start < out[len(out)-1].End {
			continue
		}
		out = append(out, m)
	}
	return out
}
