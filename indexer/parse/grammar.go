package parse

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/engramhq/engram/indexer/note"
)

var (
	wikilinkRE = regexp.MustCompile(`\[\[([^\[\]\n]*)\]\]`)
	codeSpanRE = regexp.MustCompile("(`+)[^`]*?(`+)")
	checkboxRE = regexp.MustCompile(`^\[[ xX]\](\s|$)`)
	// observationRE: "[category] content"; the category has no []() and a
	// markdown link "[text](url)" is not an observation. A relation type
	// holds no backtick (\x60): "- `uses [[X]]`" is code, not a relation.
	observationRE = regexp.MustCompile(`^\[([^\[\]()]+)\](?:\s+(.*))?$`)
	relationRE    = regexp.MustCompile(`^("[^"]+"|[^\s\[\]"#\x60]+)\s+\[\[([^\[\]\n]+)\]\](.*)$`)
	bareLinkRE    = regexp.MustCompile(`^\[\[([^\[\]\n]+)\]\](\s*(?:\([^()]*\))?\s*)$`)
	contextRE     = regexp.MustCompile(`\(([^()]*)\)\s*$`)
	tagRE         = regexp.MustCompile(`(?:^|\s)#([\p{L}\p{N}_/-]+)`)
	evidenceRE    = regexp.MustCompile(`^\[\[([^\[\]\n]+)\]\]\s*(?:[-–—:,]\s*)?(\S*)(.*)$`)
	weightRE      = regexp.MustCompile(`(?i)\bweight\s*[:=]?\s*(-?[0-9]*\.?[0-9]+(?:e-?[0-9]+)?)`)
	eventRE       = regexp.MustCompile(`^\[([^\[\]]*)\]\s*(.*)$`)
	eventTypeRE   = regexp.MustCompile(`\s#(` + wordPattern + `)\s*$`)
	eventLinkRE   = regexp.MustCompile(`(?i)\s*\((caused_by|leads_to)\s*:?\s*([^()]*)\)\s*$`)
	fieldRE       = regexp.MustCompile(`^\*\*([^*:]+?):?\*\*:?\s*(.*)$`)
	decisionRE    = regexp.MustCompile(`^([^:\s]+)\s*:\s*(.*)$`)
)

// blankCode replaces code spans with spaces so wikilinks inside them are
// not links, keeping byte offsets intact.
func blankCode(s string) string {
	if !strings.Contains(s, "`") {
		return s
	}
	return codeSpanRE.ReplaceAllStringFunc(s, func(m string) string { return strings.Repeat(" ", len(m)) })
}

// splitLink reads "Target|alias" or "Target#heading".
func splitLink(inner string) note.Link {
	var l note.Link
	target, alias, hasAlias := strings.Cut(inner, "|")
	if hasAlias {
		l.Alias = strings.TrimSpace(alias)
	}
	target, heading, hasHeading := strings.Cut(target, "#")
	if hasHeading {
		l.Heading = strings.TrimSpace(heading)
	}
	l.Target = strings.TrimSpace(target)
	return l
}

// observation parses "[category] content #tag (context)".
func observation(s string) (note.Observation, bool) {
	if checkboxRE.MatchString(s) || strings.HasPrefix(s, "[[") {
		return note.Observation{}, false
	}
	m := observationRE.FindStringSubmatch(s)
	if m == nil || strings.TrimSpace(m[2]) == "" {
		return note.Observation{}, false
	}
	o := note.Observation{Category: strings.TrimSpace(m[1])}
	if cat, id, ok := strings.Cut(o.Category, ":"); ok {
		o.Category, o.ID = strings.TrimSpace(cat), strings.TrimSpace(id)
	}
	content := strings.TrimSpace(m[2])
	if c := contextRE.FindStringSubmatchIndex(content); c != nil && c[0] > 0 {
		o.Context = strings.TrimSpace(content[c[2]:c[3]])
		content = strings.TrimSpace(content[:c[0]])
	}
	o.Content = content
	for _, t := range tagRE.FindAllStringSubmatch(content, -1) {
		o.Tags = append(o.Tags, t[1])
	}
	return o, true
}

// relation parses `relation_type [[Target]] (context)`; relation_type is
// one token or a quoted string.
func relation(s string) (note.Relation, bool) {
	m := relationRE.FindStringSubmatch(s)
	if m == nil {
		// basic-memory: a bare [[wiki link]] item relates_to its target.
		if b := bareLinkRE.FindStringSubmatch(s); b != nil {
			m = []string{b[0], "relates_to", b[1], b[2]}
		} else {
			return note.Relation{}, false
		}
	}
	r := note.Relation{Type: strings.Trim(m[1], `"`), Target: splitLink(m[2]).Target}
	if c := contextRE.FindStringSubmatch(m[3]); c != nil {
		r.Context = strings.TrimSpace(c[1])
	}
	return r, r.Target != ""
}

// weight reads "(weight 0.8)" from a causal relationship's context.
func weight(context string) (w float64, found, valid bool) {
	m := weightRE.FindStringSubmatch(context)
	if m == nil {
		return 0, false, false
	}
	w, err := strconv.ParseFloat(m[1], 64)
	return w, true, err == nil && w > 0 && w <= 1
}

// eventLinks are an event's causal links to other events of the episode,
// as ai-agents' caused_by and leads_to arrays.
type eventLinks struct{ causedBy, leadsTo []string }

// event parses "[timestamp] text (caused_by e001) (leads_to e003, e004)
// #type". The link groups may come before or after the type.
func event(s string) (ts, text, typ string, links eventLinks, ok bool) {
	m := eventRE.FindStringSubmatch(s)
	if m == nil {
		return "", strings.TrimSpace(s), "", links, false
	}
	text = strings.TrimSpace(m[2])
	text = links.strip(text)
	if t := eventTypeRE.FindStringSubmatchIndex(text); t != nil {
		typ = strings.ToLower(text[t[2]:t[3]])
		text = strings.TrimSpace(text[:t[0]])
	}
	text = links.strip(text)
	return strings.TrimSpace(m[1]), text, typ, links, true
}

// strip removes trailing link groups from text, collecting their ids.
func (l *eventLinks) strip(text string) string {
	for {
		m := eventLinkRE.FindStringSubmatchIndex(text)
		if m == nil {
			return text
		}
		ids := strings.FieldsFunc(text[m[4]:m[5]], func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		for k, id := range ids {
			ids[k] = strings.TrimSuffix(strings.TrimPrefix(id, "[["), "]]")
		}
		if strings.EqualFold(text[m[2]:m[3]], "caused_by") {
			l.causedBy = append(ids, l.causedBy...)
		} else {
			l.leadsTo = append(ids, l.leadsTo...)
		}
		text = strings.TrimSpace(text[:m[0]])
	}
}

// field parses a decision field "**Key**: value".
func field(s string) (key, value string, ok bool) {
	m := fieldRE.FindStringSubmatch(s)
	if m == nil {
		if k, v, found := strings.Cut(s, ":"); found && !strings.ContainsAny(k, " \t") {
			return strings.ToLower(k), strings.TrimSpace(v), true
		}
		return "", "", false
	}
	return strings.ToLower(strings.TrimSpace(m[1])), strings.TrimSpace(m[2]), true
}

// splitList splits a comma-separated option list.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
