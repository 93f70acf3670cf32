package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// File is one output file, its path relative to the output root.
type File struct {
	Path string
	Data []byte
}

// Files renders every JSON document of the API under api/v1/, sorted by
// path, with the manifest (index.json) listing all of them.
func (s *Site) Files() ([]File, error) {
	ref := formatTime(s.ReferenceTime)
	files, err := s.documentFiles()
	if err != nil {
		return nil, err
	}
	add := func(name string, v any) error {
		data, err := encode(v)
		if err != nil {
			return fmt.Errorf("encode %s: %w", name, err)
		}
		files = append(files, File{Path: "api/v1/" + name, Data: data})
		return nil
	}
	summaries := make([]EpisodeSummary, len(s.Episodes))
	for i, e := range s.Episodes {
		summaries[i] = e.Summary()
	}
	patterns := make([]PatternSummary, len(s.Patterns))
	for i, p := range s.Patterns {
		patterns[i] = summary(p)
	}
	workflows := make([]WorkflowSummary, len(s.Workflows))
	for i, w := range s.Workflows {
		workflows[i] = w.WorkflowSummary
	}
	for _, f := range []struct {
		name string
		v    any
	}{
		{"episodes.json", List[EpisodeSummary]{SchemaVersion, ref, summaries}},
		{"patterns.json", List[PatternSummary]{SchemaVersion, ref, patterns}},
		{"antipatterns.json", List[PatternSummary]{SchemaVersion, ref, s.Antipatterns}},
		{"graph.json", s.Graph},
		{"health.json", s.Health},
		{"lessons.json", List[Lesson]{SchemaVersion, ref, s.Lessons}},
		{"pending.json", List[PendingItem]{SchemaVersion, ref, s.Pending}},
		{"workflows.json", List[WorkflowSummary]{SchemaVersion, ref, workflows}},
		{"diagnostics.json", List[Diagnostic]{SchemaVersion, ref, s.Diagnostics}},
	} {
		if err := add(f.name, f.v); err != nil {
			return nil, err
		}
	}
	feed, err := encode(s.feed())
	if err != nil {
		return nil, fmt.Errorf("encode feed.json: %w", err)
	}
	files = append(files, File{Path: "feed.json", Data: feed}, File{Path: "llms.txt", Data: s.llmsTxt(s.Budget)})
	files = append(files, s.Extra...)
	for _, sc := range schemaFiles() {
		name := sc.name + ".schema.json"
		if err := add("schema/"+name, Schema(name, sc.title, sc.v)); err != nil {
			return nil, err
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	m := s.Manifest
	m.Schemas = slices.Concat(SchemaMaps(), s.LateSchemas)
	m.Files = []string{"api/v1/index.json"}
	for _, f := range files {
		m.Files = append(m.Files, f.Path)
	}
	sort.Strings(m.Files)
	if err := add("index.json", m); err != nil {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// documentFiles are the files of the episodes, patterns, notes and
// workflows, in that order, each encoded on its own on all cores: a
// document's file depends on that document alone (issue 30).
func (s *Site) documentFiles() ([]File, error) {
	var docs []func() (string, any)
	for i := range s.Episodes {
		docs = append(docs, func() (string, any) { e := s.Episodes[i]; return "episodes/" + slugOf(e.JSONURL), e })
	}
	for i := range s.Patterns {
		docs = append(docs, func() (string, any) { p := s.Patterns[i]; return "patterns/" + slugOf(p.JSONURL), p })
	}
	for i := range s.Notes {
		docs = append(docs, func() (string, any) { n := s.Notes[i]; return "notes/" + slugOf(n.JSONURL), n })
	}
	for i := range s.Workflows {
		docs = append(docs, func() (string, any) { w := s.Workflows[i]; return "workflows/" + slugOf(w.JSONURL), w })
	}
	files := make([]File, len(docs))
	errs := make([]error, len(docs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(docs)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(docs); i = int(next.Add(1) - 1) {
				name, v := docs[i]()
				data, err := encode(v)
				if err != nil {
					errs[i] = fmt.Errorf("encode %s: %w", name, err)
				}
				files[i] = File{Path: "api/v1/" + name, Data: data}
			}
		})
	}
	wg.Wait()
	return files, errors.Join(errs...)
}

// Paths are the paths of files, in their order.
func Paths(files []File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

// summary is a pattern as listed in patterns.json: the full document less
// its prose, relations, backlinks and extra keys, with its score.
func summary(p Pattern) PatternSummary {
	p.Relations, p.Links, p.Backlinks, p.Sections, p.Source, p.LastValidated, p.Observations = nil, nil, nil, nil, nil, "", nil
	p.Extra = nil
	return Scored(p)
}

// Scored is p with its score where a list shows it: the summary's own
// Decayed, the one its JSON has; the copy inside p is cleared, so that
// a summary holds its score once and reads back from JSON as it was.
func Scored(p Pattern) PatternSummary {
	d := p.Decayed
	p.Decayed = Decayed{}
	return PatternSummary{Pattern: p, Decayed: d}
}

// Summary is the episode as listed in episodes.json: its head and its
// score at the reference time.
func (e *Episode) Summary() EpisodeSummary {
	return EpisodeSummary{EpisodeHead: e.EpisodeHead, Decayed: e.Decayed}
}

func slugOf(jsonURL string) string {
	return path.Base(jsonURL)
}

// Encode writes v as every file of the API is written: a line per value,
// not indented, and one trailing newline.
func Encode(v any) ([]byte, error) { return encode(v) }

// encode writes JSON with a line per value and no indentation. Indenting
// made the API a quarter larger (hundreds of megabytes of spaces at 100,000
// notes); a file on one line would be smaller still, but the output's
// secret scan hands gitleaks the lines around a keyword, and a long line
// makes it slow. Go escapes <, > and & as \u003c..., which is valid JSON
// and safe to inline.
func encode(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(len(data) + len(data)/8)
	if err := json.Indent(&buf, data, "", ""); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// Slug makes a title into a file name that is safe on every file system
// and inside the output root: lower case letters and digits of any script,
// dashes, at most 80 bytes, never a reserved name. Titles that lose
// characters on the way keep a short hash of the full title, so distinct
// titles rarely collide; the indexer refuses the collisions that remain.
func Slug(title string) string {
	var b strings.Builder
	dash := false
	lossy := false
	for _, r := range strings.ToLower(title) {
		switch {
		case isSlugRune(r):
			b.WriteRune(r)
			dash = false
		default:
			if r != '-' && r != ' ' && r != '_' && r != '.' {
				lossy = true
			}
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 80 {
		s = strings.TrimRight(truncateRunes(s, 80), "-")
		lossy = true
	}
	if s == "" || reserved[s] || lossy {
		if s != "" {
			s += "-"
		}
		s += shortHash(title)
	}
	return s
}
