package indexer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// yamlMap builds front matter with its keys in the order added.
type yamlMap struct{ n yaml.Node }

func newYAMLMap() *yamlMap { return &yamlMap{n: yaml.Node{Kind: yaml.MappingNode}} }

func (m *yamlMap) add(key string, v any) {
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}
	m.n.Content = append(m.n.Content, k, yamlValue(v))
}

func (m *yamlMap) addIf(key string, v any, ok bool) {
	if ok {
		m.add(key, v)
	}
}

func (m *yamlMap) bytes() []byte {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	_ = enc.Encode(&m.n) // a node of plain values always encodes
	_ = enc.Close()
	return b.Bytes()
}

// yamlValue is the node of a plain value, going through JSON so that
// every Go value becomes maps, lists, strings, numbers and bools. Strings
// are tagged !!str so that "no", "1.10" or "2026-05-01" stay the text
// they are.
func yamlValue(v any) *yaml.Node {
	data, _ := json.Marshal(v)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var plain any
	_ = dec.Decode(&plain)
	return yamlNode(plain)
}

func yamlNode(v any) *yaml.Node {
	switch x := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for _, k := range sortedKeys(x) {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, yamlNode(x[k]))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range x {
			n.Content = append(n.Content, yamlNode(e))
		}
		return n
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: x}
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// oneLine puts text on one line: a list item or a decision field is one
// line of markdown.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// blockStartRE matches text that would not be a paragraph at the start
// of a list item (a heading, quote, list, rule, fence or HTML).
var blockStartRE = regexp.MustCompile("^(?:[#>+*_=`~<|-]|[0-9]{1,9}[.)](?:\\s|$))")

// itemText is text as one list item: on one line, and escaped where it
// would start another block.
func itemText(s string) string {
	s = oneLine(s)
	if blockStartRE.MatchString(s) {
		return `\` + s
	}
	return s
}

var eventTypeWordRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// eventTypeWord reports whether s is one word, as an event type or a
// decision id must be.
func eventTypeWord(s string) bool { return eventTypeWordRE.MatchString(s) }

// jsonLine is v as one compact JSON line.
func jsonLine(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return append(data, '\n'), nil
}
