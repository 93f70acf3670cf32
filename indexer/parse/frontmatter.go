package parse

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
)

// Caps from SPEC §6, checked before any parser sees the text.
const (
	MaxNoteBytes        = 1 << 20
	MaxFrontMatterBytes = 64 << 10
	MaxDepth            = 32
)

// frontMatter is the decoded front matter of a note: values plus the line
// of each top-level key, so that field diagnostics point at the key.
type frontMatter struct {
	values map[string]any
	lines  map[string]int
	// start is the line of the opening delimiter; bodyLine the first line
	// after the closing one.
	start int
	// text holds the source text of each top-level scalar, and of each
	// scalar of a top-level list (one entry per element): a string field
	// keeps "0777" and "1.10" as written, not as the numbers they decode to.
	text map[string][]string
	// dups are the top-level keys that appear more than once.
	dups []string
}

// fmError is a problem in the front matter at an absolute line.
type fmError struct {
	line, col int
	msg       string
	rule      string
}

// decodeFrontMatter decodes front matter by its format.
func decodeFrontMatter(blk fmBlock) (frontMatter, []fmError) {
	switch blk.format {
	case "toml":
		return decodeTOML(blk)
	case "json":
		return decodeJSON(blk)
	}
	return decodeYAML(blk)
}

var yamlLineRE = regexp.MustCompile(`line (\d+)(?::|,)?\s*(?:column (\d+))?`)

// decodeYAML decodes YAML front matter into plain Go values, refusing
// aliases and nesting deeper than MaxDepth, and reporting duplicate keys.
func decodeYAML(blk fmBlock) (frontMatter, []fmError) {
	fm := frontMatter{values: map[string]any{}, lines: map[string]int{}, start: blk.firstRow - 1}
	if d := flowDepth(blk.text); d > MaxDepth {
		return fm, []fmError{{line: blk.firstRow, msg: fmt.Sprintf("front matter nests %d levels deep, over the limit of %d", d, MaxDepth), rule: "frontmatter-depth"}}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(blk.text, &doc); err != nil {
		return fm, []fmError{yamlError(err, newYAMLLines(blk.text, blk.firstRow))}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return fm, nil // empty front matter
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
			return fm, nil
		}
		return fm, []fmError{{line: newYAMLLines(blk.text, blk.firstRow).line(root.Line), col: root.Column, msg: "front matter must be a mapping of keys to values, not a " + nodeKindName(root), rule: "frontmatter-shape"}}
	}
	d := yamlDecoder{lines: newYAMLLines(blk.text, blk.firstRow)}
	// The root mapping is depth 0, as in decodeTOML and flowDepth: a
	// top-level "key: value" is one level deep.
	fm.values, fm.lines = d.mapping(root, 0)
	fm.text, fm.dups = yamlTexts(root)
	return fm, d.errs
}

// yamlTexts returns the source text of the top-level scalars, and of the
// scalars of top-level lists, of the first of each key; and the keys that
// appear again.
func yamlTexts(root *yaml.Node) (map[string][]string, []string) {
	text := map[string][]string{}
	var dups []string
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		if _, dup := text[k.Value]; dup {
			dups = append(dups, k.Value)
			continue
		}
		text[k.Value] = nil
		switch v.Kind {
		case yaml.ScalarNode:
			text[k.Value] = []string{v.Value}
		case yaml.SequenceNode:
			t := make([]string, len(v.Content))
			for j, e := range v.Content {
				if e.Kind == yaml.ScalarNode {
					t[j] = e.Value
				}
			}
			text[k.Value] = t
		}
	}
	return text, dups
}

func nodeKindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "scalar"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}

