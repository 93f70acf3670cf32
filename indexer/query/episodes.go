package query

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
)

// EpisodeFilter selects episodes; the zero value selects all.
type EpisodeFilter struct {
	Outcome string    // success, partial or failure
	Since   time.Time // dated at or after
	Tag     string    // has this tag, ignoring case
	Task    string    // task has every word of this text (words.go)
}

// FindEpisodes returns the episode summaries that pass f, newest first.
func (s *Snapshot) FindEpisodes(f EpisodeFilter) []export.EpisodeSummary {
	out := []export.EpisodeSummary{}
	task := newWordFilter(f.Task)
	for _, e := range s.Episodes {
		if f.Outcome != "" && !strings.EqualFold(string(e.Outcome), f.Outcome) {
			continue
		}
		if !f.Since.IsZero() {
			d, err := time.Parse(export.TimeFormat, e.Date)
			if err != nil || d.Before(f.Since) {
				continue
			}
		}
		if f.Tag != "" && !hasTag(e.Tags, f.Tag) {
			continue
		}
		if !task.match(e.Task) {
			continue
		}
		out = append(out, e.EpisodeSummary)
	}
	return out
}

func hasTag(tags []string, tag string) bool {
	tag = strings.TrimPrefix(tag, "#")
	for _, t := range tags {
		if strings.EqualFold(strings.TrimPrefix(t, "#"), tag) {
			return true
		}
	}
	return false
}

var sinceRE = regexp.MustCompile(`^(\d+)([hdw])$`)

// ParseSince reads --since: a duration back from the reference time
// ("36h", "7d", "2w") or a date ("2026-08-01", RFC 3339).
func ParseSince(s string, ref time.Time) (time.Time, error) {
	if m := sinceRE.FindStringSubmatch(strings.TrimSpace(s)); m != nil {
		// At most 100,000 days back: more would overflow a time.Duration
		// and land in the future.
		hours := map[string]int{"h": 1, "d": 24, "w": 7 * 24}[m[2]]
		n, err := strconv.Atoi(m[1])
		if err != nil || n > 100000*24/hours {
			return time.Time{}, fmt.Errorf("--since %q is too far back", s)
		}
		return ref.Add(-time.Duration(n*hours) * time.Hour), nil
	}
	for _, layout := range []string{time.RFC3339, time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q is neither a duration (7d, 36h, 2w) nor a date (2026-08-01)", s)
}

// Episode finds an episode by id (its title), ignoring case, or by the
// slug of its page.
func (s *Snapshot) Episode(id string) (*Episode, error) {
	k := causal.Key(id)
	for i := range s.Episodes {
		e := &s.Episodes[i]
		if causal.Key(e.ID) == k || slugOf(e.URL) == k {
			return e, nil
		}
	}
	names := make([]string, len(s.Episodes))
	for i, e := range s.Episodes {
		names[i] = e.ID
	}
	return nil, &NotFoundError{What: "episode", Name: id, Suggestions: suggest(id, names)}
}

func slugOf(url string) string {
	url = strings.TrimSuffix(url, "/")
	return url[strings.LastIndex(url, "/")+1:]
}
