package gen

import (
	"reflect"
	"strings"
	"testing"
)

func TestBadNoteLines(t *testing.T) {
	check := map[Badness]func(lines []string, line int) bool{
		BrokenYAML: func(lines []string, line int) bool {
			l := lines[line-1]
			return strings.HasPrefix(l, "tags: [") && !strings.Contains(l, "]") && lines[line] == "---"
		},
		MissingOutcome: func(lines []string, line int) bool {
			fm := lines[1:index(lines[1:], "---")]
			return line == 1 && lines[0] == "---" && !strings.Contains(strings.Join(fm, "\n"), "outcome:")
		},
		InvalidDate: func(lines []string, line int) bool {
			v, ok := strings.CutPrefix(lines[line-1], "date: ")
			return ok && parseDate(v).IsZero()
		},
		UnclosedFrontMatter: func(lines []string, line int) bool {
			return line == 1 && lines[0] == "---" && index(lines[1:], "---") < 0
		},
		ListFrontMatter: func(lines []string, line int) bool {
			return line == 2 && lines[0] == "---" && strings.HasPrefix(lines[1], "- title: ")
		},
	}
	for _, tc := range corpora {
		t.Run(tc.name, func(t *testing.T) {
			c := Generate(tc.o)
			fsys := c.FS()
			for _, n := range c.Bad() {
				lines := strings.Split(string(fsys[n.Path].Data), "\n")
				if n.Line < 1 || n.Line > len(lines) || !check[n.Bad](lines, n.Line) {
					t.Errorf("%s (%s): line %d does not point at the problem:\n%s", n.Path, n.Bad, n.Line, fsys[n.Path].Data)
				}
			}
		})
	}
}

func TestBadKinds(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		want []Badness
	}{
		{"zero value", Options{}, []Badness{BrokenYAML, MissingOutcome, InvalidDate}},
		{"cycle", Options{Episodes: 5, BadNotes: 7}, append(AllBadness(), BrokenYAML, MissingOutcome)},
		{"chosen", Options{Episodes: 5, BadNotes: 3, BadKinds: []Badness{ListFrontMatter}},
			[]Badness{ListFrontMatter, ListFrontMatter, ListFrontMatter}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []Badness
			for _, n := range Generate(tc.o).Bad() {
				got = append(got, n.Bad)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("kinds %v, want %v", got, tc.want)
			}
		})
	}
}
