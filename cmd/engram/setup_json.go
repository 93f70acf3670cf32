package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// The JSON edits of engram setup are textual: a member is added after
// the last member of its object or array, or cut out with the comma
// and white space before it, and every other byte of the file stays as
// the user wrote it. Adding then cutting gives back the original bytes
// (an object that was empty before comes back as {}).

// jsonMember is one member of a JSON object (key set) or array, by its
// byte offsets in the document: from its key (or value) to its value's
// end.
type jsonMember struct {
	key        string
	start, end int
	value      []byte
}

// jsonContainer is the object or array that opens at doc[open].
type jsonContainer struct {
	open, close int // offsets of the brackets
	members     []jsonMember
}

// parseContainer reads the members of the container opening at
// doc[open]; doc is valid JSON (checked before).
func parseContainer(doc []byte, open int) (jsonContainer, error) {
	c := jsonContainer{open: open}
	isObject := doc[open] == '{'
	i := skipSpace(doc, open+1)
	if i < len(doc) && (doc[i] == '}' || doc[i] == ']') {
		c.close = i
		return c, nil
	}
	for i < len(doc) {
		m := jsonMember{start: i}
		if isObject {
			end, err := valueEnd(doc, i)
			if err != nil {
				return c, err
			}
			if err := json.Unmarshal(doc[i:end], &m.key); err != nil {
				return c, err
			}
			i = skipSpace(doc, end)
			i = skipSpace(doc, i+1) // the colon
		}
		end, err := valueEnd(doc, i)
		if err != nil {
			return c, err
		}
		m.value, m.end = doc[i:end], end
		c.members = append(c.members, m)
		i = skipSpace(doc, end)
		if i >= len(doc) || doc[i] != ',' {
			break
		}
		i = skipSpace(doc, i+1)
	}
	if i >= len(doc) || (doc[i] != '}' && doc[i] != ']') {
		return c, fmt.Errorf("unexpected byte at offset %d", i)
	}
	c.close = i
	return c, nil
}

// valueEnd is the offset just after the JSON value that starts at i.
func valueEnd(doc []byte, i int) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(doc[i:]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return 0, err
	}
	return i + int(dec.InputOffset()), nil
}

func skipSpace(doc []byte, i int) int {
	for i < len(doc) && strings.IndexByte(" \t\r\n", doc[i]) >= 0 {
		i++
	}
	return i
}

// find is the member of c with key, or -1.
func (c jsonContainer) find(key string) int {
	for i, m := range c.members {
		if m.key == key {
			return i
		}
	}
	return -1
}

// jsonRoot checks that doc is one JSON object and returns it.
func jsonRoot(doc []byte) (jsonContainer, error) {
	if !json.Valid(doc) {
		var v any
		err := json.Unmarshal(doc, &v)
		return jsonContainer{}, fmt.Errorf("it is not valid JSON (%v)", err)
	}
	i := skipSpace(doc, 0)
	if doc[i] != '{' {
		return jsonContainer{}, fmt.Errorf("it is not a JSON object")
	}
	return parseContainer(doc, i)
}

// jsonWalk follows path (object keys) from the root: the containers on
// the way, as far as they exist. A member on the path that is not an
// object (or, for the last, the kind last wants: '{' or '[') is an error.
func jsonWalk(doc []byte, path []string, last byte) ([]jsonContainer, error) {
	c, err := jsonRoot(doc)
	if err != nil {
		return nil, err
	}
	chain := []jsonContainer{c}
	for n, key := range path {
		i := c.find(key)
		if i < 0 {
			break
		}
		want := byte('{')
		if n == len(path)-1 {
			want = last
		}
		v := c.members[i].value
		if v[0] != want {
			return nil, fmt.Errorf("%s is not a JSON %s", strings.Join(path[:n+1], "."), map[byte]string{'{': "object", '[': "array"}[want])
		}
		if c, err = parseContainer(doc, c.members[i].end-len(v)); err != nil {
			return nil, err
		}
		chain = append(chain, c)
	}
	return chain, nil
}

// layout is how a file separates members: a newline and unit per
// level (pretty), or flat ("" or " ") at every level; read from the
// root object's first member, two spaces when it has none.
type layout struct {
	pretty     bool
	unit, flat string
}

func layoutOf(doc []byte, root jsonContainer) layout {
	if len(root.members) == 0 {
		return layout{pretty: true, unit: "  "}
	}
	sep := string(doc[root.open+1 : root.members[0].start])
	if nl := strings.LastIndexByte(sep, '\n'); nl >= 0 {
		return layout{pretty: true, unit: sep[nl+1:]}
	}
	return layout{flat: sep}
}

