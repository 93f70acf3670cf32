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

	"github.com/engramhq/engram/indexer/routes"
)

// File is one output file, its path relative to the output root.
type File struct {
	Path string
	Data []byte
}

// Files renders every file of the registry that export makes, the
// files the later stages made (Extra) and the schema of every family,
// sorted by path, with the manifest (index.json) listing all of them and
// every family's schema.
func (s *Site) Files() ([]File, error) {
	docs := s.Registry()
	files, err := s.documentFiles()
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		if d.value == nil {
			continue
		}
		data, err := d.value(s)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", d.Path, err)
		}
		files = append(files, File{Path: d.Path, Data: data})
	}
	schemas, err := SchemaFiles(docs)
	if err != nil {
		return nil, err
	}
	files = slices.Concat(files, s.Extra, schemas)
	m := s.Manifest
	m.Schemas = Maps(docs)
	m.Files = append(Paths(files), routes.Manifest)
	sort.Strings(m.Files)
	data, err := encode(m)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", routes.Manifest, err)
	}
	files = append(files, File{Path: routes.Manifest, Data: data})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// episodeSummaries are the episodes as episodes.json lists them.
func (s *Site) episodeSummaries() []EpisodeSummary {
	out := make([]EpisodeSummary, len(s.Episodes))
	for i, e := range s.Episodes {
		out[i] = e.Summary()
	}
	return out
}

// patternSummaries are the patterns as patterns.json lists them.
func (s *Site) patternSummaries() []PatternSummary {
	out := make([]PatternSummary, len(s.Patterns))
	for i, p := range s.Patterns {
		out[i] = summary(p)
	}
	return out
}

// workflowSummaries are the workflows as workflows.json lists them.
func (s *Site) workflowSummaries() []WorkflowSummary {
	out := make([]WorkflowSummary, len(s.Workflows))
	for i, w := range s.Workflows {
		out[i] = w.WorkflowSummary
	}
	return out
}

// documentFiles are the files of the episodes, patterns, notes and
// workflows, in that order, each encoded on its own on all cores: a
// document's file depends on that document alone (issue 30).
func (s *Site) documentFiles() ([]File, error) {
	var docs []func() (string, any)
	for i := range s.Episodes {
		docs = append(docs, func() (string, any) { e := s.Episodes[i]; return document(routes.EpisodeFolder, e.JSONURL), e })
	}
	for i := range s.Patterns {
		docs = append(docs, func() (string, any) { p := s.Patterns[i]; return document(routes.PatternFolder, p.JSONURL), p })
	}
	for i := range s.Notes {
		docs = append(docs, func() (string, any) { n := s.Notes[i]; return document(routes.NoteFolder, n.JSONURL), n })
	}
	for i := range s.Workflows {
		docs = append(docs, func() (string, any) { w := s.Workflows[i]; return document(routes.WorkflowFolder, w.JSONURL), w })
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
				files[i] = File{Path: name, Data: data}
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

// document is the path of the document in folder whose URL is jsonURL.
func document(folder, jsonURL string) string {
	return routes.Document(folder, strings.TrimSuffix(path.Base(jsonURL), ".json"))
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
