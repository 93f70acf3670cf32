package main

import (
	"bytes"
	"fmt"
	"regexp"

	"github.com/BurntSushi/toml"
)

// The TOML edit of engram setup is textual too: engram's table is
// appended at the end of the file, after a blank line, and removed with
// that blank line; the rest of the file keeps its bytes and comments.
// BurntSushi/toml checks the file before and after.

// tomlHeader finds a table header line for mcp_servers.engram, in any
// of the spellings TOML allows for it.
var tomlHeader = regexp.MustCompile(`(?m)^[ \t]*\[[ \t]*(mcp_servers|"mcp_servers")[ \t]*\.[ \t]*(engram|"engram")[ \t]*\][ \t]*(#.*)?\r?\n?`)

// tomlServers decodes the file's mcp_servers, refusing a file that is
// not TOML.
func tomlServers(doc []byte) (map[string]any, error) {
	var v struct {
		Servers map[string]any `toml:"mcp_servers"`
	}
	if _, err := toml.Decode(string(doc), &v); err != nil {
		return nil, fmt.Errorf("it is not valid TOML (%v)", err)
	}
	return v.Servers, nil
}

// tomlAdd appends table (engram's, ending in a newline) to doc. When the
// file has an engram server already, it is replaced only if it is the
// table engram writes (its exact text) or force; one that is not a
// [mcp_servers.engram] table of its own is never edited.
func tomlAdd(doc []byte, table string, force bool) ([]byte, error) {
	servers, err := tomlServers(doc)
	if err != nil {
		return nil, err
	}
	if _, ok := servers["engram"]; !ok {
		if len(doc) == 0 {
			return []byte(table), nil
		}
		sep := "\n"
		if !bytes.HasSuffix(doc, []byte("\n")) {
			sep = "\n\n"
		}
		return append(append(append([]byte{}, doc...), sep...), table...), nil
	}
	from, to, ok := tomlTable(doc)
	if !ok {
		return nil, errNotOurs("it sets mcp_servers.engram in a form engram setup does not edit (not a [mcp_servers.engram] table)")
	}
	if string(doc[from:to]) == table {
		return doc, nil
	}
	if !force {
		return nil, errNotOurs("its [mcp_servers.engram] table is not the one engram setup writes")
	}
	return append(append(append([]byte{}, doc[:from]...), table...), doc[to:]...), nil
}

// tomlRemove removes engram's table and the blank line before it; found
// is false when there is none. A table that is not the one engram
// writes is left, unless force.
func tomlRemove(doc []byte, table string, force bool) (out []byte, found bool, err error) {
	servers, err := tomlServers(doc)
	if err != nil {
		return nil, false, err
	}
	if _, ok := servers["engram"]; !ok {
		return doc, false, nil
	}
	from, to, ok := tomlTable(doc)
	if !ok {
		return nil, false, errNotOurs("it sets mcp_servers.engram in a form engram setup does not edit (not a [mcp_servers.engram] table)")
	}
	if string(doc[from:to]) != table && !force {
		return nil, false, errNotOurs("its [mcp_servers.engram] table is not the one engram setup writes")
	}
	if bytes.HasSuffix(doc[:from], []byte("\n\n")) {
		from--
	}
	out = append(append([]byte{}, doc[:from]...), doc[to:]...)
	if _, err := tomlServers(out); err != nil {
		return nil, false, fmt.Errorf("without engram's table %w", err)
	}
	return out, true, nil
}

// tomlTable is the span of the [mcp_servers.engram] table: its header
// line to the next table header (or the end), less the blank lines and
// comments just before that header, which belong to it.
func tomlTable(doc []byte) (from, to int, ok bool) {
	loc := tomlHeader.FindIndex(doc)
	if loc == nil {
		return 0, 0, false
	}
	from, to = loc[0], len(doc)
	if next := regexp.MustCompile(`(?m)^[ \t]*\[`).FindIndex(doc[loc[1]:]); next != nil {
		to = loc[1] + next[0]
		for to > loc[1] {
			prev := bytes.LastIndexByte(doc[:to-1], '\n') + 1
			line := bytes.TrimSpace(doc[prev:to])
			if len(line) > 0 && line[0] != '#' {
				break
			}
			to = prev
		}
	}
	return from, to, true
}
