package note

import (
	"fmt"
	"sort"
)

// Severity orders diagnostics: an Error fails a --strict build.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	default:
		return "error"
	}
}

// MarshalText makes a Severity print as its name in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is one problem found in a user's input, positioned in the file
// it came from. Line and Col are 1-based and absolute in the file; 0 means
// the position is unknown (the whole file).
type Diagnostic struct {
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Rule     string   `json:"rule"`
}

// String renders the diagnostic as path:line:col: severity: message [rule].
func (d Diagnostic) String() string {
	line, col := d.Line, d.Col
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 1
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", d.Path, line, col, d.Severity, d.Message, d.Rule)
}

// SortDiagnostics orders diagnostics by path, position, rule and message, so
// that output never depends on the order in which stages ran.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}

// CountErrors returns how many diagnostics are errors.
func CountErrors(ds []Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Severity == Error {
			n++
		}
	}
	return n
}

// Diagnostics collects the diagnostics a stage finds, across files, in
// the order it finds them. The zero value is empty and ready; being a
// slice, it is returned wherever []Diagnostic is.
type Diagnostics []Diagnostic

// Report adds a problem in path at line:col (1-based; 0 when the file as
// a whole is meant), its message made by fmt.Sprintf(format, args...).
func (ds *Diagnostics) Report(path string, line, col int, sev Severity, rule, format string, args ...any) {
	*ds = append(*ds, Diagnostic{Path: path, Line: line, Col: col, Severity: sev, Rule: rule, Message: fmt.Sprintf(format, args...)})
}
