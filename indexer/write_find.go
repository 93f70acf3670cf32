package indexer

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/source"
)

// found is a note of the repository as a build reads it.
type found struct {
	Path string // slash, relative to the repository
	Src  []byte
	Note note.Note
}

// json reports whether the note is an ai-agents episode file, which
// engram reads but never rewrites.
func (f found) json() bool { return aiagents.IsEpisodeFile(f.Path) }

// place is where a build publishes a note: its folder and slug. Two
// notes at one place refuse the build (SPEC §6), as two of one title do.
func place(n *note.Note) string { return export.Folder(n) + "/" + export.Slug(n.Title) }

// noteIndex finds notes of the repository by title without parsing them
// all (a build's parse stage takes a second at 10,000 notes; a write has
// a tenth of that): each note file's bytes are searched first for what
// any note titled so must hold (mayHold), and only those that may are
// parsed, as the build parses them.
type noteIndex struct {
	root   string
	name   string // the repository as the user gave it, for messages
	parser *parse.Parser
	files  []string
	// lower are the files' bytes with ASCII letters in lower case, and
	// escaped marks the files whose title may not be in them as written
	// (escapes, control characters), read once per write.
	lower   [][]byte
	escaped []bool
	// planned are the notes this write is about to write: they clash
	// with one another as with the repository's.
	planned []found
}

// index lists the note files of the repository as the source stage
// walks it (tracked or not: a note only on disk is one `git add` away
// from the build), with the repository's parser (engram.toml [paths]).
func (t *txn) index() (*noteIndex, error) {
	if t.notes != nil {
		return t.notes, nil
	}
	all, err := source.ListFiles(t.root)
	if err != nil {
		return nil, err
	}
	x := &noteIndex{root: t.root, name: t.opt.Repo, parser: t.parser()}
	for _, p := range all {
		if isNoteFile(p) {
			x.files = append(x.files, p)
		}
	}
	x.lower, x.escaped = make([][]byte, len(x.files)), make([]bool, len(x.files))
	for i, p := range x.files {
		src, err := os.ReadFile(t.abs(p))
		if err == nil && len(src) <= parse.MaxNoteBytes {
			x.lower[i], x.escaped[i] = asciiLower(src), escaped(src)
		}
	}
	t.notes = x
	return x, nil
}

// parser parses as the build of this repository does; a configuration
// that does not load (the build refuses it anyway) gives the defaults.
func (t *txn) parser() *parse.Parser {
	cfg, _ := ReadConfig(t.root)
	return parse.New(parse.Roots{Episodes: cfg.Paths.Episodes, Patterns: cfg.Paths.Patterns})
}

// isNoteFile is a file a build reads as a note (load.go's readFile).
func isNoteFile(p string) bool {
	return strings.EqualFold(path.Ext(p), ".md") || aiagents.IsEpisodeFile(p)
}

// like lists, by path, the notes that may be titled (or have the
// permalink) words, parsed; notes a build could not read are left out.
func (x *noteIndex) like(words string) []found {
	var out []found
	runs := titleRuns(words)
	for i, p := range x.files {
		if x.lower[i] == nil || !x.escaped[i] && !mayHold(x.lower[i], p, runs) {
			continue
		}
		if f, ok := x.read(p); ok {
			out = append(out, f)
		}
	}
	for _, f := range x.planned {
		if mayHold(asciiLower(f.Src), f.Path, runs) {
			out = append(out, f)
		}
	}
	return out
}

// read parses one note file as the build does.
func (x *noteIndex) read(p string) (found, bool) {
	src, err := os.ReadFile(filepath.Join(x.root, filepath.FromSlash(p)))
	if err != nil || len(src) > parse.MaxNoteBytes {
		return found{}, false
	}
	var n note.Note
	if aiagents.IsEpisodeFile(p) {
		n, _, err = aiagents.Decode(p, src)
	} else {
		n, _, err = x.parser.Parse(p, src)
	}
	if err != nil {
		return found{}, false
	}
	return found{Path: p, Src: src, Note: n}, true
}

