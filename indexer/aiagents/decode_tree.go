package aiagents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// kind is the JSON type of a value.
type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// withArticle names the kind in a message: "null", "a string", "an array".
func (k kind) withArticle() string {
	switch k {
	case kindNull:
		return "null"
	case kindArray, kindObject:
		return "an " + k.String()
	}
	return "a " + k.String()
}

// value is a JSON value that remembers the byte offset where it starts, so
// that a diagnostic can point at it. encoding/json's own tree (any) forgets
// positions, which is why the file is read token by token instead.
type value struct {
	kind    kind
	off     int
	text    string // a string's contents, or a number's literal
	boolean bool
	elems   []*value
	members []member // in file order, duplicates included
}

// member is one key of an object, with the offset of the key.
type member struct {
	key string
	off int
	val *value
}

// syntaxError is a file that is not valid JSON, at a byte offset.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

// readTree reads src into a tree of positioned values.
//
// The file is first checked whole with json.Unmarshal, for two reasons: a
// Decoder's SyntaxError.Offset counts only the bytes its scanner saw, not
// the delimiters Token consumed, so it is wrong inside a token stream; and
// Unmarshal bounds nesting depth, which bounds the recursion below.
func readTree(src []byte) (*value, error) {
	if len(bytes.TrimLeft(src, " \t\r\n")) == 0 {
		return nil, &syntaxError{0, "file is empty; an episode is a JSON object"}
	}
	var raw json.RawMessage
	if err := json.Unmarshal(src, &raw); err != nil {
		return nil, checkError(src, err)
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	r := &treeReader{src: src, dec: dec}
	return r.value()
}

// checkError positions an error of json.Unmarshal. SyntaxError.Offset
// counts the offending byte itself; at the end of input it is the length,
// which is also the offset of a bad last byte, so the message tells them
// apart.
func checkError(src []byte, err error) error {
	se, ok := err.(*json.SyntaxError)
	if !ok {
		return &syntaxError{0, "not valid JSON: " + err.Error()}
	}
	off := int(se.Offset) - 1
	if strings.HasPrefix(se.Error(), "unexpected end") {
		// Point just after the last thing written, not at the
		// trailing newline's next line.
		off = len(bytes.TrimRight(src, " \t\r\n"))
	}
	return &syntaxError{max(off, 0), "not valid JSON: " + se.Error()}
}

type treeReader struct {
	src []byte
	dec *json.Decoder
}

// next returns the offset of the next token. InputOffset stops after the
// previous token; the separators between are whitespace, ',' and ':'.
func (r *treeReader) next() int {
	off := int(r.dec.InputOffset())
	for off < len(r.src) {
		switch r.src[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

func (r *treeReader) value() (*value, error) {
	v := &value{off: r.next()}
	tok, err := r.dec.Token()
	if err != nil {
		return nil, &syntaxError{v.off, "not valid JSON: " + err.Error()}
	}
	switch t := tok.(type) {
	case nil:
		v.kind = kindNull
	case bool:
		v.kind, v.boolean = kindBool, t
	case json.Number:
		v.kind, v.text = kindNumber, string(t)
	case string:
		v.kind, v.text = kindString, t
	case json.Delim:
		switch t {
		case '[':
			v.kind = kindArray
			err = r.array(v)
		case '{':
			v.kind = kindObject
			err = r.object(v)
		default:
			err = &syntaxError{v.off, fmt.Sprintf("not valid JSON: unexpected %q", rune(t))}
		}
	}
	return v, err
}

func (r *treeReader) array(v *value) error {
	for r.dec.More() {
		e, err := r.value()
		if err != nil {
			return err
		}
		v.elems = append(v.elems, e)
	}
	return r.close(']')
}

func (r *treeReader) object(v *value) error {
	for r.dec.More() {
		off := r.next()
		tok, err := r.dec.Token()
		if err != nil {
			return &syntaxError{off, "not valid JSON: " + err.Error()}
		}
		key, ok := tok.(string)
		if !ok {
			return &syntaxError{off, "not valid JSON: object key is not a string"}
		}
		val, err := r.value()
		if err != nil {
			return err
		}
		v.members = append(v.members, member{key: key, off: off, val: val})
	}
	return r.close('}')
}

func (r *treeReader) close(want json.Delim) error {
	off := r.next()
	tok, err := r.dec.Token()
	if err != nil {
		return &syntaxError{off, "not valid JSON: " + err.Error()}
	}
	if tok != want {
		return &syntaxError{off, fmt.Sprintf("not valid JSON: want %q", rune(want))}
	}
	return nil
}

// lineIndex maps byte offsets to 1-based lines and columns. Columns count
// characters, not bytes, as the parse stage's do.
//
// A minified file is one long line with many diagnostics, so counting the
// characters from the start of the line for each one would be quadratic;
// the index keeps the count at every markEvery bytes instead.
type lineIndex struct {
	src    []byte
	starts []int // offset of the first byte of each line
	marks  []int // marks[k] is the number of characters in src[:k*markEvery]
}

const markEvery = 256

func newLineIndex(src []byte) lineIndex {
	x := lineIndex{src: src, starts: []int{0}, marks: make([]int, 0, len(src)/markEvery+1)}
	n := 0
	for i, c := range src {
		if i%markEvery == 0 {
			x.marks = append(x.marks, n)
		}
		if c == '\n' {
			x.starts = append(x.starts, i+1)
		}
		if isCharStart(c) {
			n++
		}
	}
	x.marks = append(x.marks, n)
	return x
}

// isCharStart reports whether c is not a UTF-8 continuation byte. Counting
// those counts characters, and a count split anywhere adds up.
func isCharStart(c byte) bool { return c&0xC0 != 0x80 }

// chars returns the number of characters in src[:off].
func (x lineIndex) chars(off int) int {
	k := off / markEvery
	n := x.marks[k]
	for _, c := range x.src[k*markEvery : off] {
		if isCharStart(c) {
			n++
		}
	}
	return n
}

// pos returns the line and column of offset off, clamped to the file.
func (x lineIndex) pos(off int) (line, col int) {
	off = min(max(off, 0), len(x.src))
	i := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	return i + 1, x.chars(off) - x.chars(x.starts[i]) + 1
}
