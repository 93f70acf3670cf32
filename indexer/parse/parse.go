// Package parse is engram's parse stage: one markdown note in, one
// note.Note and its diagnostics out (SPEC §2.1–2.3). It never fails on
// what a note contains: every problem is a positioned diagnostic, and the
// note is published with what could be read. Only a note that cannot be
// text at all (too large, binary) is refused, with ErrUnpublishable.
package parse

import (
	"bytes"
	"errors"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	gparser "github.com/yuin/goldmark/parser"

	"github.com/engramhq/engram/indexer/note"
)

// ErrUnpublishable means a file cannot be published as a note at all; the
// reason is in the diagnostics.
var errUnpublishable = errors.New("not publishable")

// Roots says which folders hold episodes and patterns when a note's front
// matter gives no type. The zero value means "episodes" and "patterns".
type Roots struct {
	Episodes []string
	Patterns []string
}

// Parser reads notes. It is safe for concurrent use.
type Parser struct {
	roots Roots
	md    gparser.Parser
}

// New returns a parser for the given roots.
func New(roots Roots) *Parser {
	if len(roots.Episodes) == 0 {
		roots.Episodes = []string{"episodes"}
	}
	if len(roots.Patterns) == 0 {
		roots.Patterns = []string{"patterns"}
	}
	return &Parser{roots: roots, md: newMarkdownParser()}
}

// Parse reads one note. path is slash-separated and relative to the
// repository root; it names the note in diagnostics.
func (p *Parser) Parse(path string, src []byte) (note.Note, []note.Diagnostic, error) {
	s := &state{path: path, n: note.Note{Path: path}}
	if len(src) > MaxNoteBytes {
		s.diags.Report(s.path, 0, 0, note.Error, "note-too-large", "note is %d bytes, over the limit of %d; not published", len(src), MaxNoteBytes)
		return s.n, s.diags, errUnpublishable
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line, col := position(src, i)
		s.diags.Report(s.path, line, col, note.Error, "binary-file", "file holds a NUL byte, so it is binary, not a note; not published")
		return s.n, s.diags, errUnpublishable
	}
	src = s.clean(src)
	before := len(s.diags)
	fm, bodySrc, bodyLine := s.frontMatter(src)
	f := &fields{fm: fm, path: path, used: map[string]bool{}, broken: note.CountErrors(s.diags[before:]) > 0}
	s.n.Type = strings.ToLower(f.str("type"))
	s.n.Kind = p.kind(path, s.n.Type)
	s.common(f)
	switch s.n.Kind {
	case note.KindEpisode:
		s.n.Episode = episodeFields(f)
	case note.KindPattern:
		s.n.Pattern = patternFields(f)
	}
	s.n.Extra = f.extra()
	s.diags = append(s.diags, f.diags...)
	s.body(p.md, bodySrc, bodyLine)
	return s.n, s.diags, nil
}

// state is the work in progress of one Parse call.
type state struct {
	path  string
	n     note.Note
	diags note.Diagnostics
	// unreadable is the line of the error that left the front matter
	// unread, or 0: the note is then withheld as private (privacy.go).
	unreadable int
}

// clean drops a BOM, turns CRLF into LF (line numbers stay right) and
// replaces invalid UTF-8, reporting where it was. A lone CR becomes LF too:
// YAML and CommonMark end a line there, so counting only LF would put
// front matter and body diagnostics on different lines.
func (s *state) clean(src []byte) []byte {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	if bytes.Contains(src, []byte("\r\n")) {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	}
	if bytes.IndexByte(src, '\r') >= 0 {
		src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
	}
	if !utf8.Valid(src) {
		line, col := position(src, firstInvalid(src))
		s.diags.Report(s.path, line, col, note.Warning, "invalid-utf8", "text is not valid UTF-8; invalid bytes are shown as \uFFFD")
		src = bytes.ToValidUTF8(src, []byte("\uFFFD"))
	}
	return src
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// position returns the 1-based line and column of byte offset off. A lone
// CR ends a line, as clean makes it: a NUL byte is found before cleaning.
func position(src []byte, off int) (line, col int) {
	before := src[:off]
	line = bytes.Count(before, []byte("\n")) + bytes.Count(before, []byte("\r")) - bytes.Count(before, []byte("\r\n")) + 1
	start := bytes.LastIndexAny(before, "\r\n") + 1
	return line, utf8.RuneCount(before[start:]) + 1
}

// frontMatter splits and decodes the front matter, returning the body and
// the line it starts on.
func (s *state) frontMatter(src []byte) (frontMatter, []byte, int) {
	empty := frontMatter{values: map[string]any{}, lines: map[string]int{}, start: 1}
	blk, ok, problem := splitFrontMatter(src)
	if problem != nil {
		s.diags.Report(s.path, problem.line, problem.col, note.Error, problem.rule, "%s", problem.msg)
		s.unreadable = problem.line
		return empty, src, 1
	}
	if !ok {
		return empty, src, 1
	}
	for _, w := range blk.warnings {
		s.diags.Report(s.path, w.line, w.col, note.Warning, w.rule, "%s", w.msg)
	}
	body := src[blk.bodyOff:]
	if len(blk.text) > MaxFrontMatterBytes {
		s.diags.Report(s.path, blk.openLine, 1, note.Error, "frontmatter-too-large", "front matter is %d bytes, over the limit of %d; it is ignored", len(blk.text), MaxFrontMatterBytes)
		s.unreadable = blk.openLine
		return empty, body, blk.bodyLine
	}
	fm, errs := decodeFrontMatter(blk)
	for _, e := range errs {
		s.diags.Report(s.path, e.line, e.col, note.Error, e.rule, "%s", e.msg)
		if s.unreadable == 0 && e.rule != "frontmatter-duplicate-key" {
			s.unreadable = e.line
		}
	}
	if len(errs) == 0 && len(fm.values) == 0 {
		s.diags.Report(s.path, blk.openLine, 1, note.Warning, "frontmatter-empty", "front matter is empty (or null): the note has no title, type or other keys; write them, or leave the front matter out")
	}
	return fm, body, blk.bodyLine
}

func (p *Parser) kind(filePath, typ string) note.Kind {
	switch typ {
	case "episode":
		return note.KindEpisode
	case "pattern", "antipattern":
		return note.KindPattern
	case "":
		if under(filePath, p.roots.Episodes) {
			return note.KindEpisode
		}
		if under(filePath, p.roots.Patterns) {
			return note.KindPattern
		}
	}
	return note.KindNote
}

func under(filePath string, dirs []string) bool {
	for _, d := range dirs {
		d = strings.Trim(path.Clean(d), "/")
		if strings.HasPrefix(filePath, d+"/") {
			return true
		}
	}
	return false
}

// cleanTitle removes control characters, which no title needs and which
// would break file names and terminals.
func cleanTitle(t string) (string, bool) {
	clean := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, t)
	return strings.TrimSpace(clean), clean != t
}

// titleFromPath is the file name without its extension.
func titleFromPath(p string) string {
	base := path.Base(p)
	return strings.TrimSuffix(base, path.Ext(base))
}