// clashes are the notes a build would refuse beside n: same lists those
// of n's title (in any case or Unicode normalisation, as the build
// compares titles), place those of another title published at n's place.
// A private note is left out of place (the build drops it first) and
// kept in same: engram never writes a note beside a private one of its
// title, nor over it.
func (x *noteIndex) clashes(n note.Note) (same, other []found) {
	key, at := causal.Key(n.Title), place(&n)
	for _, f := range x.like(n.Title) {
		switch {
		case causal.Key(f.Note.Title) == key:
			same = append(same, f)
		case !f.Note.Private && place(&f.Note) == at:
			other = append(other, f)
		}
	}
	return same, other
}

// find is the note a reader may know as id (a title, else a permalink,
// compared as the build compares them); private notes are absent, as
// everywhere else, and the message for one is the message for no note.
// withJSON admits ai-agents episode files.
func (x *noteIndex) find(id string, withJSON bool) (found, error) {
	key := causal.Key(id)
	var byPermalink []found
	for _, f := range x.like(id) {
		switch {
		case f.Note.Private || f.json() && !withJSON:
		case causal.Key(f.Note.Title) == key:
			return f, nil
		case f.Note.Permalink != "" && causal.Key(strings.Trim(f.Note.Permalink, "/")) == key:
			byPermalink = append(byPermalink, f)
		}
	}
	if len(byPermalink) > 0 {
		return byPermalink[0], nil
	}
	return found{}, fmt.Errorf("no note is titled %q in %s: give the title of an existing note (engram search finds one)", id, x.name)
}

// findNote is the markdown note whose title or permalink is id.
func (t *txn) findNote(id string) (found, error) {
	if strings.TrimSpace(id) == "" || strings.ContainsRune(id, 0) {
		return found{}, fmt.Errorf("no note named: give a note's title")
	}
	x, err := t.index()
	if err != nil {
		return found{}, err
	}
	return x.find(id, false)
}

// titleRuns are the longest run of letters and digits of title, lower
// case, as written and in Unicode normal form C: any note that a build
// would take for one titled so (the same title ignoring case and
// normalisation, or the same slug) holds it, and the longest is the
// rarest. None for a title without letters or digits.
func titleRuns(title string) []string {
	longest := func(s string) string {
		best := ""
		for _, r := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if len(r) > len(best) {
				best = r
			}
		}
		return best
	}
	raw, nfc := longest(strings.ToLower(title)), longest(causal.Key(title))
	switch {
	case raw == "" || nfc == "":
		return nil
	case raw == nfc:
		return []string{raw}
	}
	return []string{raw, nfc}
}

// mayHold reports whether a note file (its bytes, ASCII in lower case,
// and its path) may be one titled with runs: whether it holds each run
// somewhere. A false yes costs a parse; a false no would let a write
// make a duplicate, so escaped files are always parsed (see escaped).
func mayHold(lower []byte, p string, runs []string) bool {
	if len(runs) == 0 {
		return true
	}
	for _, run := range runs {
		if isASCII(run) && (bytes.Contains(lower, []byte(run)) || strings.Contains(strings.ToLower(p), run)) {
			return true
		}
	}
	if isASCII(runs[0]) {
		return false
	}
	// A title beyond ASCII: compare in full lower case, as written and
	// normalised, as causal.Key and export.Slug do.
	for _, src := range [][]byte{lower, []byte(p)} {
		full := bytes.ToLower(src)
		nfc := bytes.ToLower(norm.NFC.Bytes(src))
		for _, run := range runs {
			if bytes.Contains(full, []byte(run)) || bytes.Contains(nfc, []byte(run)) {
				return true
			}
		}
	}
	return false
}

// escaped reports a file whose title may not be written as it reads: a
// backslash (YAML, TOML and JSON escapes), a YAML binary, a control
// character (the parse stage drops them from titles) or the Kelvin sign
// (which lower-cases to an ASCII k).
func escaped(src []byte) bool {
	if bytes.IndexByte(src, '\\') >= 0 || bytes.Contains(src, []byte("!!binary")) || bytes.Contains(src, []byte("\u212a")) {
		return true
	}
	for i, c := range src {
		switch {
		case c < 0x20 && c != '\n' && c != '\r', c == 0x7f:
			return true
		case c == 0xc2 && i+1 < len(src) && src[i+1] >= 0x80 && src[i+1] <= 0x9f:
			return true // C1 control characters
		}
	}
	return false
}

func asciiLower(src []byte) []byte {
	out := make([]byte, len(src))
	for i, c := range src {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
