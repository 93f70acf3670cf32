package aiagents

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// importGraph converts the pattern rows of one causal-graph.json into
// pattern notes. outcomes gives the imported episodes' outcomes by
// lower-cased id, for evidence the row gives no contribution for.
func importGraph(p *parse.Parser, fsys fs.FS, f string, outcomes map[string]string, names map[string]bool) ([]File, int, []note.Diagnostic) {
	data, err := fs.ReadFile(fsys, f)
	if err != nil {
		return nil, 1, []note.Diagnostic{fileDiag(f, note.Error, "read", err.Error())}
	}
	g, diags, err := DecodeGraph(f, data)
	if err != nil {
		return nil, 1, diags
	}
	var files []File
	skipped := 0
	for _, row := range g.Patterns {
		pc := &patternConversion{row: row, title: UniqueName(names, patternTitle(row))}
		diags = append(diags, pc.readEvidence(f, outcomes)...)
		md, err := pc.markdown(p, f)
		if err != nil {
			diags = append(diags, diagOf(err))
			skipped++
			continue
		}
		files = append(files, File{Path: "patterns/" + pc.title + ".md", Data: md, From: f})
	}
	return files, skipped, diags
}

// patternTitle is PATTERN-<name>, the name in lower case with dashes; a
// name that is already an engram title (PATTERN-x, ANTIPATTERN-x, as
// engram export writes them) is kept.
func patternTitle(row GraphPattern) string {
	name := row.Name
	if name == "" {
		name = row.ID
	}
	upper := strings.ToUpper(name)
	if (strings.HasPrefix(upper, "PATTERN-") || strings.HasPrefix(upper, "ANTIPATTERN-")) && safeName(name, 120) == name {
		return name
	}
	return "PATTERN-" + strings.ToLower(safeName(name, 60))
}

// patternConversion is one pattern row on its way to markdown.
type patternConversion struct {
	row      GraphPattern
	title    string
	evidence []evidenceLine
	side     patternSidecar
}

type evidenceLine struct {
	episode string
	outcome note.Outcome
}

// readEvidence lists the row's episodes as evidence lines, each with the
// outcome its contribution is nearest (1 success, 0.5 partial, 0
// failure), else the episode's own outcome, else the one the row's
// success rate is nearest. A contribution between those goes to the
// sidecar.
func (pc *patternConversion) readEvidence(f string, outcomes map[string]string) []note.Diagnostic {
	var diags []note.Diagnostic
	seen := map[string]bool{}
	for _, ep := range pc.row.Episodes {
		switch {
		case ep == "" || strings.ContainsAny(ep, "[]|#\r\n"):
			diags = append(diags, fileDiag(f, note.Warning, "aiagents-import", fmt.Sprintf("pattern %q: episode id %q cannot be a wikilink; left out of its evidence", pc.row.Name, ep)))
			continue
		case seen[strings.ToLower(ep)]:
			continue
		}
		seen[strings.ToLower(ep)] = true
		outcome := note.Success
		if c, ok := pc.row.Contributions[ep]; ok {
			outcome = nearestOutcome(c)
			if c != outcomeValue(outcome) {
				if pc.side.Contributions == nil {
					pc.side.Contributions = map[string]float64{}
				}
				pc.side.Contributions[ep] = c
			}
		} else if o, ok := outcomes[strings.ToLower(ep)]; ok {
			outcome = note.Outcome(o)
		} else if r := pc.row.SuccessRate; r != nil {
			outcome = nearestOutcome(*r)
		}
		pc.evidence = append(pc.evidence, evidenceLine{ep, outcome})
	}
	return diags
}

// markdown renders the pattern note and checks that it parses; the
// description goes to the sidecar when "## Context" does not read back
// as it.
func (pc *patternConversion) markdown(p *parse.Parser, from string) ([]byte, error) {
	pc.side.ID, pc.side.Name, pc.side.Created = pc.row.ID, pc.row.Name, pc.row.Created
	if pc.row.LastUsed != "" {
		if _, err := parse.ParseTime(pc.row.LastUsed); err != nil {
			pc.side.LastUsed = pc.row.LastUsed
		}
	}
	notePath := "patterns/" + pc.title + ".md"
	n, err := parseBack(p, from, notePath, pc.render())
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(n.SectionText("Context")) != pc.row.Description {
		desc := pc.row.Description
		pc.side.Description = &desc
		if _, err := parseBack(p, from, notePath, pc.render()); err != nil {
			return nil, err
		}
	}
	return pc.render(), nil
}

func (pc *patternConversion) render() []byte {
	row := pc.row
	p := &note.Pattern{Trigger: row.Trigger, Action: row.Action, DeclaredRate: row.SuccessRate, DeclaredOccurrences: row.Occurrences}
	for _, ev := range pc.evidence {
		p.Evidence = append(p.Evidence, note.Evidence{Target: ev.episode, Outcome: note.Outcome(string(ev.outcome))})
	}
	n := note.Note{Kind: note.KindPattern, Type: "pattern", Title: pc.title, Pattern: p}
	if row.Description != "" {
		n.Sections = []note.Section{{Heading: "Context", Markdown: parse.ProseText(row.Description)}}
	}
	var dates map[string]string
	if row.LastUsed != "" && pc.side.LastUsed == "" {
		dates = map[string]string{"last_validated": row.LastUsed}
	}
	return parse.Format(n, parse.FormatOptions{Dates: dates, Extra: []parse.Entry{{Key: sidecarKey, Value: pc.side}}})
}
