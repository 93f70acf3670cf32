package events

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/engramhq/engram/indexer/note"
)

// KeyProblem is a key of a JSON line that its reader must report,
// because encoding/json would read it without a word: a repeat of an
// earlier key of the same object, whose value silently replaces the
// first ({"kind":"echo","kind":"fizzle"}); or, at the top level, a
// field's name in another case ("Kind"), which encoding/json matches to
// the field. At the top level, which encoding/json decodes into a
// struct, a key is one of the reader's fields in any case, and a repeat
// of one matters; other keys are not read. Deeper, objects are maps
// (an event's data, published as written): the same key repeated.
type KeyProblem struct {
	Key string // as written
	// Same is the key it repeats (Repeat), or the field's name it is
	// read as (not Repeat).
	Same   string
	Repeat bool
	// Col is the 1-based column of the key's opening quote in the line,
	// in characters; FirstCol the repeated key's (Repeat only).
	Col, FirstCol int
}

// LineKeys checks the keys of a line holding one valid JSON object;
// fields are the names its reader decodes at the top level. Problems are
// in the order of the line.
func LineKeys(line []byte, fields []string) []KeyProblem {
	k := keyWalker{line: line, dec: json.NewDecoder(bytes.NewReader(line)), fields: fields}
	k.walk()
	return k.problems
}

// keyWalker reads a line token by token, tracking the keys of each
// object open at the current position.
type keyWalker struct {
	line     []byte
	dec      *json.Decoder
	fields   []string
	problems []KeyProblem
}

// frame is an open object or array; an object's keys (at the top level,
// the fields they are read as) with their offsets.
type frame struct {
	object  bool
	wantKey bool
	keys    map[string]int
}

func (k *keyWalker) walk() {
	var stack []*frame
	for {
		off := k.next()
		tok, err := k.dec.Token()
		if err != nil {
			return // the end, or what json.Valid would have refused
		}
		top := len(stack) == 1
		var f *frame
		if len(stack) > 0 {
			f = stack[len(stack)-1]
		}
		if key, ok := tok.(string); ok && f != nil && f.object && f.wantKey {
			k.key(f, key, off, top)
			f.wantKey = false
			continue
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, &frame{object: tok == json.Delim('{'), wantKey: true, keys: map[string]int{}})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				f = stack[len(stack)-1]
			}
		}
		if f != nil && f.object {
			f.wantKey = true // a value ended: a key comes next
		}
	}
}

// key notes an object's key: a repeat, or a field's name in another case.
func (k *keyWalker) key(f *frame, key string, off int, top bool) {
	form := key
	if top {
		i := slices.IndexFunc(k.fields, func(field string) bool { return strings.EqualFold(field, key) })
		if i < 0 {
			return // not read
		}
		form = k.fields[i]
	}
	if first, dup := f.keys[form]; dup {
		k.problems = append(k.problems, KeyProblem{Key: key, Same: k.keyAt(first), Repeat: true, Col: k.col(off), FirstCol: k.col(first)})
		return
	}
	f.keys[form] = off
	if form != key {
		k.problems = append(k.problems, KeyProblem{Key: key, Same: form, Col: k.col(off)})
	}
}

// next is the offset of the next token: InputOffset stops after the one
// before, and whitespace, ',' and ':' lie between.
func (k *keyWalker) next() int {
	off := int(k.dec.InputOffset())
	for off < len(k.line) && strings.IndexByte(" \t\r\n,:", k.line[off]) >= 0 {
		off++
	}
	return off
}

// keyAt is the key whose opening quote is at off, as decoded.
func (k *keyWalker) keyAt(off int) string {
	var s string
	json.NewDecoder(bytes.NewReader(k.line[off:])).Decode(&s)
	return s
}

func (k *keyWalker) col(off int) int { return utf8.RuneCount(k.line[:off]) + 1 }

// FieldNames are the JSON names of a struct's fields, as their tags give
// them: the fields LineKeys compares a line's keys with.
func FieldNames(v any) []string {
	t := reflect.TypeOf(v)
	var out []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// ReportKeys reports the key problems of a JSON line (LineKeys) under
// the rules <prefix>-duplicate-key and <prefix>-key-case, and says
// whether the line may be read: a line that repeats a key is skipped,
// since which value was meant is unclear (SPEC §2.5: a bad line is a
// diagnostic, the other lines are kept); a key in another case is read
// as its field, as encoding/json reads it, and said so.
func ReportKeys(d *note.Diagnostics, path string, line int, text []byte, fields []string, prefix string) bool {
	problems := LineKeys(text, fields)
	repeats := slices.ContainsFunc(problems, func(k KeyProblem) bool { return k.Repeat })
	for _, k := range problems {
		switch {
		case k.Repeat:
			d.Report(path, line, k.Col, note.Warning, prefix+"-duplicate-key", "key %q repeats %q (column %d); which value was meant is unclear; line skipped", k.Key, k.Same, k.FirstCol)
		case !repeats: // a skipped line's keys are not read
			d.Report(path, line, k.Col, note.Warning, prefix+"-key-case", "key %q is read as %q; write %q", k.Key, k.Same, k.Same)
		}
	}
	return !repeats
}
