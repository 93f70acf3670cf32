package write

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ThreadStatuses are the statuses mark_thread_status sets.
var threadStatuses = []string{"pending", "processing", "completed"}

// LinkEpisodeToConcept links an episode and a concept note both ways
// (SPEC §3 provenance): the concept's title is added to the episode's
// concepts, and the episode's title to the concept's episodes. Each note
// changes in that one front matter key only; a link already there is
// left, and when both are, nothing is written.
func LinkEpisodeToConcept(ctx context.Context, opt WriteOptions, episode, concept string) (Written, error) {
	t, err := begin(ctx, opt)
	if err != nil {
		return Written{}, err
	}
	return t.end(linkBoth(t, episode, concept), "write: link "+episode+" to "+concept)
}

func linkBoth(t *txn, episode, concept string) error {
	ep, err := t.findNote(episode)
	if err != nil {
		return err
	}
	if ep.Note.Episode == nil {
		return fmt.Errorf("%s (%s) is not an episode: give an episode first, then the concept", ep.Note.Title, ep.Path)
	}
	c, err := t.findNote(concept)
	if err != nil {
		return err
	}
	if c.Note.Episode != nil || c.Path == ep.Path {
		return fmt.Errorf("%s (%s) is an episode: link an episode to a concept note", c.Note.Title, c.Path)
	}
	if err := editKey(t, ep, func(n *yaml.Node) bool { return addToList(n, "concepts", c.Note.Title) }); err != nil {
		return err
	}
	return editKey(t, c, func(n *yaml.Node) bool { return addToList(n, "episodes", ep.Note.Title) })
}

// MarkThreadStatus sets the front matter status of a thread or session
// note to pending, processing or completed, changing nothing else.
func MarkThreadStatus(ctx context.Context, opt WriteOptions, thread, status string) (Written, error) {
	if !slices.Contains(threadStatuses, status) {
		return Written{}, fmt.Errorf("the status %q is not one of %s", status, strings.Join(threadStatuses, ", "))
	}
	t, err := begin(ctx, opt)
	if err != nil {
		return Written{}, err
	}
	f, err := t.findNote(thread)
	if err == nil && f.Note.Type != "thread" && f.Note.Type != "session" {
		err = fmt.Errorf("%s (%s) is a %s note, not a thread or session (front matter type: thread)", f.Note.Title, f.Path, f.Note.Kind)
	}
	if err == nil {
		err = editKey(t, f, func(n *yaml.Node) bool { return setScalar(n, "status", status) })
	}
	return t.end(err, "write: thread "+thread+" "+status)
}

// editKey changes the YAML front matter of the note f with edit (false:
// nothing to change) and writes it, the body kept byte for byte. The
// note must parse with no error diagnostic afterwards, as every note
// written.
func editKey(t *txn, f found, edit func(*yaml.Node) bool) error {
	src := f.Src
	if bytes.HasPrefix(src, []byte("+++")) || bytes.HasPrefix(src, []byte("\uFEFF")) || bytes.Contains(src, []byte("\r\n")) {
		return fmt.Errorf("%s has TOML front matter, a byte order mark or CRLF line ends, which engram does not edit: make the change by hand", f.Path)
	}
	var fm, body []byte
	if rest, ok := bytes.CutPrefix(src, []byte("---\n")); ok {
		end := bytes.Index(rest, []byte("\n---\n"))
		if end < 0 {
			return fmt.Errorf("%s: the front matter is not closed with ---: fix it first", f.Path)
		}
		fm, body = rest[:end+1], rest[end+5:]
	} else {
		body = src
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(fm, &doc); err != nil {
		return fmt.Errorf("%s: the front matter is not valid YAML (%v): fix it first", f.Path, err)
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return fmt.Errorf("%s: the front matter is not a mapping of keys: fix it first", f.Path)
	}
	if !edit(doc.Content[0]) {
		return nil
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	enc.Close()
	out := slices.Concat([]byte("---\n"), b.Bytes(), []byte("---\n"), body)
	if _, err := checkNote(f.Path, out); err != nil {
		return err
	}
	t.replace(f.Path, out)
	return nil
}

// lookup returns the value node of key in the mapping m, or nil.
func lookup(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func setScalar(m *yaml.Node, key, value string) bool {
	v := lookup(m, key)
	if v == nil {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value})
		return true
	}
	if v.Kind == yaml.ScalarNode && v.Value == value {
		return false
	}
	*v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
	return true
}

// addToList adds item to the list at key (a YAML list, or a
// comma-separated string, which becomes a list), unless it is there in
// any case.
func addToList(m *yaml.Node, key, item string) bool {
	v := lookup(m, key)
	var items []string
	switch {
	case v == nil:
	case v.Kind == yaml.SequenceNode:
		for _, e := range v.Content {
			items = append(items, e.Value)
		}
	case v.Kind == yaml.ScalarNode && v.Tag != "!!null":
		for _, s := range strings.Split(v.Value, ",") {
			if s = strings.TrimSpace(s); s != "" {
				items = append(items, s)
			}
		}
	}
	for _, s := range items {
		if strings.EqualFold(strings.TrimSpace(s), item) {
			return false
		}
	}
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, s := range append(items, item) {
		list.Content = append(list.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s})
	}
	if v == nil {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, list)
	} else {
		*v = *list
	}
	return true
}
