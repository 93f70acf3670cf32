package causal

import (
	"path"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/engramhq/engram/indexer/note"
)

// Index resolves wikilink targets to notes: by title, then by file name,
// then by permalink, case-insensitively and after Unicode normalisation.
type Index struct {
	byTitle, byFile, byPermalink map[string]int
}

// Key is the form under which titles are compared: NFC, lower case.
func Key(s string) string {
	return strings.ToLower(norm.NFC.String(strings.TrimSpace(s)))
}

// NewIndex indexes notes; when two notes share a key, the first wins
// (notes come sorted by path).
func NewIndex(notes []note.Note) *Index {
	ix := &Index{byTitle: map[string]int{}, byFile: map[string]int{}, byPermalink: map[string]int{}}
	for i, n := range notes {
		put(ix.byTitle, Key(n.Title), i)
		base := path.Base(n.Path)
		put(ix.byFile, Key(strings.TrimSuffix(base, path.Ext(base))), i)
		if n.Permalink != "" {
			put(ix.byPermalink, Key(strings.Trim(n.Permalink, "/")), i)
		}
	}
	return ix
}

func put(m map[string]int, k string, i int) {
	if _, ok := m[k]; !ok && k != "" {
		m[k] = i
	}
}

// Resolve returns the index of the note a target names.
func (ix *Index) Resolve(target string) (int, bool) {
	k := Key(target)
	if i, ok := ix.byTitle[k]; ok {
		return i, true
	}
	if i, ok := ix.byFile[k]; ok {
		return i, true
	}
	i, ok := ix.byPermalink[strings.Trim(k, "/")]
	return i, ok
}