// sep is the white space before a member at level (the root's members
// are at 1); sep(level-1) closes a container whose members are at level.
func (l layout) sep(level int) string {
	if !l.pretty {
		return l.flat
	}
	return "\n" + strings.Repeat(l.unit, level)
}

// jsonAdd adds a member to the container at path (created as needed,
// the last as an object when key is set, else as an array): key: value
// in an object, or value as an array's last element.
func jsonAdd(doc []byte, path []string, key, value string) ([]byte, error) {
	last := byte('{')
	if key == "" {
		last = '['
	}
	chain, err := jsonWalk(doc, path, last)
	if err != nil {
		return nil, err
	}
	l := layoutOf(doc, chain[0])
	member := value
	if key != "" {
		member = quoteJSON(key) + ": " + value
	}
	// The containers that do not exist yet, innermost first: path[n]
	// holds members at level n+2.
	for n := len(path) - 1; n >= len(chain)-1; n-- {
		open, shut := "{", "}"
		if n == len(path)-1 && key == "" {
			open, shut = "[", "]"
		}
		member = quoteJSON(path[n]) + ": " + open + l.sep(n+2) + member + l.sep(n+1) + shut
	}
	c, level := chain[len(chain)-1], len(chain)
	var out bytes.Buffer
	switch {
	case len(c.members) == 0 && level == 1:
		out.Write(doc[:c.open+1])
		out.WriteString(l.sep(level) + member + l.sep(level-1))
		out.Write(doc[c.close:])
		return out.Bytes(), nil
	case len(c.members) == 0:
		// Inside the braces of an empty container of the user's, so
		// that it reads differently from one jsonAdd made, and
		// jsonCut knows to keep it.
		out.Write(doc[:c.open+1])
		out.WriteString(member)
		out.Write(doc[c.open+1:])
		return out.Bytes(), nil
	}
	end := c.members[len(c.members)-1].end
	out.Write(doc[:end])
	out.WriteString("," + string(doc[c.open+1:c.members[0].start]) + member)
	out.Write(doc[end:])
	return out.Bytes(), nil
}

// cutMember removes member i of c with the comma and white space before
// it (after it, for a first member followed by others); a root object
// left empty is {}, another container keeps the white space after its
// member.
func cutMember(doc []byte, c jsonContainer, i int) []byte {
	var from, to int
	switch {
	case len(c.members) == 1 && c.open == skipSpace(doc, 0):
		from, to = c.open+1, c.close
	case len(c.members) == 1:
		from, to = c.open+1, c.members[0].end
	case i == 0:
		from, to = c.members[0].start, c.members[1].start
	default:
		from, to = c.members[i-1].end, c.members[i].end
	}
	return append(append([]byte{}, doc[:from]...), doc[to:]...)
}

// replaceValue puts value in place of member i's value.
func replaceValue(doc []byte, c jsonContainer, i int, value string) []byte {
	m := c.members[i]
	return append(append(append([]byte{}, doc[:m.end-len(m.value)]...), value...), doc[m.end:]...)
}

// jsonCut removes the member of the container at path that match says
// is engram's; found is false when there is none. When that leaves
// containers on the path empty, it gives back the document that adding
// the member (jsonAdd) turns into doc: with the empty containers the
// user had, without those the add made. When no cut is that document
// (the file was edited since), each container left empty goes.
func jsonCut(doc []byte, path []string, last byte, match func(jsonMember) bool) (out []byte, found bool, err error) {
	chain, err := jsonWalk(doc, path, last)
	if err != nil || len(chain) < len(path)+1 {
		return doc, false, err
	}
	c := chain[len(chain)-1]
	i := slices.IndexFunc(c.members, match)
	if i < 0 {
		return doc, false, nil
	}
	m := c.members[i]
	var inverse []byte
	out = cutMember(doc, c, i)
	for n := len(chain) - 1; ; n-- {
		if again, err := jsonAdd(out, path, m.key, string(m.value)); err == nil && bytes.Equal(again, doc) && inverse == nil {
			inverse = out
		}
		if n == 0 || len(c.members) > 1 {
			break
		}
		c = chain[n-1]
		out = cutMember(doc, c, c.find(path[n-1]))
	}
	if inverse != nil {
		return inverse, true, nil
	}
	return out, true, nil
}

// sameJSON reports whether a and b are the same JSON text apart from
// white space.
func sameJSON(a, b []byte) bool {
	var x, y bytes.Buffer
	return json.Compact(&x, a) == nil && json.Compact(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}

// emptyJSON reports whether doc is an object with no members.
func emptyJSON(doc []byte) bool {
	c, err := jsonRoot(doc)
	return err == nil && len(c.members) == 0
}
