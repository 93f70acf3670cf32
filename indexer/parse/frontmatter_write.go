package parse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// FrontMatter builds the YAML front matter of a note engram writes (the
// write commands, ai-agents import), its keys in the order added. Every
// value goes through JSON first, so that any Go value becomes maps,
// lists, strings, numbers and bools; strings are tagged !!str, so "no",
// "1.10" or "2026-05-01" stay the text they are, and text with control
// characters is double-quoted, which YAML reads back exactly (yaml.v3's
// own encoding of a tab then a line break does not read back).
type FrontMatter struct{ n yaml.Node }

// NewFrontMatter is an empty front matter.
func NewFrontMatter() *FrontMatter { return &FrontMatter{n: yaml.Node{Kind: yaml.MappingNode}} }

// Add adds key with the value v.
func (m *FrontMatter) Add(key string, v any) {
	var k yaml.Node
	k.SetString(key)
	m.n.Content = append(m.n.Content, &k, yamlNode(plainJSON(v)))
}

// Last is the node of the value added last, for a writer that styles it.
func (m *FrontMatter) Last() *yaml.Node { return m.n.Content[len(m.n.Content)-1] }

// Bytes is the front matter's YAML, without the --- lines.
func (m *FrontMatter) Bytes() []byte {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&m.n); err != nil {
		panic(fmt.Sprintf("encode front matter: %v", err)) // plain values cannot fail
	}
	enc.Close()
	return b.Bytes()
}

// plainJSON turns v into the values encoding/json decodes (maps, slices,
// strings, json.Number, bools, nil).
func plainJSON(v any) any {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v) // only plain values come here
	}
	dec := json.NewDecoder(&buf)
	dec.UseNumber()
	var out any
	_ = dec.Decode(&out)
	return out
}

func yamlNode(v any) *yaml.Node {
	switch x := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Style: quoteStyle(k)}, yamlNode(x[k]))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range x {
			n.Content = append(n.Content, yamlNode(e))
		}
		return n
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: x, Style: quoteStyle(x)}
	case json.Number:
		tag := "!!float"
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			tag = "!!int"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(x)}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

// quoteStyle is double quotes for text with control characters (line
// breaks, tabs), else the encoder's choice.
func quoteStyle(s string) yaml.Style {
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\uFEFF' {
			return yaml.DoubleQuotedStyle
		}
	}
	return 0
}
