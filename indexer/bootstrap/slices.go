package bootstrap

import (
	"cmp"
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/related"
)

// Areas (SPEC §4.1, "Slices by area"): besides the whole bootstrap, one
// for each top-level folder of the repository that its episodes name in
// file paths, and each tag they carry, so that a session working in
// scripts/ reads what was done and learned there.
const (
	// MinAreaEpisodes is the fewest episodes an area needs for a slice:
	// one episode is a note, not an area, and its slice would only
	// repeat it.
	MinAreaEpisodes = 3
	// MaxAreas caps the slices, the areas of most episodes first: a
	// repository whose episodes name a thousand folders gets twenty
	// slices, not a slice per note.
	MaxAreas = 20
)

// Slice is one area's bootstrap candidates.
type Slice struct {
	// Area is the folder ("scripts", ".agents") or the tag ("tag:ci");
	// Slug names its files, api/v1/bootstrap/<slug>.md and .json.
	Area     string
	Slug     string
	Episodes int
	Candidates
}

// BuildAll is Build and the slices of every area, the episodes' phrases
// found once for all.
func BuildAll(s *export.Site) (Candidates, []Slice) {
	ph := newPhrases(s.Episodes)
	whole := buildWith(s, ph)
	var out []Slice
	for _, a := range areas(s.Episodes) {
		sub := within(s, a)
		out = append(out, Slice{Area: a.name, Slug: a.slug, Episodes: len(a.episodes), Candidates: buildWith(sub, ph)})
	}
	return whole, out
}

// area is a folder or a tag and the episodes that touch it.
type area struct {
	name, slug string
	episodes   map[string]bool
}

// areas are the areas of at least MinAreaEpisodes unflagged episodes, at
// most MaxAreas, most episodes first, then by slug.
func areas(eps []export.Episode) []area {
	bySlug := map[string]*area{}
	for i := range eps {
		e := &eps[i]
		if causal.Excludes(e.Flags) {
			continue
		}
		for _, name := range areaNames(e) {
			slug := areaSlug(name)
			if slug == "" {
				continue
			}
			a := bySlug[slug]
			if a == nil {
				a = &area{name: name, slug: slug, episodes: map[string]bool{}}
				bySlug[slug] = a
			}
			a.episodes[e.ID] = true
		}
	}
	var out []area
	for _, a := range bySlug {
		if len(a.episodes) >= MinAreaEpisodes {
			out = append(out, *a)
		}
	}
	slices.SortFunc(out, func(a, b area) int {
		if c := cmp.Compare(len(b.episodes), len(a.episodes)); c != 0 {
			return c
		}
		return cmp.Compare(a.slug, b.slug)
	})
	return out[:min(len(out), MaxAreas)]
}

// areaNames are the areas an episode touches: the top-level folder of
// each file path its record names (related.References finds them and
// leaves URLs out), and its tags.
func areaNames(e *export.Episode) []string {
	var out []string
	for _, r := range related.References(episodeText(e)) {
		if top, _, ok := strings.Cut(r, "/"); ok && !strings.HasPrefix(r, "#") && !strings.HasPrefix(r, "branch ") && folder(top) {
			out = append(out, top)
		}
	}
	for _, t := range e.Tags {
		out = append(out, "tag:"+t)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// folder: a top-level folder name, not a host ("github.com/x/y" written
// without its scheme) nor a relative step.
func folder(top string) bool {
	if top == "" || top == "." || top == ".." || strings.Contains(top, ":") {
		return false
	}
	dot := strings.LastIndex(top, ".")
	return dot <= 0 // ".agents" is a folder; "github.com" and "www.x.org" are hosts
}

// areaSlug is an area's file name: lower case letters, digits and
// dashes; a leading dot is "dot-" (".agents" and "agents" are two
// folders), a tag "tag-".
func areaSlug(name string) string {
	prefix := ""
	if t, ok := strings.CutPrefix(name, "tag:"); ok {
		prefix, name = "tag-", t
	} else if t, ok := strings.CutPrefix(name, "."); ok {
		prefix, name = "dot-", t
	}
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	slug := strings.Trim(b.String(), "-")
	if slug == "" || len(slug) > 60 {
		return ""
	}
	return prefix + slug
}

// episodeText is what an episode's record says, for the paths it names.
func episodeText(e *export.Episode) string {
	parts := []string{e.Task, e.Context}
	for _, ev := range e.Events {
		parts = append(parts, ev.Content)
	}
	for _, d := range e.Decisions {
		parts = append(parts, d.Title, d.Context, d.Chosen, d.Rationale)
	}
	parts = append(parts, e.Lessons...)
	return strings.Join(parts, "\n")
}

// within is the site as one area sees it: its episodes, the lessons they
// learned, the patterns they are evidence for; nothing due (what is due
// belongs to the whole repository).
func within(s *export.Site, a area) *export.Site {
	sub := *s
	sub.Title = oneLine(s.Title) + ": " + a.name
	sub.Episodes = keep(s.Episodes, func(e *export.Episode) bool { return a.episodes[e.ID] })
	sub.Lessons = keep(s.Lessons, func(l *export.Lesson) bool {
		return slices.ContainsFunc(l.Episodes, func(id string) bool { return a.episodes[id] })
	})
	evidenced := func(p *export.Pattern) bool {
		return slices.ContainsFunc(p.Evidence, func(r export.EvidenceRef) bool { return a.episodes[r.ID] })
	}
	sub.Patterns = keep(s.Patterns, evidenced)
	sub.Antipatterns = keep(s.Antipatterns, func(p *export.PatternSummary) bool { return evidenced(&p.Pattern) })
	sub.DueItems = nil
	return &sub
}

// keep is a new list of the elements of l that pass: only those are
// copied (an episode is a large value, and an area holds a part of
// thousands).
func keep[T any](l []T, pass func(*T) bool) []T {
	var out []T
	for i := range l {
		if pass(&l[i]) {
			out = append(out, l[i])
		}
	}
	return out
}
