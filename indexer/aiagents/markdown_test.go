package aiagents

import (
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// EpisodeMarkdown converts one episode file into a markdown episode note
// (SPEC §2.1) and returns it with the note as Decode reads the JSON, for
// the tests of this package (Import converts a whole directory). The
// diagnostics are Decode's and the import's; the error is non-nil when no
// note can be made: the file is not a JSON object, or the episode has no
// valid outcome (markdown episodes must have one).
func EpisodeMarkdown(filePath string, data []byte) ([]byte, note.Note, []note.Diagnostic, error) {
	return episodeMarkdown(parse.New(parse.Roots{}), filePath, data)
}
