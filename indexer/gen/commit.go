package gen

import (
	"bytes"
	"fmt"

	"github.com/engramhq/engram/indexer/source"
)

// author is the author of every generated commit.
const author = "engram gen <gen@engram.invalid>"

// commit renders the planned notes into commits: each commit adds its batch
// and modifies about one earlier note per ten it adds.
func (g *generator) commit() Corpus {
	batches := make([][]*item, g.o.Commits)
	for _, group := range [][]*item{g.eps, g.pats, g.bad} {
		for _, it := range group {
			batches[it.AddedIn] = append(batches[it.AddedIn], it)
		}
	}
	commits := make([]source.Commit, g.o.Commits)
	var earlier []*item // good notes of the commits before c
	for c, batch := range batches {
		files := make(map[string][]byte, len(batch)+len(batch)/10+1)
		for _, it := range batch {
			files[it.Path] = g.render(it)
		}
		g.modify(c, earlier, len(batch), files)
		updated := len(files) - len(batch)
		commits[c] = source.Commit{
			Files:   files,
			Message: fmt.Sprintf("memory: add %d notes, update %d", len(batch), updated),
			Author:  author,
			When:    g.when(c),
		}
		earlier = appendGood(earlier, batch)
	}
	return Corpus{Commits: commits, Notes: g.truth(batches), RefTime: g.when(g.o.Commits - 1)}
}

// render writes the current revision of a note. It renders into one
// reused buffer and copies out the exact bytes, so that the memory kept is
// the size of the output.
func (g *generator) render(it *item) []byte {
	d := &g.doc
	d.reset()
	switch {
	case it.Bad != "":
		renderBad(d, it)
	case it.Pattern != nil:
		renderPattern(d, it)
	default:
		renderEpisode(d, it)
	}
	return bytes.Clone(d.b)
}

// modify re-renders earlier notes into the files of commit c. The
// first modification of commit 1 is an episode without a date, so that a
// test sees the created date stay at the first commit when a later one
// touches the file.
func (g *generator) modify(c int, earlier []*item, added int, files map[string][]byte) {
	if c == 0 || len(earlier) == 0 {
		return
	}
	n := max(added/10, 1)
	for k := range n {
		it := earlier[g.r.IntN(len(earlier))]
		if k == 0 && c == 1 {
			it = firstUndated(earlier, it)
		}
		if it.Twin != "" {
			// A revision would add text to one of a near-duplicate
			// pair only: they stay as planted.
			continue
		}
		it.rev++
		it.UpdatedIn = c
		files[it.Path] = g.render(it)
	}
}

func firstUndated(items []*item, fallback *item) *item {
	for _, it := range items {
		if it.Pattern == nil && it.dateText == "" {
			return it
		}
	}
	return fallback
}

func appendGood(dst, batch []*item) []*item {
	for _, it := range batch {
		if it.Bad == "" {
			dst = append(dst, it)
		}
	}
	return dst
}

// truth collects the ground truth in the order the notes were added.
func (g *generator) truth(batches [][]*item) []Note {
	notes := make([]Note, 0, len(g.eps)+len(g.pats)+len(g.bad))
	for _, batch := range batches {
		for _, it := range batch {
			it.Updated = g.when(it.UpdatedIn)
			notes = append(notes, it.Note)
		}
	}
	return notes
}
