package aiagents

import (
	"strings"

	"github.com/engramhq/engram/indexer/note"
)

// foldKeys reads a key that a table knows but the file writes in another
// case ("Outcome", "TASK") as the table's key, when the object does not
// give that key itself: encoding/json reads such keys so, and whoever
// wrote "Outcome" meant the outcome. Left unread, the episode lost its
// outcome with no word of why (issue 29). Each such key is a warning
// saying what was done: read, or ignored because the object also gives
// the key as the schema writes it (or another variant later, which is
// read: the last wins, as a repeated key does). The keys it read or
// ignored are returned, so that they are not also unknown keys.
func foldKeys[R, N, F any](d *decoder, v *value, f fields, table []field[R, N, F], what string) map[*member]bool {
	variants := map[string][]*member{} // by the table's key
	var order []string
	for i := range v.members {
		m := &v.members[i]
		if known(table, m.key) {
			continue
		}
		for _, row := range table {
			if strings.EqualFold(row.key, m.key) {
				if variants[row.key] == nil {
					order = append(order, row.key)
				}
				variants[row.key] = append(variants[row.key], m)
				break
			}
		}
	}
	folded := map[*member]bool{}
	for _, key := range order {
		ms := variants[key]
		for i, m := range ms {
			folded[m] = true
			switch {
			case f[key] != nil:
				d.report(m.off, note.Warning, "aiagents-key-case", "%s key %q is %q in another case, which the %s also gives; %q is ignored", what, m.key, key, what, m.key)
			case i < len(ms)-1:
				d.report(m.off, note.Warning, "aiagents-key-case", "%s key %q is %q in another case, as is the later %q, which is read; %q is ignored", what, m.key, key, ms[len(ms)-1].key, m.key)
			default:
				d.report(m.off, note.Warning, "aiagents-key-case", "%s key %q is read as %q: the schema's keys are lower case; write %q", what, m.key, key, key)
			}
		}
		if f[key] == nil {
			f[key] = ms[len(ms)-1]
		}
	}
	return folded
}
