package indexer

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/source"
)

// cancelAfter is a context that is cancelled once its Err has been asked
// n times: an interruption that arrives while the build is parsing,
// without a clock.
type cancelAfter struct {
	context.Context
	n, asked atomic.Int64
}

func (c *cancelAfter) Err() error {
	if c.asked.Add(1) > c.n.Load() {
		return context.Canceled
	}
	return nil
}

// TestParseStopsWhenInterrupted: a build interrupted while it parses
// stops between notes and returns the interruption, not the notes read
// so far (SPEC §6: Ctrl-C stops the build). A note's own work is bounded
// by the size cap and the cost budget (parse.TestWikilinkFlood: the note
// that took 36 s to parse, during which no interruption was seen, is
// kept as text), so stopping between notes is prompt.
func TestParseStopsWhenInterrupted(t *testing.T) {
	fsys := fstest.MapFS{}
	repo := &source.Repo{FS: fsys, Kind: "dir"}
	for i := range 200 {
		path := fmt.Sprintf("notes/n%03d.md", i)
		data := []byte("---\ntitle: N" + fmt.Sprint(i) + "\n---\nSee [[N" + fmt.Sprint(i+1) + "]].\n")
		fsys[path] = &fstest.MapFile{Data: data}
		repo.Files = append(repo.Files, source.File{Path: path, Size: int64(len(data))})
	}
	for _, after := range []int64{0, 1, 10} {
		t.Run(fmt.Sprint(after), func(t *testing.T) {
			ctx := &cancelAfter{Context: context.Background()}
			ctx.n.Store(after)
			notes, _, _, err := parseAll(ctx, repo, parse.Roots{}, nil)
			if !errors.Is(err, context.Canceled) || notes != nil {
				t.Fatalf("parseAll = %d notes, %v; want none and context.Canceled", len(notes), err)
			}
			if asked := ctx.asked.Load(); asked != after+1 {
				t.Errorf("the interruption was asked about %d times, want %d: once a note until it came", asked, after+1)
			}
		})
	}
}
