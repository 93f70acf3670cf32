package write

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

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