// yamlError turns a yaml.v3 error into a positioned problem. yaml.v3 counts
// lines from the start of the front matter text; we add the offset.
func yamlError(err error, lines yamlLines) fmError {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	e := fmError{line: lines.first, msg: "invalid YAML front matter: " + msg, rule: "frontmatter-yaml"}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		if isParserError(msg) {
			n++ // yaml.v3 numbers parser errors from 0, scanner errors from 1
		}
		e.line = lines.line(n)
		if m[2] != "" {
			e.col, _ = strconv.Atoi(m[2])
		}
		e.msg = "invalid YAML front matter: " + strings.TrimSpace(yamlLineRE.ReplaceAllString(msg, ""))
		e.msg = strings.TrimSuffix(strings.TrimSpace(e.msg), ":")
	}
	return e
}

// isParserError tells yaml.v3's parser errors (parserc.go), whose line is
// 0-based, from its scanner errors, whose line is 1-based. The problems are
// listed in full: scanner errors also start "did not find expected" (e.g.
// "did not find expected comment or line break").
func isParserError(msg string) bool {
	for _, p := range []string{
		"did not find expected key", "did not find expected node content",
		"did not find expected ',' or ']'", "did not find expected ',' or '}'",
		"did not find expected '-' indicator", "did not find expected <document start>",
		"did not find expected <stream-start>", "found undefined tag handle",
		"found duplicate %YAML directive", "found duplicate %TAG directive",
		"found incompatible YAML document",
	} {
		if strings.HasSuffix(msg, p) {
			return true
		}
	}
	return false
}

type yamlDecoder struct {
	lines yamlLines
	errs  []fmError
}

func (d *yamlDecoder) fail(n *yaml.Node, rule, format string, args ...any) {
	d.errs = append(d.errs, fmError{line: d.lines.line(n.Line), col: n.Column, msg: fmt.Sprintf(format, args...), rule: rule})
}

func (d *yamlDecoder) mapping(n *yaml.Node, depth int) (map[string]any, map[string]int) {
	out := map[string]any{}
	lines := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.fail(k, "frontmatter-key", "front matter keys must be plain strings")
			continue
		}
		if prev, dup := lines[k.Value]; dup {
			d.fail(k, "frontmatter-duplicate-key", "duplicate key %q (first defined on line %d); the first value is kept", k.Value, prev)
			continue
		}
		lines[k.Value] = d.lines.line(k.Line)
		out[k.Value] = d.value(v, depth+1)
	}
	return out, lines
}

func (d *yamlDecoder) value(n *yaml.Node, depth int) any {
	if depth > MaxDepth {
		d.fail(n, "frontmatter-depth", "front matter nests deeper than %d levels; the deeper part is dropped", MaxDepth)
		return nil
	}
	switch n.Kind {
	case yaml.AliasNode:
		d.fail(n, "frontmatter-alias", "YAML aliases are not allowed in front matter; the value is dropped")
		return nil
	case yaml.MappingNode:
		m, _ := d.mapping(n, depth)
		return m
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, d.value(c, depth+1))
		}
		return out
	}
	return scalar(n)
}

// scalar keeps the text of a scalar except for the types front matter needs
// as values: numbers, booleans and null. Dates stay strings, and so does
// "no" (YAML 1.2: it is not a boolean).
func scalar(n *yaml.Node) any {
	switch n.Tag {
	case "!!null":
		return nil
	case "!!bool":
		b, err := strconv.ParseBool(n.Value)
		if err == nil {
			return b
		}
	case "!!int":
		if i, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
			return i
		}
	case "!!float":
		// NaN and infinities stay text: JSON cannot hold them; so does a
		// whole number beyond int64 that a float cannot hold exactly.
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) && inexact(n.Value) == "" {
			return f
		}
	}
	return n.Value
}

// flowDepth estimates how deeply a YAML text nests, from indentation and
// flow brackets, without parsing it: deep nesting is refused before any
// parser sees it.
func flowDepth(text []byte) int {
	maxDepth, flow := 0, 0
	var indents []int
	for _, line := range bytes.Split(text, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		indent := len(line) - len(trimmed)
		for len(indents) > 0 && indents[len(indents)-1] >= indent {
			indents = indents[:len(indents)-1]
		}
		indents = append(indents, indent)
		for _, c := range trimmed {
			switch c {
			case '[', '{':
				flow++
			case ']', '}':
				flow--
			}
			if flow+len(indents) > maxDepth {
				maxDepth = flow + len(indents)
			}
		}
	}
	return maxDepth
}

