package write

import (
	"encoding/json"
	"fmt"
	"strings"
)

// oneLine puts text on one line: a list item or a decision field is one
// line of markdown.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// jsonLine is v as one compact JSON line.
func jsonLine(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return append(data, '\n'), nil
}
