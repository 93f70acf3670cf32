package indexer

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/source"
)

// Where a note's created date came from (SPEC §3), published as date_source.
const (
	DateFrontMatter = "front_matter"
	DateGit         = "git"
	DateTitle       = "title"
	DateReference   = "reference"
)

// referenceTime is --now, else the built commit's time. A plain directory
// has no commit: its reference time is the latest date its notes give, so
// the same files always give the same bytes.
func referenceTime(opt Options, repo *source.Repo, notes []note.Note) (time.Time, []note.Diagnostic) {
	switch {
	case opt.Now != nil:
		return opt.Now.UTC(), nil
	case !repo.RefTime.IsZero():
		return repo.RefTime, nil
	}
	var latest time.Time
	for _, n := range notes {
		if t := firstDate(n); t.After(latest) {
			latest = t
		}
	}
	d := note.Diagnostic{Path: ".", Line: 1, Col: 1, Severity: note.Info, Rule: "reference-time",
		Message: "no commit to date the build: the reference time is the latest note date, " + export.TimeFormat}
	if latest.IsZero() {
		latest = time.Unix(0, 0).UTC()
		d.Message = "no commit and no dated note: the reference time is 1970-01-01T00:00:00Z; pass --now"
	} else {
		d.Message = "no commit to date the build: the reference time is the latest note date, " + latest.Format(export.TimeFormat)
	}
	return latest, []note.Diagnostic{d}
}

// firstDate is a note's own date: front matter, else a date in its title.
func firstDate(n note.Note) time.Time {
	if !n.Date.IsZero() {
		return n.Date
	}
	t, _ := titleDate(n.Title)
	return t
}

var titleDateRE = regexp.MustCompile(`(\d{4})-(\d{2})-(\d{2})`)

func titleDate(title string) (time.Time, bool) {
	m := titleDateRE.FindString(title)
	if m == "" {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02", m)
	return t, err == nil
}

// noteMeta decides each note's slug and dates. created: front matter, else
// the first commit (when history is complete), else a date in the title,
// else the reference time; the last two are reported.
func noteMeta(notes []note.Note, files []source.File, repo *source.Repo, ref time.Time, fed *federation) ([]export.Meta, []note.Diagnostic) {
	meta := make([]export.Meta, len(notes))
	var diags []note.Diagnostic
	for i, n := range notes {
		h := files[i].History
		m := export.Meta{Slug: noteSlug(&n), Commit: h.UpdatedCommit, From: fed.from(n.Source, n.Path)}
		repo := fed.repoOf(n.Source, repo)
		switch t, inTitle := titleDate(n.Title); {
		case !n.Date.IsZero():
			m.Created, m.DateSource = n.Date, DateFrontMatter
		case h.Known() && h.Complete:
			m.Created, m.DateSource = h.Created, DateGit
		case inTitle:
			m.Created, m.DateSource = t, DateTitle
			diags = append(diags, dateDiag(n.Path, note.Info, "no date in front matter and no complete git history (%s); created is taken from the title", why(repo, h)))
		default:
			m.Created, m.DateSource = ref, DateReference
			diags = append(diags, dateDiag(n.Path, note.Warning, "no date in front matter, in the title or in complete git history (%s); created is the reference time", why(repo, h)))
		}
		m.Updated = m.Created
		if h.Known() && h.Updated.After(m.Updated) {
			m.Updated = h.Updated
		}
		if m.Created.After(ref) {
			diags = append(diags, futureDiag(n.Path, "created", m.Created, ref))
		}
		if n.Pattern != nil && n.Pattern.LastValidated.After(ref) {
			diags = append(diags, futureDiag(n.Path, "last_validated", n.Pattern.LastValidated, ref))
		}
		meta[i] = m
	}
	return meta, diags
}

// noteSlug is a note's slug: its title's, under its namespace for a
// source's note (api--episode-2026-01-05-session-01). A title's slug
// never holds "--", so no source's slug is one of the repository's own.
func noteSlug(n *note.Note) string {
	if n.Source == "" {
		return export.Slug(n.Title)
	}
	return n.Source + "--" + export.Slug(strings.TrimPrefix(n.Title, n.Source+":"))
}

func why(repo *source.Repo, h source.History) string {
	switch {
	case repo.Kind != "git":
		return "not a git repository"
	case !h.Known():
		return "not committed"
	case repo.Shallow:
		return "shallow clone"
	}
	return "history incomplete"
}

func dateDiag(path string, sev note.Severity, format string, args ...any) note.Diagnostic {
	return note.Diagnostic{Path: path, Line: 1, Col: 1, Severity: sev, Rule: "date-fallback", Message: fmt.Sprintf(format, args...)}
}

// futureDiag reports a date after the reference time: the note's age would
// be negative, and is counted as 0.
func futureDiag(path, what string, t, ref time.Time) note.Diagnostic {
	return note.Diagnostic{Path: path, Line: 1, Col: 1, Severity: note.Warning, Rule: "date-future",
		Message: fmt.Sprintf("%s %s is after the reference time %s; its age is counted as 0", what, t.UTC().Format(time.RFC3339), ref.UTC().Format(time.RFC3339))}
}
