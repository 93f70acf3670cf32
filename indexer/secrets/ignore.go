package secrets

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/engramhq/engram/indexer/note"
)

// parseIgnore reads IgnoreFile as gitleaks does (AddGitleaksIgnore): blank
// lines and # comments are skipped, backslashes in a path become slashes.
// A global fingerprint path:rule:line allows that finding. A commit
// fingerprint commit:path:rule:line, which gitleaks writes when it scans
// history, allows nothing here (a build scans one tree, not commits) and is
// reported, as is a line that is neither.
func parseIgnore(data []byte) (map[string]bool, []note.Diagnostic) {
	set := map[string]bool{}
	var diags []note.Diagnostic
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, ":")
		switch len(parts) {
		case 3:
			parts[0] = strings.ReplaceAll(parts[0], `\`, "/")
			set[strings.Join(parts, ":")] = true
		case 4:
			diags = append(diags, ignoreDiag(n, "a commit fingerprint (commit:path:rule:line) allows nothing in a build, which scans one tree; write path:rule:line"))
		default:
			diags = append(diags, ignoreDiag(n, "not a fingerprint (path:rule:line); ignored"))
		}
	}
	return set, diags
}

func ignoreDiag(line int, msg string) note.Diagnostic {
	return note.Diagnostic{Path: IgnoreFile, Line: line, Col: 1, Severity: note.Warning, Rule: "gitleaksignore", Message: msg}
}
