package parse

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/engramhq/engram/indexer/note"
)

// TestPatternBadItems: the bad causal and evidence lines of SPEC §2.2 are
// each a warning at the link, and the good lines beside them are kept.
func TestPatternBadItems(t *testing.T) {
	src := strings.Join([]string{
		"---", "title: PATTERN-x", "type: pattern", "---", "",
		"## Causal Relationships", "",
		"- causes [[A]] (weight 0.8)", // 8: good
		"- causes [[B]] (weight 0)",   // 9: outside (0, 1]
		"- enables [[C]] (weight 1.5)",
		"- prevents [[D]] (weight -0.2)",
		"- correlates [[E]] (weight 1)", // 12: good, the bound is inclusive
		"- leads_to [[F]] (context)",    // 13: not causal: a relation
		"- causes [[G]] (seen in review)",
		"", "## Evidence Episodes", "",
		"- [[EP-1]] - success",        // 18
		"- [[EP-2]] - maybe, retried", // 19: bad outcome
		"- [[EP-3]]",                  // 20: no outcome
		"- [[EP-4]] - Partial.",       // 21: case and punctuation
	}, "\n") + "\n"
	n, diags, err := New(Roots{}).Parse("patterns/x.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%d:%d %s %s", d.Line, d.Col, d.Severity, d.Rule))
	}
	want := []string{
		"9:10 warning causal-weight", "10:11 warning causal-weight", "11:12 warning causal-weight",
		"13:12 warning causal-type",
		"19:3 warning evidence-outcome", "20:3 warning evidence-outcome",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics:\n%q\nwant\n%q", got, want)
	}
	var causal []string
	for _, c := range n.Pattern.Causal {
		w := "default"
		if c.Weight != nil {
			w = fmt.Sprint(*c.Weight)
		}
		causal = append(causal, string(c.Type)+" "+c.Target+" "+w)
	}
	wantCausal := []string{"causes A 0.8", "causes B default", "enables C default", "prevents D default", "correlates E 1", "causes G default"}
	if !reflect.DeepEqual(causal, wantCausal) {
		t.Errorf("causal:\n%q\nwant\n%q", causal, wantCausal)
	}
	if want := []note.Relation{{Type: "leads_to", Target: "F", Context: "context", Line: 13, Col: 12}}; !reflect.DeepEqual(n.Relations, want) {
		t.Errorf("relations = %+v, want %+v", n.Relations, want)
	}
	var ev []string
	for _, e := range n.Pattern.Evidence {
		ev = append(ev, e.Target+" "+string(e.Outcome))
	}
	if want := []string{"EP-1 success", "EP-2 ", "EP-3 ", "EP-4 partial"}; !reflect.DeepEqual(ev, want) {
		t.Errorf("evidence = %q, want %q", ev, want)
	}
}
