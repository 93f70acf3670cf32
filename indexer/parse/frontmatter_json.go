package parse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// JSON front matter is one object, as Hugo reads it. It is decoded token
// by token, so that each key has its line, a key written twice is
// reported (encoding/json would keep the last one silently; the first is
// kept, as in YAML), and nesting deeper than MaxDepth is refused before
// it is built. Values become what YAML's do: maps, lists, strings,
// booleans, nil, int64 for whole numbers and float64 for the others; a
// whole number beyond int64 stays its text.

type jsonDecoder struct {
	dec  *json.Decoder
	text []byte
	pos  *body // maps an offset of text to its line and column in the file
	errs []fmError
}

// errJSONDepth stops the decoder where the nesting passes MaxDepth.
var errJSONDepth = errors.New("front matter nests too deep")

// jsonTrailing is text after the object's closing "}", at offset off.
type jsonTrailing struct{ off int64 }

func (e jsonTrailing) Error() string { return "text after the object's closing }" }

func decodeJSON(blk fmBlock) (frontMatter, []fmError) {
	fm := frontMatter{values: map[string]any{}, lines: map[string]int{}, start: blk.openLine, text: map[string][]string{}}
	d := &jsonDecoder{dec: json.NewDecoder(bytes.NewReader(blk.text)), text: blk.text, pos: newBody(blk.text, blk.firstRow)}
	d.dec.UseNumber()
	if tok, err := d.dec.Token(); err != nil || tok != json.Delim('{') { // the "{" the block starts with
		if err == nil {
			err = &json.SyntaxError{Offset: 1}
		}
		return fm, []fmError{d.fail(err)}
	}
	values, lines, err := d.object(0, &fm)
	if err == nil {
		err = d.end()
	}
	if err != nil {
		return frontMatter{values: map[string]any{}, lines: map[string]int{}, start: blk.openLine}, []fmError{d.fail(err)}
	}
	fm.values, fm.lines = values, lines
	return fm, d.errs
}

// end reads the "}" that closes the front matter, and checks that nothing
// follows it.
func (d *jsonDecoder) end() error {
	if _, err := d.dec.Token(); err != nil {
		return err
	}
	if rest := bytes.TrimSpace(d.text[d.dec.InputOffset():]); len(rest) > 0 {
		return jsonTrailing{off: d.dec.InputOffset() + 1}
	}
	return nil
}

// fail turns a decoding error into a positioned problem.
func (d *jsonDecoder) fail(err error) fmError {
	off, msg := len(d.text), err.Error()
	var se *json.SyntaxError
	var tr jsonTrailing
	switch {
	case errors.As(err, &tr):
		off = int(tr.off)
	case errors.As(err, &se):
		off = int(se.Offset)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		msg = "the object ends too soon"
	case errors.Is(err, errJSONDepth):
		off = int(d.dec.InputOffset())
		line, col := d.pos.pos(min(off, len(d.text)))
		return fmError{line: line, col: col, rule: "frontmatter-depth", msg: fmt.Sprintf("front matter nests deeper than %d levels", MaxDepth)}
	}
	line, col := d.pos.pos(min(max(off-1, 0), len(d.text)))
	return fmError{line: line, col: col, rule: "frontmatter-json", msg: "invalid JSON front matter: " + msg}
}

// object reads the members of an object whose "{" was read, up to its
// "}" (not read). The values of the top-level object (depth 0) keep
// their source text in fm.
func (d *jsonDecoder) object(depth int, fm *frontMatter) (map[string]any, map[string]int, error) {
	out, lines := map[string]any{}, map[string]int{}
	for d.dec.More() {
		at := int(d.dec.InputOffset())
		at += len(d.text[at:]) - len(bytes.TrimLeft(d.text[at:], " \t\r\n,"))
		tok, err := d.dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, _ := tok.(string)
		v, text, err := d.value(depth + 1)
		if err != nil {
			return nil, nil, err
		}
		line, col := d.pos.pos(at)
		if first, dup := lines[key]; dup {
			d.errs = append(d.errs, fmError{line: line, col: col, rule: "frontmatter-duplicate-key",
				msg: fmt.Sprintf("duplicate key %q (first defined on line %d); the first value is kept", key, first)})
			if depth == 0 {
				fm.dups = append(fm.dups, key)
			}
			continue
		}
		out[key], lines[key] = v, line
		if depth == 0 && text != nil {
			fm.text[key] = text
		}
	}
	return out, lines, nil
}

// value reads one value at depth (a top-level key's is 1). text is the
// source text of a scalar, or of each scalar of a list, else nil.
func (d *jsonDecoder) value(depth int) (v any, text []string, err error) {
	if depth > MaxDepth {
		return nil, nil, errJSONDepth
	}
	tok, err := d.dec.Token()
	if err != nil {
		return nil, nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			v, _, err = d.object(depth, nil)
		} else {
			v, text, err = d.list(depth)
		}
		if err == nil {
			_, err = d.dec.Token() // the closing delimiter
		}
		return v, text, err
	case json.Number:
		return jsonNumber(t), []string{t.String()}, nil
	case bool:
		return t, []string{strconv.FormatBool(t)}, nil
	}
	return tok, []string{""}, nil
}

// list reads the elements of a list whose "[" was read.
func (d *jsonDecoder) list(depth int) ([]any, []string, error) {
	out, text := []any{}, []string{}
	for d.dec.More() {
		v, t, err := d.value(depth + 1)
		if err != nil {
			return nil, nil, err
		}
		s := ""
		if _, scalar := v.([]any); !scalar && len(t) == 1 {
			s = t[0]
		}
		out, text = append(out, v), append(text, s)
	}
	return out, text, nil
}

// jsonNumber is a whole number as int64 and any other as float64, as YAML
// front matter gives them; a number neither can hold stays its text.
func jsonNumber(n json.Number) any {
	s := n.String()
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i
		}
		return s
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return s
}
