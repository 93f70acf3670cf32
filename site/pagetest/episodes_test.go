package pagetest

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestRealEpisodesSayItOnce: on the real snapshots, no episode page
// shows its heading again in the task line under it (issue 33: a cut
// heading, then the full sentence), and no decision shows a paragraph
// it has already shown (its title, context, chosen option, rationale).
func TestRealEpisodesSayItOnce(t *testing.T) {
	for _, snap := range realSnapshots {
		t.Run(snap.name, func(t *testing.T) {
			out := build(t, realRepo(t, snap.repo))
			heads, decisions, fields := 0, 0, 0
			for name, doc := range pages(t, out, "episodes") {
				if h := headingRepeated(doc); h != "" {
					heads++
					t.Errorf("%s: the heading %q is said again under it", name, h)
				}
				for _, d := range find(doc, "article", "decision") {
					decisions++
					for _, r := range decisionRepeats(d) {
						fields++
						t.Errorf("%s: a decision says again %s", name, r)
					}
				}
			}
			t.Logf("%d episode pages repeat their heading; %d fields of %d decisions repeat another", heads, fields, decisions)
		})
	}
}

// headingRepeated is the page's heading when the task line under it says
// it again; else "".
func headingRepeated(doc *html.Node) string {
	h1, task := find(doc, "h1", ""), find(doc, "p", "task")
	if len(h1) != 1 || len(task) != 1 {
		return ""
	}
	h := strings.TrimSuffix(text(h1[0]), "…")
	if repeats(h, text(task[0])) {
		return h
	}
	return ""
}

// decisionRepeats are the fields of a decision's entry that say what its
// title or a field above them said, as "Chosen: its text".
func decisionRepeats(d *html.Node) []string {
	var shown []string
	if h3 := find(d, "h3", ""); len(h3) > 0 {
		title := h3[0].FirstChild
		if title != nil && title.Type == html.TextNode {
			shown = append(shown, strings.TrimSpace(title.Data))
		}
	}
	var out []string
	for _, dt := range find(d, "dt", "") {
		switch text(dt) {
		case "Context", "Chosen", "Rationale":
		default:
			continue
		}
		dd := dt.NextSibling
		for dd != nil && dd.Type != html.ElementNode {
			dd = dd.NextSibling
		}
		if dd == nil {
			continue
		}
		v := text(dd)
		for _, s := range shown {
			// A field says again what a field above said, or starts with
			// what the heading, cut, said of it.
			stem, cut := strings.CutSuffix(s, "…")
			if repeats(v, s) || cut && repeats(stem, v) && strings.HasPrefix(words(v), words(stem)) {
				out = append(out, text(dt)+": "+v)
				break
			}
		}
		shown = append(shown, v)
	}
	return out
}
