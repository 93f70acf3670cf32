package extract

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	lessonLabelRE = regexp.MustCompile(`(?i)^(key |main |critical |important )?(lessons?( learned)?|learnings?|takeaways?|insights?)$`)
	filesLabelRE  = regexp.MustCompile(`(?i)^(files?\s+(changed|modified|created|resolved|added|deleted|updated)|committed files|changed files)$`)
	filesCountRE  = regexp.MustCompile(`(?i)^(\d+)\s+\S.*\bfiles?\b`)
	fileKeyRE     = regexp.MustCompile("`([^`]+)`")
)

// lessons are the items of a "Lessons Learned" (or "Key Learnings",
// "Takeaways", "Insights") section or bold label; a label followed by a
// paragraph is one lesson. Lines it takes are marked in used.
func (d *doc) lessons(used map[int]bool) []Lesson {
	var out []Lesson
	add := func(items []blockItem) {
		for _, it := range items {
			if t := join(inline(it.text, maxText), it.sub); t != "" {
				out = append(out, Lesson{Text: cut(t, maxText), Line: d.lines[it.first].n})
			}
			mark(used, it.lines)
		}
	}
	for i := 0; i < len(d.lines); i++ {
		l := d.lines[i]
		switch {
		case l.code || used[i]:
		case l.level >= 2 && lessonLabelRE.MatchString(l.head):
			end := d.sectionEnd(i)
			add(d.sectionItems(i+1, end))
			i = end - 1
		case lessonLabelRE.MatchString(l.key) && l.val == "":
			add(d.listAfter(i+1, d.limit(i)).items)
		case lessonLabelRE.MatchString(l.key):
			add([]blockItem{{text: l.val, first: i, lines: []int{i}}})
		}
	}
	return out
}

// sectionItems returns the list items of a section, or its paragraphs
// when it has no list.
func (d *doc) sectionItems(from, end int) []blockItem {
	var list, paras []blockItem
	for k := from; k < end; {
		b := d.listAfter(k, end)
		for _, it := range b.items {
			if d.lines[it.first].item {
				list = append(list, it)
			} else {
				paras = append(paras, it)
			}
		}
		k = max(b.end, k+1)
	}
	if len(list) > 0 {
		return list
	}
	return paras
}

// Lesson is one lesson the log records.
type Lesson struct {
	Text string
	Line int
}

// filesChanged counts the files a log lists under "Files changed" (or
// modified, created, resolved…) labels and sections; "9 skill SKILL.md
// files:" counts 9, and a file listed twice counts once.
func (d *doc) filesChanged() int {
	seen := map[string]bool{}
	n := 0
	count := func(items []blockItem) {
		for _, it := range items {
			if !d.lines[it.first].item {
				continue
			}
			if m := filesCountRE.FindStringSubmatch(stripMarks(it.text)); m != nil {
				k, _ := strconv.Atoi(m[1])
				n += min(k, 10000)
				continue
			}
			key := fileKey(it.text)
			if !seen[key] {
				seen[key] = true
				n++
			}
		}
	}
	for i, l := range d.lines {
		switch {
		case l.code:
		case l.level >= 2 && filesLabelRE.MatchString(l.head):
			count(d.listAfter(i+1, d.sectionEnd(i)).items)
		case filesLabelRE.MatchString(l.key) && l.val == "":
			count(d.listAfter(i+1, d.limit(i)).items)
		}
	}
	return n
}

// fileKey names the file of a list item: its first code span, else its
// text before " - " or " (".
func fileKey(s string) string {
	if m := fileKeyRE.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	for _, sep := range []string{" - ", " (", ": "} {
		if k := strings.Index(s, sep); k > 0 {
			s = s[:k]
		}
	}
	return strings.TrimSpace(s)
}
