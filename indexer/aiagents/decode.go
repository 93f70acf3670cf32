package aiagents

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/note"
)

// Decode reads one episode file. path is the repository-relative path used
// in diagnostics. The error is non-nil only when data is not a JSON object
// at all; the note then has only its Path, and the error's message is the
// diagnostic "path:line:col: error: ... [aiagents-syntax]", which the
// returned diagnostics also hold, so a caller that collects diagnostics
// need not convert the error. Diagnostics are in position order.
func Decode(path string, data []byte) (note.Note, []note.Diagnostic, error) {
	d := newDecoder(path, data)
	root, err := readTree(d.src)
	if err == nil && root.kind != kindObject {
		err = &syntaxError{root.off, "an episode file holds a JSON object, not " + root.kind.withArticle()}
	}
	if err != nil {
		var se *syntaxError
		if !errors.As(err, &se) {
			se = &syntaxError{0, err.Error()}
		}
		d.report(se.off, note.Error, "aiagents-syntax", "%s", se.msg)
		diag := d.diags[len(d.diags)-1]
		return note.Note{Path: path}, d.diags, errors.New(diag.String())
	}
	n := d.episode(root)
	d.flushNulls()
	note.SortDiagnostics(d.diags)
	return n, d.diags, nil
}

// decoder collects the diagnostics of one file.
type decoder struct {
	path  string
	src   []byte
	lines lineIndex
	diags note.Diagnostics
	// nulls counts null arrays per field name, so that a file with a
	// hundred null "options" gets one diagnostic, not a hundred.
	nulls     map[string]*nullField
	nullOrder []string
}

type nullField struct {
	off, n int
}

// bom is the UTF-8 byte order mark that Windows tools (PowerShell 5's
// Out-File) write; encoding/json rejects it.
const bom = "\uFEFF"

func newDecoder(path string, data []byte) *decoder {
	d := &decoder{path: path, src: data, nulls: map[string]*nullField{}}
	hasBOM := strings.HasPrefix(string(data), bom)
	if hasBOM {
		d.src = data[len(bom):]
	}
	d.lines = newLineIndex(d.src)
	if hasBOM {
		d.report(0, note.Info, "aiagents-bom", "file starts with a byte order mark; skipped")
	}
	if !utf8.Valid(d.src) {
		off := firstInvalidUTF8(d.src)
		d.report(off, note.Warning, "aiagents-utf8", "file is not valid UTF-8 here (byte 0x%02x); such bytes read as U+FFFD", d.src[off])
	}
	return d
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return 0
}

// report reports a problem at a byte offset of the file.
func (d *decoder) report(off int, sev note.Severity, rule, format string, args ...any) {
	line, col := d.lines.pos(off)
	d.diags.Report(d.path, line, col, sev, rule, format, args...)
}

// wrongType reports a value of the wrong JSON type, which is then ignored.
func (d *decoder) wrongType(v *value, what, want string) {
	d.report(v.off, note.Warning, "aiagents-type", "%s should be %s, not %s; ignored", what, want, v.kind.withArticle())
}

// null notes a null array; flushNulls reports each field once.
func (d *decoder) null(field string, off int) {
	nf := d.nulls[field]
	if nf == nil {
		nf = &nullField{off: off}
		d.nulls[field] = nf
		d.nullOrder = append(d.nullOrder, field)
	}
	nf.n++
}

func (d *decoder) flushNulls() {
	for _, field := range d.nullOrder {
		nf := d.nulls[field]
		if nf.n == 1 {
			d.report(nf.off, note.Info, "aiagents-null-array", "%s is null; read as an empty list", field)
			continue
		}
		d.report(nf.off, note.Info, "aiagents-null-array", "%s is null in %d places (reported once, here); read as empty lists", field, nf.n)
	}
}

// fields is an object's members by key; a repeated key is reported and
// the last one wins, as in encoding/json.
type fields map[string]*member

func (d *decoder) object(v *value) fields {
	f := make(fields, len(v.members))
	for i := range v.members {
		m := &v.members[i]
		if _, dup := f[m.key]; dup {
			d.report(m.off, note.Warning, "aiagents-duplicate-key", "key %q appears again; this later value is used", m.key)
		}
		f[m.key] = m
	}
	return f
}

// text returns the string at key. missing is true when the key is absent,
// null or blank; a value of another type is reported here and is neither
// text nor missing.
func (d *decoder) text(f fields, key, what string) (s string, v *value, missing bool) {
	m := f[key]
	if m == nil {
		return "", nil, true
	}
	switch m.val.kind {
	case kindNull:
		return "", m.val, true
	case kindString:
		s = strings.TrimSpace(m.val.text)
		return s, m.val, s == ""
	}
	d.wrongType(m.val, what, "a string")
	return "", m.val, false
}

// list returns the elements of the array at key; null reads as empty.
func (d *decoder) list(f fields, key, what string) []*value {
	m := f[key]
	if m == nil {
		return nil
	}
	switch m.val.kind {
	case kindArray:
		return m.val.elems
	case kindNull:
		d.null(key, m.val.off)
		return nil
	}
	d.wrongType(m.val, what, "an array")
	return nil
}

// ref is an id as written in a list of ids, with its offset.
type ref struct {
	id  string
	off int
}

// refs returns the strings of the array at key.
func (d *decoder) refs(f fields, key, what string) []ref {
	var out []ref
	for _, e := range d.list(f, key, what) {
		if e.kind != kindString {
			d.wrongType(e, "an item of "+what, "a string")
			continue
		}
		out = append(out, ref{id: strings.TrimSpace(e.text), off: e.off})
	}
	return out
}