var tomlKeyRE = regexp.MustCompile(`^\s*("?)([A-Za-z0-9_-]+)("?)\s*=`)

// decodeTOML decodes TOML front matter. TOML itself refuses duplicate keys.
func decodeTOML(blk fmBlock) (frontMatter, []fmError) {
	fm := frontMatter{values: map[string]any{}, lines: map[string]int{}, start: blk.firstRow - 1, text: map[string][]string{}}
	if d := flowDepth(blk.text); d > MaxDepth {
		return fm, []fmError{{line: blk.firstRow, msg: fmt.Sprintf("front matter nests %d levels deep, over the limit of %d", d, MaxDepth), rule: "frontmatter-depth"}}
	}
	var values map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader(blk.text)).Decode(&values); err != nil {
		e := fmError{line: blk.firstRow, msg: "invalid TOML front matter: " + err.Error(), rule: "frontmatter-toml"}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			e.line = blk.firstRow - 1 + pe.Position.Line
			e.col = pe.Position.Col
			e.msg = "invalid TOML front matter: " + pe.Message
		}
		return fm, []fmError{e}
	}
	for i, l := range strings.Split(string(blk.text), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "[") {
			break // keys below a table header belong to the table
		}
		if m := tomlKeyRE.FindStringSubmatch(l); m != nil {
			if _, seen := fm.lines[m[2]]; !seen {
				fm.lines[m[2]] = blk.firstRow + i
				if t := tomlText(l[len(m[0]):]); t != nil {
					fm.text[m[2]] = t
				}
			}
		}
	}
	cut := false
	for k, v := range values {
		values[k] = normalizeTOML(v, 1, &cut)
	}
	fm.values = values
	if cut {
		return fm, []fmError{{line: blk.firstRow, msg: fmt.Sprintf("front matter nests deeper than %d levels; the deeper part is dropped", MaxDepth), rule: "frontmatter-depth"}}
	}
	return fm, nil
}

var tomlBareRE = regexp.MustCompile(`^[-+]?[0-9A-Za-z_.:+-]+$`)

// tomlText is the source text of a TOML value written on one line after
// its key: a bare scalar (a number, a boolean), or a one-line list of
// them. BurntSushi/toml keeps no source text; for any other value, nil:
// a string field then shows the decoded value (1.10 as 1.1).
func tomlText(v string) []string {
	v = strings.TrimSpace(v)
	if i := strings.IndexByte(v, '#'); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	if tomlBareRE.MatchString(v) {
		return []string{v}
	}
	inner, open := strings.CutPrefix(v, "[")
	inner, closed := strings.CutSuffix(inner, "]")
	if !open || !closed {
		return nil
	}
	inner = strings.TrimSuffix(strings.TrimSpace(inner), ",")
	var out []string
	for _, e := range strings.Split(inner, ",") {
		if e = strings.TrimSpace(e); !tomlBareRE.MatchString(e) {
			return nil
		}
		out = append(out, e)
	}
	return out
}

// normalizeTOML turns TOML dates into strings (as YAML front matter keeps
// them) and cuts nesting deeper than MaxDepth, which TOML's dotted table
// headers can reach without brackets.
func normalizeTOML(v any, depth int, cut *bool) any {
	if depth > MaxDepth {
		*cut = true
		return nil
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeTOML(e, depth+1, cut)
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeTOML(e, depth+1, cut)
		}
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalizeTOML(e, depth+1, cut)
		}
		return out
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64) // JSON cannot hold them
		}
	default:
		if t, ok := tomlLocal(v); ok {
			return t.Format(time.RFC3339Nano)
		}
	}
	return v
}
