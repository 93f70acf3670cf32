package bootstrap

import (
	"fmt"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

// episode makes an unflagged episode whose events say the given lines.
func episode(i int, outcome string, lines ...string) export.Episode {
	e := export.Episode{EpisodeHead: export.EpisodeHead{ID: fmt.Sprintf("EP-%04d", i), URL: fmt.Sprintf("/e/%04d/", i),
		Date: "2026-08-01T00:00:00Z", Outcome: note.Outcome(outcome), Task: fmt.Sprintf("Work item number %d of the sprint", i)}, Flags: []string{}}
	for j, l := range lines {
		e.Events = append(e.Events, export.Event{ID: fmt.Sprintf("e%03d", j+1), Content: l})
	}
	return e
}

func site(eps []export.Episode, lessons []export.Lesson) *export.Site {
	s := &export.Site{Title: "Memory", BaseURL: "/", Episodes: eps, Lessons: lessons}
	s.Manifest.ReferenceTime = "2026-08-10T00:00:00Z"
	return s
}

func texts(l []Item) string {
	var b strings.Builder
	for _, it := range l {
		b.WriteString(it.Text + "\n")
	}
	return b.String()
}

// TestPractice: a phrase that a tenth of the episodes say is practice,
// with its count of episodes and an example; the good input is next to
// the bad: boilerplate every episode says, one episode saying a line a
// thousand times, an issue number in every episode, a phrase in three
// wordings.
func TestPractice(t *testing.T) {
	var eps []export.Episode
	for i := range 40 {
		lines := []string{"Committed the change and pushed it", fmt.Sprintf("Linked issue #77 in session %d", i)}
		if i%3 == 0 {
			lines = append(lines, "Regenerated the mirrors with scripts/build_all.py")
		}
		if i%3 == 1 {
			lines = append(lines, "Bumped the plugin manifest version", "Bumped plugin manifest version again")
		}
		if i%4 == 0 {
			lines = append(lines, "Created an isolated worktree for the branch")
		}
		eps = append(eps, episode(i, "success", lines...))
	}
	// One episode says one line a thousand times: it counts once.
	eps = append(eps, episode(99, "success", slicesRepeat("Polished the spinner widget", 1000)...))
	c := Build(site(eps, nil))
	got := texts(c.Practice)
	for _, want := range []string{"“build_all.py” in 14 episodes, e.g. Regenerated the mirrors with scripts/build_all.py",
		"“isolated worktree” in 10 episodes"} {
		if !strings.Contains(got, want) {
			t.Errorf("practice lacks %q:\n%s", want, got)
		}
	}
	for _, bad := range []string{"committed", "#77", "77", "spinner", "“plugin manifest version”"} {
		if strings.Contains(got, bad) {
			t.Errorf("practice lists %q (boilerplate, a number, one episode's repetition, or a wording of a listed phrase):\n%s", bad, got)
		}
	}
	if n := strings.Count(got, "in 13 episodes"); n != 1 {
		t.Errorf("one practice in %d wordings:\n%s", n, got)
	}
	if again := texts(Build(site(eps, nil)).Practice); again != got {
		t.Errorf("practice differs between runs:\n%s\n%s", got, again)
	}
}

func slicesRepeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestPlain: the markup a session log leaves in an event is not text.
func TestPlain(t *testing.T) {
	for in, want := range map[string]string{
		"*Status**: Complete":                           "Status: Complete",
		"- [x] **Ran** the tests":                       "Ran the tests",
		"| MUST | Run markdown lint | [x] | 0 errors |": "MUST; Run markdown lint; 0 errors",
		"|---|---|":          "",
		"## Result: shipped": "Result: shipped",
	} {
		t.Run(in, func(t *testing.T) {
			if got := plain(in); got != want {
				t.Errorf("plain(%q) = %q, want %q", in, got, want)
			}
		})
	}
}

// TestWarningsBadInput: lessons that say to avoid warn, in any language
// the markers are known in; 10,000 identical lessons are one warning.
func TestWarningsBadInput(t *testing.T) {
	eps := []export.Episode{episode(1, "success"), episode(2, "failure"), episode(3, "success")}
	var lessons []export.Lesson
	for range 10000 {
		lessons = append(lessons, export.Lesson{Text: "Avoid: pushing without the gate", Count: 1, Episodes: []string{"EP-0001"}, Score: 0.5})
	}
	lessons = append(lessons,
		export.Lesson{Text: "避免在没有测试的情况下合并", Count: 1, Episodes: []string{"EP-0003"}, Score: 0.5},
		export.Lesson{Text: "合并前运行测试", Count: 1, Episodes: []string{"EP-0003"}, Score: 0.4},
		export.Lesson{Text: "Read the log first", Count: 1, Episodes: []string{"EP-0002"}, Score: 0.4})
	c := Build(site(eps, lessons))
	got := texts(c.Warnings)
	if strings.Count(got, "pushing without the gate") != 1 {
		t.Errorf("identical lessons warn more than once:\n%s", got)
	}
	for _, want := range []string{"避免在没有测试的情况下合并", "After a failure: Read the log first"} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings lack %q:\n%s", want, got)
		}
	}
	if l := texts(c.Lessons); strings.Contains(l, "Avoid") || strings.Contains(l, "避免") || !strings.Contains(l, "合并前运行测试") {
		t.Errorf("lessons list a warning again, or lose a lesson:\n%s", l)
	}
	if _, _, md, err := Fit(c, 2000); err != nil || strings.Count(string(md), "pushing without the gate") != 1 {
		t.Errorf("bootstrap.md: %v\n%s", err, md)
	}
}

// TestSlices: an area is a top-level folder or a tag that enough
// episodes touch. One episode makes no area; a URL is not a path; a
// thousand folders named once each make no slice per note.
func TestSlices(t *testing.T) {
	var eps []export.Episode
	for i := range 6 {
		eps = append(eps, episode(i, "success", "Edited scripts/validation/pre_pr.py to check links",
			"Read https://github.com/acme/tool/blob/main/docs/x.md and github.com/acme/tool/src/y.py"))
	}
	eps = append(eps, episode(7, "success", "Touched lonely/only.go once"))
	for i := range 1000 {
		eps = append(eps, episode(100+i, "success", fmt.Sprintf("Wrote dir%d/file.go", i)))
	}
	eps[0].Tags, eps[1].Tags, eps[2].Tags = []string{"ci"}, []string{"ci"}, []string{"ci"}
	_, got := BuildAll(site(eps, nil))
	var names []string
	for _, s := range got {
		names = append(names, fmt.Sprintf("%s=%s:%d", s.Area, s.Slug, s.Episodes))
	}
	want := "scripts=scripts:6 tag:ci=tag-ci:3"
	if strings.Join(names, " ") != want {
		t.Errorf("slices %q, want %q", names, want)
	}
	for _, s := range got {
		if len(s.Recent) == 0 || !strings.Contains(s.Title, s.Area) {
			t.Errorf("slice %s: title %q, %d recent", s.Area, s.Title, len(s.Recent))
		}
	}
}

// TestAreaSlug: slugs are safe file names; a dot folder keeps apart from
// the folder without the dot.
func TestAreaSlug(t *testing.T) {
	for in, want := range map[string]string{".agents": "dot-agents", "agents": "agents", "tag:CI Tools": "tag-ci-tools",
		"Scripts": "scripts", "..": "", "tag:": "", "测试": ""} {
		t.Run(in, func(t *testing.T) {
			if got := areaSlug(in); got != want {
				t.Errorf("areaSlug(%q) = %q, want %q", in, got, want)
			}
		})
	}
}
