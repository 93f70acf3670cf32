package site

import (
	"fmt"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/routes"
)

// lessonsPage lists the most recurring lesson clusters.
type lessonsPage struct {
	Lessons []lessonView `json:"lessons"`
	Total   int          `json:"total"`
}

func lessonsPages(in input) []page {
	s := in.s
	return []page{{path: "lessons/_index.md", api: routes.Lessons, title: "Lessons",
		params: lessonsPage{Lessons: lessonViews(s, maxLessons), Total: len(s.Lessons)}}}
}

// lessonView is a lesson cluster as a page lists it: its newest
// episodes and wordings, with counts of the rest (lessons.json has them
// all).
type lessonView struct {
	Anchor       string        `json:"anchor"`
	Text         string        `json:"text"`
	Count        int           `json:"count"`
	Latest       string        `json:"latest"`
	Episodes     int           `json:"episodes"`
	EpisodeRefs  []export.Ref  `json:"episode_refs"`
	Wordings     []string      `json:"wordings"`
	MoreWordings int           `json:"more_wordings"`
	Related      []relatedView `json:"related"`
}

// relatedView is a related lesson, with its place on the lessons page
// ("" when the page does not list it).
type relatedView struct {
	export.RelatedLesson
	Anchor string `json:"anchor"`
}

// Caps of the lessons page: at 10,000 notes it listed every cluster with
// every episode, 1.4 MB of HTML.
const (
	maxLessons        = 200
	maxLessonEpisodes = 10
	maxLessonWordings = 10
)

func lessonViews(s *export.Site, n int) []lessonView {
	urls := map[string]string{}
	for _, e := range s.Episodes {
		urls[e.ID] = e.URL
	}
	// Clusters never share a wording: the text names one.
	anchors := map[string]string{}
	for i, l := range first(s.Lessons, maxLessons) {
		anchors[l.Text] = fmt.Sprintf("lesson-%d", i+1)
	}
	out := []lessonView{}
	for _, l := range first(s.Lessons, n) {
		v := lessonView{Anchor: anchors[l.Text], Text: l.Text, Count: l.Count, Latest: l.Latest, Episodes: len(l.Episodes), EpisodeRefs: []export.Ref{},
			Wordings: first(l.Wordings, maxLessonWordings), MoreWordings: max(0, len(l.Wordings)-maxLessonWordings), Related: []relatedView{}}
		for _, id := range first(l.Episodes, maxLessonEpisodes) {
			v.EpisodeRefs = append(v.EpisodeRefs, export.Ref{ID: id, Type: "episode", URL: urls[id]})
		}
		for _, r := range l.Related {
			v.Related = append(v.Related, relatedView{RelatedLesson: r, Anchor: anchors[r.Text]})
		}
		out = append(out, v)
	}
	return out
}
